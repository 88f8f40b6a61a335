// What the memory floor of an import process is made of: resident memory after each step of
// opening the embedded database, split by kind of mapping (/proc/self/smaps).
//
//   node --import tsx bench/import/memory-probe.ts --data-dir DIR [--conf "shared_buffers = 16MB"]...
//
// Prints one line per step. DIR must hold a migrated PGlite data directory.
import { parseArgs } from "node:util";
import { residentSplit } from "./memory";

const MB = 1e6;

function report(step: string, extra = "") {
  const u = process.memoryUsage();
  const s = residentSplit();
  const f = (n: number) => (n / MB).toFixed(1).padStart(6);
  console.log(
    `${step.padEnd(34)} rss ${f(u.rss)}  heapUsed ${f(u.heapUsed)} heapTotal ${f(u.heapTotal)}  external ${f(u.external)} arrayBuffers ${f(u.arrayBuffers)}` +
      (s ? `  | wasm memory ${f(s.wasm)} other anon ${f(s.anon)} files ${f(s.files)}` : "") +
      (extra ? `  ${extra}` : ""),
  );
}

async function main() {
  const { values } = parseArgs({
    options: { "data-dir": { type: "string" }, conf: { type: "string", multiple: true }, "initial-memory-mb": { type: "string" } },
  });
  const dataDir = values["data-dir"];
  if (!dataDir) throw new Error("--data-dir is required");
  report("start (node + tsx)");
  const { PGlite } = await import("@electric-sql/pglite");
  report("+ import @electric-sql/pglite");
  await import("@/db/client");
  report("+ import db/client (drizzle, postgres.js)");
  await import("@/lib/knowledge/import-knowledge");
  report("+ import import-knowledge");
  const conf = values.conf ?? ["shared_buffers = 16MB"];
  const initialMemory = values["initial-memory-mb"] ? Number(values["initial-memory-mb"]) * 1024 * 1024 : undefined;
  const client = await PGlite.create(dataDir, { postgresqlconf: conf, initialMemory });
  const heap = (client as unknown as { mod?: { HEAP8?: Int8Array } }).mod?.HEAP8?.buffer.byteLength;
  report("+ PGlite.create", `conf [${conf.join("; ")}], wasm memory size ${heap ? (heap / MB).toFixed(0) : "?"} MB`);
  await client.query("select count(*) from pages");
  report("+ one query");
  const shmem = await client.query<{ name: string; mb: number }>(
    "select coalesce(name, '(free)') as name, round(sum(allocated_size) / 1e6, 1)::float8 as mb from pg_shmem_allocations group by 1 order by 2 desc limit 8",
  );
  const total = await client.query<{ mb: number }>("select round(sum(allocated_size) / 1e6, 1)::float8 as mb from pg_shmem_allocations");
  console.log(`shared memory ${total.rows[0]?.mb} MB: ${shmem.rows.map((r) => `${r.name} ${r.mb}`).join(", ")}`);
  const contexts = await client.query<{ name: string; mb: number }>(
    "select name, round(sum(total_bytes) / 1e6, 2)::float8 as mb from pg_backend_memory_contexts group by 1 order by 2 desc limit 6",
  );
  const local = await client.query<{ mb: number }>("select round(sum(total_bytes) / 1e6, 1)::float8 as mb from pg_backend_memory_contexts");
  console.log(`backend memory contexts ${local.rows[0]?.mb} MB: ${contexts.rows.map((r) => `${r.name} ${r.mb}`).join(", ")}`);
  await client.close();
  report("after close");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
