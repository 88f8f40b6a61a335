import type { Command } from "commander";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { formatBytes } from "@/lib/format";
import { type CliContext, note, outputOf, parseArgs } from "./shared";

/** `kps export` (the KILT provenance file and its report) and `kps judgments` (every judgment). */
export function addExportCommands(program: Command, ctx: CliContext): void {
  program
    .command("export")
    .description("download the campaign's KILT provenance JSONL (streamed), then print the export report")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--batch <id>", "only this batch's questions")
    .option("--location <where>", "span (consensus span offsets) or passage (paragraph range, -1 characters)", "span")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; batch?: string; location: string; output?: string }) => {
      ctx.needToken();
      const parsed = parseArgs(exportQuerySchema, { batch: opts.batch, location: opts.location });
      const query = new URLSearchParams({ location: parsed.location, ...(parsed.batch ? { batch: String(parsed.batch) } : {}) });
      const base = `/api/campaigns/${encodeURIComponent(opts.campaign)}`;
      const bytes = await ctx.client().download(`${base}/export?${query}`, outputOf(opts.output));
      const { data } = await ctx.client().request<{ report: { queries: number; queriesExported: number; passagesEndorsed: number; unanswerable: string[]; withoutEndorsement: number } }>(
        "GET",
        `${base}/export/report?${query}`,
      );
      const r = data.report;
      note(
        `Exported ${r.queriesExported} of ${r.queries} questions (${formatBytes(bytes)}), ${r.passagesEndorsed} endorsed passages; ` +
          `${r.unanswerable.length} unanswerable from the snapshot, ${r.withoutEndorsement} without an endorsed passage.`,
      );
      if (r.unanswerable.length) note(`Unanswerable: ${r.unanswerable.slice(0, 50).join(", ")}${r.unanswerable.length > 50 ? ", …" : ""}`);
    });
  program
    .command("judgments")
    .description("download every judgment of a campaign as JSONL (streamed; annotators by pseudonym)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--batch <id>", "only this batch's judgments")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; batch?: string; output?: string }) => {
      ctx.needToken();
      const query = opts.batch ? `?batch=${encodeURIComponent(opts.batch)}` : "";
      const bytes = await ctx.client().download(`/api/campaigns/${encodeURIComponent(opts.campaign)}/judgments${query}`, outputOf(opts.output));
      note(`Wrote ${formatBytes(bytes)} of judgments.`);
    });
}
