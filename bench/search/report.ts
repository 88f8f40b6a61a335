// The search benchmark's tables: per engine and size, and the extrapolation to the whole KILT source.
import { fmt, int, printTable } from "../common";
import type { Latency } from "./queries";

export interface EngineResult {
  engine: string;
  pages: number;
  /** Bytes of every paragraph's text loaded (as the knowledge import counts them). */
  textBytes: number;
  paragraphs: number;
  indexBytes: number;
  buildSeconds: number;
  /** The build's last call (LanceDB: creating or optimizing the BM25 index). */
  finalSeconds: number;
  peakRssBytes: number;
  /** The build child's user + system CPU seconds (the wall time also holds waiting for other work on the machine). */
  cpuSeconds: number;
  latency: Record<string, Latency>;
  loadAtBuild: string;
}

/** The whole KILT knowledge source (kilt_knowledgesource.json): pages and bytes of paragraph text. */
export const KILT = { pages: 5_903_530, textBytes: 34.76 * 1024 ** 3 };

const ms = (l: Latency | undefined) => (l ? `${fmt(l.p50)} / ${fmt(l.p95)}` : "–");

export function printResults(results: EngineResult[]): void {
  console.log("\n## Build and size\n");
  printTable(
    [
      "engine",
      "paragraphs",
      "text MB",
      "build s",
      "build CPU s (this process)",
      "paragraphs/s",
      "final step s",
      "index MB",
      "index ÷ text",
      "peak RSS MB",
      "load at build",
    ],
    results.map((r) => [
      r.engine,
      int(r.paragraphs),
      fmt(r.textBytes / 1e6),
      fmt(r.buildSeconds),
      fmt(r.cpuSeconds),
      int(Math.round(r.paragraphs / r.buildSeconds)),
      fmt(r.finalSeconds),
      fmt(r.indexBytes / 1e6),
      fmt(r.indexBytes / r.textBytes, 2),
      fmt(r.peakRssBytes / 1e6, 0),
      r.loadAtBuild,
    ]),
  );
  const kinds = [...new Set(results.flatMap((r) => Object.keys(r.latency)))];
  console.log("\n## Queries: p50 / p95 ms (top 20; rank = the engine alone, search = the app's text search with snippets)\n");
  printTable(
    ["engine", "paragraphs", ...kinds],
    results.map((r) => [r.engine, int(r.paragraphs), ...kinds.map((k) => ms(r.latency[k]))]),
  );
}

/** Linear in `x` through the two largest measured points (through the origin when there is one). */
function project(points: { x: number; y: number }[], x: number): number {
  const [a, b] = points.slice(-2);
  if (!b) return a ? (a.y / a.x) * x : NaN;
  const slope = Math.max(0, (b.y - a!.y) / (b.x - a!.x));
  return b.y + slope * (x - b.x);
}

/**
 * The whole source from the growth between the sizes measured: build time, index size and peak RSS
 * linear in the text, query p95 linear in the paragraphs (an upper bound: BM25's top-k search reads
 * the postings of the query's terms, which grow with the corpus). The source's paragraphs are its
 * text bytes over this data's bytes per paragraph.
 */
export function extrapolate(results: EngineResult[]): void {
  console.log("\n## Extrapolated to the whole KILT source (34.76 GiB of text)\n");
  const lines: string[][] = [];
  for (const engine of [...new Set(results.map((r) => r.engine))]) {
    const rs = results.filter((r) => r.engine === engine).sort((a, b) => a.textBytes - b.textBytes);
    const last = rs.at(-1)!;
    const paragraphs = KILT.textBytes / (last.textBytes / last.paragraphs);
    const byText = (f: (r: EngineResult) => number) =>
      project(
        rs.map((r) => ({ x: r.textBytes, y: f(r) })),
        KILT.textBytes,
      );
    const p95 = (k: string) =>
      project(
        rs.filter((r) => r.latency[k]).map((r) => ({ x: r.paragraphs, y: r.latency[k]!.p95 })),
        paragraphs,
      );
    lines.push([
      engine,
      `${rs.length} (${rs.map((r) => int(r.paragraphs)).join(", ")})`,
      int(Math.round(paragraphs)),
      fmt(byText((r) => r.buildSeconds) / 3600),
      fmt(byText((r) => r.cpuSeconds) / 3600),
      fmt(byText((r) => r.indexBytes) / 1024 ** 3),
      fmt(byText((r) => r.indexBytes) / KILT.textBytes, 2),
      fmt(byText((r) => r.peakRssBytes) / 1e9, 2),
      fmt(p95("rank 5-term")),
    ]);
  }
  printTable(
    [
      "engine",
      "sizes measured",
      "paragraphs",
      "build hours",
      "build CPU hours (this process; PostgreSQL's backend not counted)",
      "index GiB",
      "index ÷ text",
      "peak RSS GB",
      "rank 5-term p95 ms",
    ],
    lines,
  );
}
