#!/usr/bin/env node
// npm run tour — the screenshot tour (e2e/tour.spec.ts) to test-results/screenshots/tour-*.png:
// builds the app when the build is stale, then runs the tour alone. Not part of npm test or CI.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
if (spawnSync(process.execPath, [path.join(root, "scripts", "ensure-browser.mjs")], { cwd: root, stdio: "inherit" }).status !== 0)
  process.exit(1);
ensureBuild();
const run = spawnSync(
  path.join(root, "node_modules", ".bin", "playwright"),
  ["test", "e2e/tour.spec.ts", "--project=chromium", ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, KPS_TOUR: "1" },
  },
);
process.exit(run.status ?? 1);
