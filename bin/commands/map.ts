import { type Command, Option } from "commander";
import { createReadStream } from "node:fs";
import { z } from "zod";
import { FatalImportError, readLines } from "@/lib/kilt/jsonl";
import { DEFAULT_MIN_BLEU, mapItems } from "@/lib/kilt/map/map-items";
import { problemLine, problemLines } from "./score";
import { existingFile, offlineCommand, parseArgs, printReport, type OfflineReport } from "./shared";

/** The longest line read: a knowledge-source page can be long; an item over it is a problem of its line. */
export const MAX_MAP_LINE_BYTES = 64 * 1024 * 1024;

export const mapOptionsSchema = z.object({
  knowledge: z.string(),
  items: z.string(),
  minBleu: z.coerce
    .number({ error: "must be a number" })
    .min(0, "must be between 0 and 1")
    .max(1, "must be between 0 and 1")
    .default(DEFAULT_MIN_BLEU),
});

export type MapCommandOptions = z.input<typeof mapOptionsSchema>;

/** Maps the items file onto the knowledge source offline; the lines to print (JSON lines, or the problems). */
export async function mapReport(raw: MapCommandOptions): Promise<OfflineReport> {
  const opts = parseArgs(mapOptionsSchema, raw, { minBleu: "min-bleu" });
  const source = (file: string) => ({ file, lines: readLines(createReadStream(file), { file, maxLineBytes: MAX_MAP_LINE_BYTES }) });
  let result: Awaited<ReturnType<typeof mapItems>>;
  try {
    result = await mapItems({ items: source(opts.items), knowledge: source(opts.knowledge), minBleu: opts.minBleu });
  } catch (error) {
    if (error instanceof FatalImportError) return { ok: false, stderr: [problemLine(error.problem)] };
    throw error;
  }
  if (!result.ok) return { ok: false, stderr: problemLines(result.problems) };
  const { items, mapped, dropped, exact } = result;
  const summary = `Mapped ${mapped.length} of ${items} item${items === 1 ? "" : "s"} (${exact} found as written); ${dropped} under --min-bleu ${opts.minBleu} dropped.`;
  return { ok: true, stdout: mapped.map((m) => JSON.stringify(m)), summary };
}

/** `kps map`: evidence given as text located in its page as KILT's match_answer does, offline. */
export function addMapCommand(program: Command): void {
  offlineCommand(program, "map", "locate evidence given as text in its page (paragraph, BLEU, offsets) as KILT's match_answer does")
    .requiredOption("--knowledge <file>", "the knowledge source: KILT pages, JSONL (plain or .gz)", existingFile)
    .requiredOption("--items <file>", 'the items: JSONL lines {"id", "wikipedia_id" or "title", "evidence"} (plain or .gz)', existingFile)
    .addOption(new Option("--min-bleu <bleu>", "drop items whose best BLEU is under this").default(String(DEFAULT_MIN_BLEU)))
    .action(async (opts: MapCommandOptions) => printReport(await mapReport(opts), "the files have problems: nothing mapped."));
}
