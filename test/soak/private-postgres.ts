import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A throwaway PostgreSQL cluster of the machine's PostgreSQL version (initdb in a temporary
 * directory, its own port, trust authentication on 127.0.0.1), for the test that stops and starts
 * PostgreSQL under load: the machine's shared server (other test runs, CI) is never touched.
 * Run as root, the cluster belongs to the `postgres` user (PostgreSQL refuses to run as root).
 */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port> (no database name). */
  base: string;
  port: number;
  stop(): void;
  start(): void;
  /** Stops the cluster (if running) and removes its directory. */
  remove(): void;
}

export function hasPostgresBinaries(): boolean {
  return (
    fs.existsSync("/usr/lib/postgresql") &&
    fs.readdirSync("/usr/lib/postgresql").some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
  );
}

export function createPrivatePostgres(port: number): PrivatePostgres {
  const version = fs
    .readdirSync("/usr/lib/postgresql")
    .filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => Number(b) - Number(a))[0]!;
  const bin = (name: string) => `/usr/lib/postgresql/${version}/bin/${name}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-soak-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: dir,
    });
  const data = path.join(dir, "data");
  run(bin("initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  let running = false;
  const cluster: PrivatePostgres = {
    base: `postgres://postgres@127.0.0.1:${port}`,
    port,
    start() {
      run(bin("pg_ctl"), ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
      running = true;
    },
    stop() {
      run(bin("pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
      running = false;
    },
    remove() {
      if (running) {
        try {
          cluster.stop();
        } catch {
          // already gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
