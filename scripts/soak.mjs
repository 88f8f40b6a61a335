#!/usr/bin/env node
// npm run test:soak — the long fault tests (test/soak/*.soak.ts): kill -9 of the app under load on
// PostgreSQL and on the embedded database, and PostgreSQL restarted under load. They start the
// production server as a child process, so the app is built first when the build is stale.
// Ends with one line: `soak: N passed, N failed, N skipped`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { printFailures, vitestFailures } from "./test-report.mjs";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild();
const report = path.join(root, "test-results", "soak.json");
fs.mkdirSync(path.dirname(report), { recursive: true });
const run = spawnSync(
  path.join(root, "node_modules", ".bin", "vitest"),
  [
    "run",
    "--config",
    "vitest.soak.config.ts",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: "inherit" },
);
let summary = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
try {
  summary = JSON.parse(fs.readFileSync(report, "utf8"));
} catch {
  summary.numFailedTests = 1;
}
if (summary.testResults) {
  const { failures, flaky } = vitestFailures(summary, root);
  printFailures(failures, flaky);
}
console.log(
  `soak: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests + summary.numTodoTests} skipped`,
);
process.exit(run.status === 0 && summary.numFailedTests === 0 ? 0 : 1);
