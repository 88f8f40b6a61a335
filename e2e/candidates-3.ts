import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const FIXTURE = path.join(import.meta.dirname, "..", "test", "fixtures", "candidates-3");

/**
 * The hand-checked fixture of three retrievers (test/fixtures/candidates-3/README.md) with its `__T__`
 * replaced by `tag`, written to a new temporary folder: the path of each file by its name.
 */
export function candidates3Files(tag: string): { dir: string; file: (name: string) => string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-e2e-candidates-"));
  for (const name of fs.readdirSync(FIXTURE).filter((n) => n.endsWith(".jsonl"))) {
    fs.writeFileSync(path.join(dir, name), fs.readFileSync(path.join(FIXTURE, name), "utf8").replaceAll("__T__", tag));
  }
  return { dir, file: (name) => path.join(dir, name) };
}
