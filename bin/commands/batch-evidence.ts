// `kps batch import --map-evidence`: the options of evidence given as text, and its report.
import { writeFileSync } from "node:fs";
import { type Command } from "commander";
import { droppedItemsJsonl, evidenceMapLines, type EvidenceMapReport } from "@/lib/campaign/import/evidence-map.contract";
import { z } from "zod";
import { existingFile, number, parseArgs } from "./shared";

export interface EvidenceOptions {
  mapEvidence?: boolean;
  minBleu?: number;
  redirects?: string;
  dropped?: string;
}

/** The options of `kps batch import` for evidence given as text (docs/formats.md#evidence-given-as-text). */
export function addEvidenceOptions(command: Command): Command {
  return command
    .option(
      "--map-evidence",
      "locate the provenance items given as text ({evidence, title | wikipedia_id}) in their pages, keeping each with its bleu_score",
    )
    .option(
      "--min-bleu <share>",
      "with --map-evidence: drop the items whose best match scores less (0–1, default 0.5)",
      number("--min-bleu"),
    )
    .option(
      "--redirects <file>",
      "with --map-evidence: a redirects file (from-title, tab, to-title a line, as a Wikipedia redirect dump gives them)",
      existingFile,
    )
    .option("--dropped <file>", "with --map-evidence: write the dropped items, with their best candidate, to this JSONL file");
}

const withMapEvidence = "is for evidence given as text: give it with --map-evidence";

/** The evidence options, checked before anything is uploaded. */
const evidenceOptionsSchema = z
  .object({
    mapEvidence: z.boolean().optional(),
    minBleu: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").optional(),
    redirects: z.string().optional(),
    dropped: z.string().min(1, "must name a file").optional(),
  })
  .superRefine((o, ctx) => {
    if (o.mapEvidence) return;
    for (const key of ["minBleu", "redirects", "dropped"] as const)
      if (o[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: withMapEvidence });
  });

/** Refuses bad evidence options (a --min-bleu out of 0–1, or any of them without --map-evidence), naming the option. */
export function checkEvidenceOptions(opts: EvidenceOptions): void {
  const { mapEvidence, minBleu, redirects, dropped } = opts;
  parseArgs(evidenceOptionsSchema, { mapEvidence, minBleu, redirects, dropped }, { mapEvidence: "map-evidence", minBleu: "min-bleu" });
}

/** The upload's parts of these options: the fields, and the redirects file. */
export function evidenceParts(opts: EvidenceOptions): ({ name: string; value: string } | { name: string; file: string })[] {
  if (!opts.mapEvidence) return [];
  return [
    { name: "mapEvidence", value: "on" },
    ...(opts.minBleu === undefined ? [] : [{ name: "minBleu", value: String(opts.minBleu) }]),
    ...(opts.redirects === undefined ? [] : [{ name: "redirects", file: opts.redirects }]),
  ];
}

/** The report's lines, after writing the dropped items to --dropped when asked. */
export function evidenceLines(report: EvidenceMapReport | null | undefined, opts: EvidenceOptions): string[] {
  if (!report) return [];
  const lines = evidenceMapLines(report);
  if (opts.dropped) {
    writeFileSync(opts.dropped, droppedItemsJsonl(report.droppedItems));
    const cut = report.dropped > report.droppedItems.length ? ` (the first ${report.droppedItems.length} of ${report.dropped})` : "";
    lines.push(`Dropped items written to ${opts.dropped}${cut}.`);
  } else if (report.dropped) lines.push("Write the dropped items with their best candidate with --dropped FILE.");
  return lines;
}
