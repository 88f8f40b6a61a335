import fs from "node:fs";
import path from "node:path";

/**
 * The embedded database's files hold every password hash and judgment: only the owner may read
 * them (directories 0700, files 0600). PGlite gives the files it unpacks at creation, and a few it
 * rewrites at each open, modes of its own (0666, 0644) whatever the umask, so db/client.ts mends the
 * directory before opening (what it finds wider is logged: an older version, a copy) and again
 * right after. Files Postgres makes while running (WAL segments, relations) it makes 0600 itself;
 * the process umask is narrowed too, for the lock file and anything else made beside them.
 */
const OTHERS = 0o077;

/** Narrows the process umask so that nothing created from now on is readable by group or others. */
export function narrowUmask(): void {
  try {
    const before = process.umask(OTHERS);
    process.umask(before | OTHERS);
  } catch {
    // Worker threads may not set the umask; mendModes after creation still covers what exists.
  }
}

/**
 * Takes group and other permission bits off `dir`, everything under it and `extra` files (the lock
 * file beside it). Symbolic links are left alone (their target is not ours to change). Returns how
 * many entries were wider than that.
 */
export function mendModes(dir: string, extra: string[] = []): number {
  let mended = 0;
  const mend = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(p);
    } catch {
      return; // gone meanwhile (a WAL segment recycled)
    }
    if (stat.isSymbolicLink() || (stat.mode & OTHERS) === 0) return;
    fs.chmodSync(p, stat.isDirectory() ? 0o700 : stat.mode & 0o700);
    mended++;
  };
  if (fs.existsSync(dir)) {
    mend(dir);
    for (const entry of fs.readdirSync(dir, { recursive: true })) mend(path.join(dir, String(entry)));
  }
  for (const p of extra) mend(p);
  return mended;
}

/** The start-up log line for mended entries, or none. */
export function mendedNote(dir: string, mended: number): string[] {
  if (mended === 0) return [];
  const what = mended === 1 ? "1 file was" : `${mended} files were`;
  return [`Data directory ${dir}: ${what} readable by others; made private (0600/0700).`];
}
