import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describeKnowledgeEngine } from "../engine-suite";
import { createLanceEngine } from "./lance";

// The shared engine suite on the LanceDB engine, its index in a temporary directory per run.
const dirs: string[] = [];
describeKnowledgeEngine(
  "lance",
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-lance-suite-"));
    dirs.push(dir);
    return createLanceEngine({ dir });
  },
  () => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  },
);
