import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// Two app processes on one embedded data directory: the second must refuse to start.
test("a second app process on the same .data directory fails with a clear message", async () => {
  test.setTimeout(90_000);
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-lock-")), "pglite");
  const next = path.join(process.cwd(), "node_modules", ".bin", "next");
  const env = { ...process.env, DATABASE_URL: "", KPS_DATA_DIR: dataDir, KPS_DEMO: "0" };
  const start = (port: number) => {
    const child = spawn(next, ["start", "-p", String(port)], { env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    return { child, output: () => output };
  };
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on("exit", (code) => resolve(code))));

  const first = start(3191);
  try {
    await expect.poll(async () => (await fetch("http://localhost:3191/api/health").then((r) => r.status).catch(() => 0)), { timeout: 60_000 }).toBe(200);

    const second = start(3192);
    const code = await Promise.race([exited(second.child), new Promise<"running">((r) => setTimeout(() => r("running"), 30_000))]);
    if (code === "running") second.child.kill("SIGKILL");
    expect(code).toBe(1);
    expect(second.output()).toContain(`The embedded database at ${dataDir} is already in use by another process`);

    // The first process still serves.
    expect((await fetch("http://localhost:3191/api/health")).status).toBe(200);
  } finally {
    first.child.kill("SIGTERM");
    await exited(first.child);
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});
