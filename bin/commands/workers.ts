import type { Command } from "commander";
import { workerListQuerySchema, type WorkerReportFormat } from "@/lib/crowd/workers-report.contract";
import { formatBytes } from "@/lib/format";
import { type CliContext, note, outputOf, parseArgs } from "./shared";

/** The download's format: `--format` when given, else from the file's extension (.jsonl, .ndjson: JSONL), else CSV. */
export function workersFormatOf(output: string | undefined, format: string | undefined): string {
  if (format !== undefined) return format;
  return output && /\.(jsonl|ndjson)$/i.test(output) ? "jsonl" : "csv";
}

/** `kps workers`: the payment report of a crowd campaign, one row per worker and session, as CSV or JSONL. */
export function addWorkersCommand(program: Command, ctx: CliContext): void {
  program
    .command("workers")
    .description(
      "download the payment report of a crowd campaign (one row per worker and session: platform ids, outcome and code, judgments, time, gold, agreement) as CSV or JSONL",
    )
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--format <format>", "csv or jsonl (default: from the -o file's extension, else csv)")
    .option("--outcome <outcome>", "only sessions with this outcome (completed, queue_empty, paused, timed_out, training_failed, or open)")
    .option("--search <text>", "only workers whose platform id contains this")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; format?: string; outcome?: string; search?: string; output?: string }) => {
      ctx.needToken();
      const parsed = parseArgs(
        workerListQuerySchema.pick({ format: true, outcome: true, q: true }),
        { format: workersFormatOf(opts.output, opts.format), outcome: opts.outcome, q: opts.search },
        { q: "search" },
      );
      const format: WorkerReportFormat = parsed.format ?? "csv";
      const query = new URLSearchParams({
        format,
        ...(parsed.outcome ? { outcome: parsed.outcome } : {}),
        ...(parsed.q ? { q: parsed.q } : {}),
      });
      const bytes = await ctx
        .client()
        .download(`/api/campaigns/${encodeURIComponent(opts.campaign)}/workers?${query}`, outputOf(opts.output));
      note(`Wrote ${formatBytes(bytes)} of the payment report (${format}).`);
    });
}
