// tsx bench/import/generate.ts --pages N --out FILE [--gzip] [--seed S]
// Writes N synthetic KILT knowledge-source records (one JSON object per line), streamed.
import { parseArgs } from "node:util";
import { writeKnowledgeFile } from "./synthetic";

async function main() {
  const { values } = parseArgs({
    options: {
      pages: { type: "string" },
      out: { type: "string" },
      gzip: { type: "boolean", default: false },
      seed: { type: "string", default: "1" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || !values.pages || !values.out) {
    console.error("usage: tsx bench/import/generate.ts --pages N --out FILE [--gzip] [--seed S]");
    process.exit(values.help ? 0 : 2);
  }
  const pages = Number(values.pages);
  const seed = Number(values.seed);
  if (!Number.isInteger(pages) || pages < 0) throw new Error(`--pages must be a non-negative integer, not '${values.pages}'`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not '${values.seed}'`);

  const started = performance.now();
  const result = await writeKnowledgeFile({ pages, out: values.out, seed, gzip: values.gzip });
  const seconds = (performance.now() - started) / 1000;
  const gz = values.gzip ? ` (gzip; ${result.jsonlBytes} bytes of JSONL)` : "";
  console.log(`${values.out}: ${pages} pages, ${result.bytes} bytes written${gz} in ${seconds.toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
