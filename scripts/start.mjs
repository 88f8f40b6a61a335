#!/usr/bin/env node
// npm start — builds the app when the build is missing or older than the sources, then serves it
// (server/production-server.mjs: Next.js on Node's http server without the 5-minute request timeout).
// With no DATABASE_URL the app uses the embedded database under .data/ and seeds the demo: its
// sign-ins get random passwords, printed at start and kept in .data/pglite/demo-credentials.txt (0600).
// With DATABASE_URL the server runs KPS_WORKERS processes (default: the number of cores) sharing the
// port; SIGINT/SIGTERM reach them through the primary (server/primary.mjs). The server runs with
// MALLOC_ARENA_MAX=2 unless the environment sets it (server/malloc-arenas.mjs).
import { spawn } from "node:child_process";
import path from "node:path";
import { withMallocArenas } from "../server/malloc-arenas.mjs";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild();

const child = spawn(process.execPath, [path.join(root, "server", "production-server.mjs"), ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  // glibc reads MALLOC_ARENA_MAX when a process starts: the server's LanceDB threads (server/malloc-arenas.mjs).
  env: withMallocArenas(process.env),
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
