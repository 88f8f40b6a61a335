// Summary of a V8 .cpuprofile (node --cpu-prof): self time by function and by area of code.
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(idle)") return "idle (waiting for PostgreSQL / I/O)";
  if (fn === "(program)") return "V8/native (program)";
  if (url.includes("node_modules/postgres/")) return "postgres.js driver (protocol, row decoding)";
  if (url.includes("node_modules/drizzle-orm/")) return "drizzle-orm";
  if (url.includes("node_modules/@electric-sql/pglite")) return "PGlite (WebAssembly Postgres + glue)";
  if (url.includes("/lib/campaign/")) return "lib/campaign (export code)";
  if (url.includes("/lib/kilt/")) return "lib/kilt (line edit, code points)";
  if (url.includes("/lib/stream")) return "lib/stream (linesResponse)";
  if (url.startsWith("node:") || url === "") return fn.startsWith("(") ? fn : "Node.js internals / builtins (JSON, streams, encoders)";
  if (url.includes("/bench/")) return "bench harness";
  return "other";
}

export function summarizeCpuProfile(file: string, top = 15): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|lib|bench|db)\//, "$1/").replace(/^file:\/\//, "")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const out = [`sampled ${(total / 1e6).toFixed(1)} s`];
  out.push("by area:");
  for (const [a, us] of [...byArea].sort((x, y) => y[1] - x[1])) out.push(`  ${pct(us)}  ${(us / 1e6).toFixed(2).padStart(6)} s  ${a}`);
  out.push(`top ${top} functions by self time:`);
  for (const [f, us] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, top))
    out.push(`  ${pct(us)}  ${(us / 1e6).toFixed(2).padStart(6)} s  ${f}`);
  return out;
}
