import { type Command, InvalidArgumentError, Option } from "commander";
import { createReadStream } from "node:fs";
import { FatalImportError, type ImportProblem, readLines } from "@/lib/kilt/jsonl";
import { MAX_SCORE_PROBLEMS, scoreFiles } from "@/lib/kilt/score/score-files";
import { DEFAULT_KS, type KiltResult, type Level } from "@/lib/kilt/score/types";
import { existingFile, offlineCommand, printReport, type OfflineReport } from "./shared";

/** The longest line read; KILT has none, but a line is held whole while it is parsed. */
export const MAX_SCORE_LINE_BYTES = 64 * 1024 * 1024;
/** How many problems a bad file prints before "… and N more". */
export const MAX_PRINTED_PROBLEMS = 20;

export interface ScoreCommandOptions {
  gold: string;
  guess: string;
  ks: number[];
  level?: Level;
  json: boolean;
}

export type ScoreReport = OfflineReport;

/** The --ks parser: a comma-separated list of positive integers, sorted and without repeats. */
export function parseKs(value: string): number[] {
  const parts = value.split(",").map((p) => p.trim());
  const bad = parts.filter((p) => !/^\d+$/.test(p) || Number(p) < 1 || !Number.isSafeInteger(Number(p)));
  if (bad.length || !parts.length)
    throw new InvalidArgumentError(
      `it must be a comma-separated list of positive integers such as 1,5,10 (${bad.map((b) => `'${b}'`).join(", ")} is not).`,
    );
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/**
 * A figure as Python's repr prints a float, so the digits are those KILT's scripts print: the
 * shortest round-trip digits (JavaScript's and Python's agree), ".0" on whole numbers, and the
 * exponent form below 1e-4 (Python: `1e-05`, JavaScript: `0.00001`) or from 1e16.
 */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponent] = x.toExponential().split("e") as [string, string];
  const e = Number(exponent);
  if (e < -4 || e >= 16) return `${mantissa}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/** One dictionary as a block: its title, then a line per figure in KILT's order. */
function block(title: string, figures: Record<string, number>): string[] {
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  return [title, ...Object.entries(figures).map(([k, v]) => `  ${k.padEnd(width)}  ${pythonFloat(v)}`)];
}

/** The human output: one block per dictionary KILT's scripts print, a blank line between blocks. */
export function humanLines(result: KiltResult): string[] {
  const blocks: string[][] = [];
  if (result.page) blocks.push(block("page retrieval (rank key wikipedia_id; eval_retrieval.py)", result.page));
  if (result.paragraph)
    blocks.push(
      block("paragraph retrieval (rank keys wikipedia_id, start_paragraph_id, end_paragraph_id; eval_retrieval.py)", result.paragraph),
    );
  const d = result.downstream;
  if (d) {
    blocks.push(block("downstream: kilt (counted where page-level R-precision = 1; eval_downstream.py)", d.kilt));
    blocks.push(block("downstream: downstream", d.downstream));
    blocks.push(block("downstream: retrieval (page level)", d.retrieval));
  }
  return blocks.flatMap((b, i) => (i ? ["", ...b] : b));
}

/** A problem as `file line N, field: message`. */
export function problemLine(p: ImportProblem): string {
  return `${p.file}${p.line ? ` line ${p.line}` : ""}${p.field ? `, ${p.field}` : ""}: ${p.message}`;
}

/** Problems as printed: the first MAX_PRINTED_PROBLEMS, then how many more. */
export function problemLines(problems: ImportProblem[]): string[] {
  const shown = problems.slice(0, MAX_PRINTED_PROBLEMS).map(problemLine);
  if (problems.length <= MAX_PRINTED_PROBLEMS) return shown;
  const more = problems.length - MAX_PRINTED_PROBLEMS;
  return [
    ...shown,
    problems.length >= MAX_SCORE_PROBLEMS
      ? `… and at least ${more} more (the check stops counting at ${MAX_SCORE_PROBLEMS})`
      : `… and ${more} more`,
  ];
}

/** Scores two files offline; the lines to print (figures on stdout, or the problems for stderr). */
export async function scoreReport(opts: ScoreCommandOptions): Promise<ScoreReport> {
  const lines = (file: string) => readLines(createReadStream(file), { file, maxLineBytes: MAX_SCORE_LINE_BYTES });
  const levels: Level[] = opts.level ? [opts.level] : ["page", "paragraph"];
  let scored: Awaited<ReturnType<typeof scoreFiles>>;
  try {
    scored = await scoreFiles({
      gold: { file: opts.gold, lines: lines(opts.gold) },
      guess: { file: opts.guess, lines: lines(opts.guess) },
      ks: opts.ks,
      levels,
    });
  } catch (error) {
    if (error instanceof FatalImportError) return { ok: false, stderr: [problemLine(error.problem)] };
    throw error;
  }
  if (!scored.ok) return { ok: false, stderr: problemLines(scored.problems) };
  const what = [scored.result.page && "page", scored.result.paragraph && "paragraph"].filter(Boolean).join(" and ");
  const parts = [what && `${what} retrieval at k = ${opts.ks.join(", ")}`, scored.result.downstream && "downstream"].filter(Boolean);
  const summary = `Scored ${scored.questions} question${scored.questions === 1 ? "" : "s"}: ${parts.join("; ") || "nothing to score"}${scored.kind.provenance ? "" : " (the guess has no provenance)"}${scored.kind.answers ? "" : " (the guess has no answers)"}.`;
  return { ok: true, stdout: opts.json ? [JSON.stringify(result(scored.result), null, 1)] : humanLines(scored.result), summary };
}

/** The dictionary `{page?, paragraph?, downstream?}` in that order, as expected.json holds it. */
function result(r: KiltResult): KiltResult {
  return {
    ...(r.page && { page: r.page }),
    ...(r.paragraph && { paragraph: r.paragraph }),
    ...(r.downstream && { downstream: r.downstream }),
  };
}

/** `kps score`: KILT's eval_retrieval.py and eval_downstream.py on two files, offline. */
export function addScoreCommand(program: Command): void {
  offlineCommand(program, "score", "score a system's guess file against a gold file as KILT's eval_retrieval.py and eval_downstream.py do")
    .requiredOption("--gold <file>", "the gold KILT file (JSONL, plain or .gz)", existingFile)
    .requiredOption("--guess <file>", "the system's predictions, one line per gold id (JSONL, plain or .gz)", existingFile)
    .addOption(
      new Option("--ks <list>", "the k of precision@k, recall@k, …: positive integers")
        .argParser(parseKs)
        .default(DEFAULT_KS, DEFAULT_KS.join(",")),
    )
    .addOption(new Option("--level <level>", "only this retrieval level (default: both)").choices(["page", "paragraph"]))
    .option("--json", "print the evaluators' dictionary {page, paragraph, downstream} as JSON", false)
    .action(async (opts: ScoreCommandOptions) => printReport(await scoreReport(opts), "the files have problems: nothing scored."));
}
