#!/usr/bin/env node
// Bundles server/fast-path.ts (the three annotation routes the production server answers before
// Next.js: docs/judgment-path.md) and what it imports from app/ and lib/ into .next/kps-fast-path.mjs
// with esbuild. next.config.ts runs it after every production compile, so a `next build` leaves the
// bundle beside the build it belongs to; server/app-server.mjs imports it. The packages stay outside
// the bundle (read from node_modules); `server-only` resolves to its empty module (tsconfig paths).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

/** Where the bundle goes for the build in `distDir` (default .next). */
export function fastPathBundle(distDir = path.join(root, ".next")) {
  return path.join(distDir, "kps-fast-path.mjs");
}

export async function buildFastPath(distDir) {
  const started = Date.now();
  const out = fastPathBundle(distDir);
  const tmp = `${out}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(root, "server", "fast-path.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    define: { "process.env.NEXT_RUNTIME": '"nodejs"' },
    outfile: tmp,
    logLevel: "warning",
  });
  fs.renameSync(tmp, out);
  return Date.now() - started;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // No top-level await: next.config.ts requires this module.
  void buildFastPath().then((ms) => console.log(`fast path bundled into ${path.relative(root, fastPathBundle())} in ${ms} ms`));
}
