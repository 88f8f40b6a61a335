import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDirLock, DataDirLockedError, lockPathFor } from "./lock";

const dirs: string[] = [];
function tempDataDir(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "kps-lock-"));
  dirs.push(base);
  return path.join(base, "pglite");
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("refuses a directory held by another live process, naming the directory and pid", async () => {
    const dataDir = tempDataDir();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(lockPathFor(dataDir), JSON.stringify({ pid: holder.pid, startedAt: "earlier" }));
      let caught: unknown;
      try {
        acquireDirLock(dataDir);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DataDirLockedError);
      expect((caught as Error).message).toContain(dataDir);
      expect((caught as Error).message).toContain(`pid ${holder.pid}`);
    } finally {
      holder.kill();
    }
  });

  it("takes over the lock of a process that died (kill -9) without waiting", () => {
    const dataDir = tempDataDir();
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    fs.writeFileSync(lockPathFor(dataDir), JSON.stringify({ pid: Number(dead.stdout.trim()), startedAt: "earlier" }));
    const lock = acquireDirLock(dataDir);
    expect(JSON.parse(fs.readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.path)).toBe(false);
  });

  it("is released on release() and can be taken again", () => {
    const dataDir = tempDataDir();
    const first = acquireDirLock(dataDir);
    first.release();
    const second = acquireDirLock(dataDir);
    expect(fs.existsSync(second.path)).toBe(true);
    second.release();
  });
});
