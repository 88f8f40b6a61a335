#!/usr/bin/env node
// npm start — builds the app when the build is missing or older than the sources, then serves it
// (scripts/server.mjs: Next.js on Node's http server without the 5-minute request timeout).
// With no DATABASE_URL the app uses the embedded database under .data/ and seeds the demo.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const next = path.join(root, "node_modules", ".bin", "next");
const buildId = path.join(root, ".next", "BUILD_ID");

function newestSource() {
  let newest = 0;
  const walk = (p) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      if (["node_modules", ".next", ".data", "e2e", "bench", "test-results"].includes(path.basename(p))) return;
      for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const entry of ["app", "components", "lib", "db", "public", "instrumentation.ts", "next.config.ts", "package.json", "package-lock.json"]) {
    walk(path.join(root, entry));
  }
  return newest;
}

const built = fs.statSync(buildId, { throwIfNoEntry: false });
if (!built || built.mtimeMs < newestSource()) {
  console.log("Building the app (next build)…");
  const result = spawnSync(next, ["build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, [path.join(root, "scripts", "server.mjs"), ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
