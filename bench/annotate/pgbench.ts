// The baseline: pgbench -N (TPC-B-like without the branch/teller updates: 3 statements of work +
// begin/end = 5 statements per transaction) on a throwaway database of the same server.
import { spawn } from "node:child_process";

export interface PgbenchResult {
  clients: number;
  seconds: number;
  tps: number;
  latencyMs?: number;
  transactions?: number;
  output: string;
}

function connectionArgs(url: URL): { args: string[]; env: NodeJS.ProcessEnv } {
  const args = ["-h", url.hostname, "-p", url.port || "5432", "-U", decodeURIComponent(url.username || "postgres")];
  const env = url.password ? { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } : process.env;
  return { args, env };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${out}`)),
    );
  });
}

export async function pgbenchInit(serverUrl: URL, database: string, scale = 10): Promise<number> {
  const { args, env } = connectionArgs(serverUrl);
  const t = performance.now();
  await run("pgbench", ["-i", "-q", "-s", String(scale), ...args, database], env);
  return (performance.now() - t) / 1000;
}

export async function pgbenchRun(serverUrl: URL, database: string, clients: number, seconds: number): Promise<PgbenchResult> {
  const { args, env } = connectionArgs(serverUrl);
  const output = await run("pgbench", ["-N", "-c", String(clients), "-j", "2", "-T", String(seconds), ...args, database], env);
  const tps =
    /tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)/.exec(output) ??
    /tps = ([\d.]+)/.exec(output);
  if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
  const latency = /latency average = ([\d.]+) ms/.exec(output);
  const processed = /number of transactions actually processed: (\d+)/.exec(output);
  return {
    clients,
    seconds,
    tps: Number(tps[1]),
    latencyMs: latency ? Number(latency[1]) : undefined,
    transactions: processed ? Number(processed[1]) : undefined,
    output,
  };
}
