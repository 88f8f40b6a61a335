import type { Command } from "commander";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { formatBytes } from "@/lib/format";
import { type CliContext, note, outputOf, parseArgs } from "./shared";

/** A question annotators explained no passage answers, as the export report lists it. */
interface Explained {
  queryId: string;
  explanations: { reason: string; text: string; annotator: string }[];
}

/** The export report's explanations, one line per question (at most 50 questions). */
export function explainedLines(explained: Explained[]): string[] {
  if (!explained.length) return [];
  const lines = explained
    .slice(0, 50)
    .map(
      (q) =>
        `  ${q.queryId}: ${q.explanations.map((e) => `${e.reason} (${e.annotator})${e.text ? ` ${JSON.stringify(e.text)}` : ""}`).join("; ")}`,
    );
  return [
    `Explained by annotators (${explained.length} question${explained.length === 1 ? "" : "s"}):`,
    ...lines,
    ...(explained.length > 50 ? ["  …"] : []),
  ];
}

/** An exported provenance item whose text holds none of its question's answers, as the export report lists it. */
interface SpanWithoutAnswer {
  queryId: string;
  wikipediaId: string;
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
}

/** The export report's spans that hold no answer: a count, then one line each (at most 50). */
export function spansWithoutAnswerLines(spans: SpanWithoutAnswer[]): string[] {
  if (!spans.length) return [];
  const where = (s: SpanWithoutAnswer) =>
    s.startCharacter < 0
      ? `paragraphs ${s.startParagraphId}–${s.endParagraphId}`
      : `${s.startParagraphId}:${s.startCharacter}–${s.endParagraphId}:${s.endCharacter}`;
  return [
    `Exported spans holding none of their question's answers (${spans.length}):`,
    ...spans.slice(0, 50).map((s) => `  ${s.queryId}: page ${s.wikipediaId}, ${where(s)}`),
    ...(spans.length > 50 ? ["  …"] : []),
  ];
}

/** `kps export` (the KILT provenance file and its report) and `kps judgments` (every judgment). */
export function addExportCommands(program: Command, ctx: CliContext): void {
  program
    .command("export")
    .description("download the campaign's KILT provenance JSONL (streamed), then print the export report")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--batch <id>", "only this batch's questions")
    .option("--location <where>", "span (consensus span offsets) or passage (paragraph range, -1 characters)", "span")
    .option("--aggregation <how>", "what endorses a passage in this export: majority or dawid-skene (default: the campaign's setting)")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; batch?: string; location: string; aggregation?: string; output?: string }) => {
      ctx.needToken();
      const parsed = parseArgs(exportQuerySchema, { batch: opts.batch, location: opts.location, aggregation: opts.aggregation });
      const query = new URLSearchParams({
        location: parsed.location,
        ...(parsed.batch ? { batch: String(parsed.batch) } : {}),
        ...(parsed.aggregation ? { aggregation: parsed.aggregation } : {}),
      });
      const base = `/api/campaigns/${encodeURIComponent(opts.campaign)}`;
      const bytes = await ctx.client().download(`${base}/export?${query}`, outputOf(opts.output));
      const { data } = await ctx.client().request<{
        report: {
          aggregation?: string;
          queries: number;
          queriesExported: number;
          passagesEndorsed: number;
          unanswerable: string[];
          withoutEndorsement: number;
          explained?: Explained[];
          spansWithoutAnswer?: SpanWithoutAnswer[];
        };
      }>("GET", `${base}/export/report?${query}`);
      const r = data.report;
      note(
        `Exported ${r.queriesExported} of ${r.queries} questions (${formatBytes(bytes)}), ${r.passagesEndorsed} endorsed passages${r.aggregation ? ` (${r.aggregation})` : ""}; ` +
          `${r.unanswerable.length} unanswerable from the snapshot, ${r.withoutEndorsement} without an endorsed passage.`,
      );
      if (r.unanswerable.length) note(`Unanswerable: ${r.unanswerable.slice(0, 50).join(", ")}${r.unanswerable.length > 50 ? ", …" : ""}`);
      for (const line of explainedLines(r.explained ?? [])) note(line);
      for (const line of spansWithoutAnswerLines(r.spansWithoutAnswer ?? [])) note(line);
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
      const bytes = await ctx
        .client()
        .download(`/api/campaigns/${encodeURIComponent(opts.campaign)}/judgments${query}`, outputOf(opts.output));
      note(`Wrote ${formatBytes(bytes)} of judgments.`);
    });
}
