// One esbuild bundle of a TypeScript entry for plain node, shared by the CLI's and the fast path's
// builds: ESM for Node 20, packages left outside (read from node_modules), the project's tsconfig
// paths, written to a temporary file and renamed (atomic: a process starting meanwhile reads the old
// bundle or the new one). Returns the milliseconds it took.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

export const root = path.resolve(import.meta.dirname, "..");

export async function bundleNode(entry, outfile, options = {}) {
  const started = Date.now();
  const tmp = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    outfile: tmp,
    logLevel: "warning",
    ...options,
  });
  fs.renameSync(tmp, outfile);
  return Date.now() - started;
}
