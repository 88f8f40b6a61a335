#!/usr/bin/env node
// Bundles the kps client (bin/cli.ts and what it imports from lib/) into dist/cli.mjs with esbuild,
// so that `kps` starts on plain node in about 0.2 s instead of compiling TypeScript through tsx on
// every call (1.3–1.7 s). The packages stay outside the bundle (read from node_modules), and
// bin/kps.mjs uses the bundle only while it is newer than every source it was made from.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bundleNode, root } from "./bundle-node.mjs";

export const CLI_BUNDLE = path.join(root, "dist", "cli.mjs");

export function buildCli() {
  return bundleNode(path.join(root, "bin", "cli.ts"), CLI_BUNDLE);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ms = await buildCli();
  console.log(`kps bundled into ${path.relative(root, CLI_BUNDLE)} in ${ms} ms`);
}
