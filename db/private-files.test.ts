import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";
import { lockPathFor } from "./lock";
import { mendModes } from "./private-files";

// The embedded database on disk, opened under the widest umask (files 0666 and directories 0777
// unless the app narrows it), as on the machine where 969 of 1,177 files were readable by anyone.
let base: string;
let savedUmask: number;
beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "kps-modes-"));
  savedUmask = process.umask(0);
});
afterAll(() => {
  process.umask(savedUmask);
  fs.rmSync(base, { recursive: true, force: true });
});

/** Every entry under `dir` (and the lock file) whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const entries = [dir, ...fs.readdirSync(dir, { recursive: true }).map((e) => path.join(dir, String(e))), lockPathFor(dir)];
  return entries.filter((p) => fs.existsSync(p) && !fs.lstatSync(p).isSymbolicLink() && (fs.lstatSync(p).mode & 0o077) !== 0);
}

describe("the embedded data directory's modes", () => {
  // A fresh initdb and 60,000 rows: over the default 30 s on a loaded 2-core machine.
  it(
    "creates every file 0600 and directory 0700, also those written while open (WAL), and the lock file",
    { timeout: 120_000 },
    async () => {
      process.umask(0);
      const dir = path.join(base, "fresh", "pglite");
      const handle = await openDatabase({ dataDir: dir });
      expect(handle.notes).toEqual([]);
      expect(fs.statSync(lockPathFor(dir)).mode & 0o777).toBe(0o600);
      await handle.db.execute(sql`create table t (n int, s text)`);
      // Enough rows to fill WAL segments and new relation files while the database is open.
      await handle.db.execute(sql`insert into t select g, repeat('x', 200) from generate_series(1, 60000) g`);
      await handle.db.execute(sql`checkpoint`);
      expect(openToOthers(dir)).toEqual([]);
      await handle.close();
      expect(openToOthers(dir)).toEqual([]);
      expect(fs.statSync(path.dirname(dir)).mode & 0o777).toBe(0o700);
      const files = fs.readdirSync(dir, { recursive: true }).filter((e) => fs.statSync(path.join(dir, String(e))).isFile());
      expect(files.length).toBeGreaterThan(100);
    },
  );

  it("mends a directory made under a wider umask when opened, and says how many entries it mended", async () => {
    const dir = path.join(base, "fresh", "pglite");
    const widened = [dir, path.join(dir, "base"), path.join(dir, "PG_VERSION"), path.join(dir, "postgresql.conf")];
    for (const p of widened) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o666);
    const handle = await openDatabase({ dataDir: dir });
    try {
      expect(handle.notes).toEqual([`Data directory ${dir}: 4 files were readable by others; made private (0600/0700).`]);
      expect(openToOthers(dir)).toEqual([]);
      expect(fs.statSync(path.join(dir, "base")).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, "PG_VERSION")).mode & 0o777).toBe(0o600);
    } finally {
      await handle.close();
    }
  });

  it("keeps the owner's bits, leaves symbolic links alone and counts nothing on a private directory", () => {
    const dir = path.join(base, "plain");
    fs.mkdirSync(path.join(dir, "sub"), { recursive: true });
    fs.writeFileSync(path.join(dir, "sub", "f"), "x");
    const outside = path.join(base, "outside");
    fs.writeFileSync(outside, "x");
    // chmod, not the umask: opening the database above narrowed it for this process.
    [
      [dir, 0o777],
      [path.join(dir, "sub"), 0o755],
      [path.join(dir, "sub", "f"), 0o744],
      [outside, 0o644],
    ].forEach(([p, m]) => fs.chmodSync(p as string, m as number));
    fs.symlinkSync(outside, path.join(dir, "link"));
    expect(mendModes(dir)).toBe(3);
    expect(fs.statSync(path.join(dir, "sub", "f")).mode & 0o777).toBe(0o700);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
    expect(mendModes(dir)).toBe(0);
  });
});
