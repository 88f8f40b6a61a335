#!/usr/bin/env node
// The app as end-to-end tests see it: the production build, on PostgreSQL when DATABASE_URL is
// set, else on a fresh embedded database in .data/e2e (wiped first, so every run starts empty).
// One process unless KPS_WORKERS says otherwise (KPS_WORKERS=2 with DATABASE_URL: the cluster).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const env = { KPS_WORKERS: "1", ...process.env };
if (!env.DATABASE_URL) {
  env.KPS_DATA_DIR = path.join(root, ".data", "e2e");
  fs.rmSync(env.KPS_DATA_DIR, { recursive: true, force: true });
  fs.rmSync(`${env.KPS_DATA_DIR}.lock`, { force: true });
}
const child = spawn(process.execPath, [path.join(root, "server", "production-server.mjs"), "--port", env.PORT ?? "3100"], {
  cwd: root,
  env,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
