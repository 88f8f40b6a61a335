#!/usr/bin/env node
// The kps command-line client. It talks to a running app over HTTP only (see `kps --help`).
// It runs the bundle dist/cli.mjs (`node scripts/build-cli.mjs`, made by `npm run build` and by
// `npm test`) while that is newer than every source it was made from, else the TypeScript sources
// through tsx (slower to start, always current).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bundle = path.join(root, "dist", "cli.mjs");

/** The newest modification time under the folders the bundle is made from. */
function newestSource() {
  let newest = 0;
  const walk = (p) => {
    for (const entry of fs.readdirSync(p, { withFileTypes: true })) {
      const full = path.join(p, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|mjs|js|json)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of ["bin", "lib", "db"]) walk(path.join(root, dir));
  return Math.max(newest, fs.statSync(path.join(root, "tsconfig.json")).mtimeMs);
}

const built = fs.statSync(bundle, { throwIfNoEntry: false });
let main;
if (built && built.mtimeMs >= newestSource()) ({ main } = await import(bundle));
else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ main } = await import("./cli.ts"));
}
process.exitCode = await main(process.argv);
