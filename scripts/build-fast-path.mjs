#!/usr/bin/env node
// Bundles server/fast-path.ts (the three annotation routes the production server answers before
// Next.js: docs/judgment-path.md) and what it imports from app/ and lib/ into .next/kps-fast-path.mjs
// with esbuild. next.config.ts runs it after every production compile, so a `next build` leaves the
// bundle beside the build it belongs to; server/app-server.mjs imports it. The packages stay outside
// the bundle (read from node_modules); `server-only` resolves to its empty module (tsconfig paths).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bundleNode, root } from "./bundle-node.mjs";

/** Where the bundle goes for the build in `distDir` (default .next). */
export function fastPathBundle(distDir = path.join(root, ".next")) {
  return path.join(distDir, "kps-fast-path.mjs");
}

export function buildFastPath(distDir) {
  return bundleNode(path.join(root, "server", "fast-path.ts"), fastPathBundle(distDir), {
    define: { "process.env.NEXT_RUNTIME": '"nodejs"' },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // No top-level await: next.config.ts requires this module.
  void buildFastPath().then((ms) => console.log(`fast path bundled into ${path.relative(root, fastPathBundle())} in ${ms} ms`));
}
