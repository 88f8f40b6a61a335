import fs from "node:fs";
import path from "node:path";

/**
 * An exclusive lock on the embedded database directory, held by one process.
 *
 * PGlite does not lock its data directory, and a second process that opens it silently loses data.
 * The lock file records the owner's pid; a lock whose process is gone (e.g. after `kill -9`) is
 * taken over at once, so a restart after a crash never waits for a staleness timeout.
 */
export class DataDirLockedError extends Error {
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `The embedded database at ${dataDir} is already in use by another process ` +
        `(pid ${owner.pid}, started ${owner.startedAt}). Only one app process may open it. ` +
        `Stop that process, or set KPS_DATA_DIR to another directory. ` +
        `(The kps CLI never opens the database: it talks to the running app over HTTP.)`,
    );
    this.name = "DataDirLockedError";
  }
}

interface LockOwner {
  pid: number;
  startedAt: string;
}

export interface DirLock {
  path: string;
  release(): void;
}

export function lockPathFor(dataDir: string): string {
  const abs = path.resolve(dataDir);
  return path.join(path.dirname(abs), `${path.basename(abs)}.lock`);
}

export function acquireDirLock(dataDir: string): DirLock {
  const lockPath = lockPathFor(dataDir);
  // A directory made here is the owner's only (the data directory's parent, e.g. .data/).
  fs.mkdirSync(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  const me: LockOwner = { pid: process.pid, startedAt: new Date().toISOString() };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      return makeLock(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readOwner(lockPath);
    if (owner && owner.pid === process.pid) return makeLock(lockPath);
    if (owner && isAlive(owner.pid)) throw new DataDirLockedError(dataDir, owner);
    // The owner is gone (crash or kill -9), or the file is unreadable: take the lock over.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock ${lockPath}: another process keeps taking it.`);
}

function makeLock(lockPath: string): DirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const owner = readOwner(lockPath);
    if (owner?.pid === process.pid) fs.rmSync(lockPath, { force: true });
    process.off("exit", release);
  };
  process.on("exit", release);
  return { path: lockPath, release };
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(lockPath, "utf8"));
    if (parsed && typeof parsed === "object" && "pid" in parsed && typeof parsed.pid === "number") {
      const startedAt = "startedAt" in parsed && typeof parsed.startedAt === "string" ? parsed.startedAt : "?";
      return { pid: parsed.pid, startedAt };
    }
  } catch {
    // missing or half-written: treated as no owner
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
