// Builds the app (next build) when the build is missing or older than the sources.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

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
  for (const entry of [
    "app",
    "components",
    "lib",
    "db",
    "public",
    "instrumentation.ts",
    "server/fast-path.ts",
    "scripts/build-fast-path.mjs",
    "next.config.ts",
    "package.json",
    "package-lock.json",
  ]) {
    walk(path.join(root, entry));
  }
  return newest;
}

/** Whether .next holds a build newer than every source. */
export function buildIsCurrent() {
  const built = fs.statSync(path.join(root, ".next", "BUILD_ID"), { throwIfNoEntry: false });
  return Boolean(built && built.mtimeMs >= newestSource());
}

/** Builds when needed. Next.js's own output (its route table) is shown only when the build fails. */
export function ensureBuild() {
  if (buildIsCurrent()) return;
  console.log("Building the app (next build, a few minutes)…");
  const started = Date.now();
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    console.error(`next build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}).`);
    process.exit(result.status || 1);
  }
  console.log(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
}
