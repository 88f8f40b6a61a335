import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A bench's scratch space: a temporary directory and the clean-ups to run at the end (servers,
 * connections), last registered first; run once, at the end or on SIGINT/SIGTERM.
 */
export function scratch(prefix: string): { tmp: string; cleanups: (() => Promise<void>)[]; cleanup: () => Promise<void> } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const cleanups: (() => Promise<void>)[] = [];
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const c of cleanups.reverse()) await c().catch((e: unknown) => console.error(`cleanup: ${String(e)}`));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return { tmp, cleanups, cleanup };
}
