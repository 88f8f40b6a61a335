import { type Command, Option } from "commander";
import { createReadStream } from "node:fs";
import { z } from "zod";
import {
  annotatorSkills,
  type DawidSkeneFit,
  type FitTrace,
  fitDawidSkeneTraced,
  fitOneCoinDawidSkeneTraced,
  type OneCoinFit,
  type Verdict,
  type Vote,
} from "@/lib/campaign/quality/dawid-skene";
import { FatalImportError, fieldPath, type ImportProblem, parseJsonLine, readLines } from "@/lib/kilt/jsonl";
import { problemLine, problemLines } from "./score";
import { existingFile, offlineCommand, printReport, type OfflineReport } from "./shared";

/** The longest line read: a judgment line is a few dozen bytes. */
export const MAX_AGGREGATE_LINE_BYTES = 1024 * 1024;
/** Problems collected before the check stops counting (as kps score). */
export const MAX_AGGREGATE_PROBLEMS = 200;

const missing = (message: string) => (issue: { input: unknown }) => (issue.input === undefined ? "is required" : message);
const verdict = z.enum(["sufficient", "insufficient"], { error: missing('must be "sufficient" or "insufficient"') });
const id = z
  .string({ error: missing("must be a string") })
  .trim()
  .min(1, "must not be empty");

/** One line of a judgments file (the aggregation fixtures' `judgments.jsonl`). */
export const judgmentLineSchema = z.object({ passage: id, annotator: id, verdict });
/** One line of a gold file (the fixtures' `gold.jsonl`). */
export const goldLineSchema = z.object({ passage: id, verdict });

export type AggregateModel = "dawid-skene" | "one-coin";

export interface AggregateCommandOptions {
  judgments: string;
  gold?: string;
  model: AggregateModel;
  json: boolean;
}

export type AggregateReport = OfflineReport;

/** Reads a JSONL file, zod-parsing every line; `each` gets the parsed value and the line number. */
async function readParsed<S extends z.ZodType>(
  file: string,
  schema: S,
  problems: ImportProblem[],
  each: (value: z.infer<S>, line: number) => void,
): Promise<void> {
  const add = (p: ImportProblem) => {
    if (problems.length < MAX_AGGREGATE_PROBLEMS) problems.push(p);
  };
  for await (const { lineNumber, text } of readLines(createReadStream(file), { file, maxLineBytes: MAX_AGGREGATE_LINE_BYTES })) {
    const parsed = parseJsonLine(text);
    if (!parsed.ok) {
      add({ file, line: lineNumber, field: parsed.field, message: parsed.message });
      continue;
    }
    const result = schema.safeParse(parsed.value);
    if (!result.success) {
      for (const issue of result.error.issues) add({ file, line: lineNumber, field: fieldPath(issue.path), message: issue.message });
      continue;
    }
    each(result.data, lineNumber);
  }
}

/** Sorted keys, as crowd-kit's expected.json (Python's sort_keys) orders them. */
function sortedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The fit in the shape of an expected.json entry: p_sufficient, labels, priors, then errors or skills. */
export function fitJson(fit: DawidSkeneFit | OneCoinFit): Record<string, unknown> {
  const common = {
    p_sufficient: sortedObject(fit.pSufficient),
    labels: sortedObject(fit.labels),
    priors: { insufficient: fit.priors.insufficient, sufficient: fit.priors.sufficient },
  };
  if (fit.model === "one-coin") return { ...common, skills: sortedObject(fit.skills) };
  return { ...common, errors: sortedObject([...fit.errors].map(([a, cells]) => [a, sortedObject(Object.entries(cells))])) };
}

const fixed = (x: number) => x.toFixed(4);

/** Whether the last iteration grew the loss by less than tol (rather than running out of iterations). */
function converged(trace: FitTrace, tol = 1e-5): boolean {
  const h = trace.lossHistory;
  return h.length >= 2 && h.at(-1)! - h.at(-2)! < tol;
}

/** The human summary: counts, iterations, priors, the endorsed count and annotators by skill. */
export function humanLines(fit: DawidSkeneFit | OneCoinFit, trace: FitTrace, gold: number, maxAnnotators = 50): string[] {
  const name = fit.model === "one-coin" ? "one-coin Dawid–Skene" : "Dawid–Skene";
  const endorsed = [...fit.pSufficient.values()].filter((p) => p >= 0.5).length;
  const lines = [
    `${name}: ${trace.passages} passages, ${trace.annotators} annotators${gold ? `, ${gold} gold passages clamped` : ""}`,
    `iterations: ${trace.iterations} (${converged(trace) ? "converged: the loss grew by less than 1e-5" : "stopped at n_iter = 100"})`,
    `priors: sufficient ${fixed(fit.priors.sufficient)}, insufficient ${fixed(fit.priors.insufficient)}`,
    `P(sufficient) ≥ 0.5: ${endorsed} of ${trace.passages} passages`,
    "",
    fit.model === "one-coin"
      ? "annotators by skill (P(right))"
      : "annotators by skill (P(right) under the priors; P(says sufficient | sufficient), P(says insufficient | insufficient))",
  ];
  const skills = [...annotatorSkills(fit)];
  const width = Math.max(...skills.map(([a]) => a.length));
  for (const [annotator, skill] of skills.slice(0, maxAnnotators)) {
    let line = `  ${annotator.padEnd(width)}  ${fixed(skill)}`;
    if (fit.model === "dawid-skene") {
      const cells = fit.errors.get(annotator)!;
      line += `  ${fixed(cells["sufficient|sufficient"] ?? 0)}  ${fixed(cells["insufficient|insufficient"] ?? 0)}`;
    }
    lines.push(line);
  }
  if (skills.length > maxAnnotators) lines.push(`  … and ${skills.length - maxAnnotators} more (--json lists every one)`);
  return lines;
}

/** Fits the model to the files offline; the lines to print (figures on stdout, or problems for stderr). */
export async function aggregateReport(opts: AggregateCommandOptions): Promise<AggregateReport> {
  const problems: ImportProblem[] = [];
  const votes: Vote[] = [];
  const gold = new Map<string, Verdict>();
  const goldLine = new Map<string, number>();
  try {
    await readParsed(opts.judgments, judgmentLineSchema, problems, (j) => votes.push(j));
    if (opts.gold) {
      const file = opts.gold;
      await readParsed(file, goldLineSchema, problems, (g, line) => {
        const before = gold.get(g.passage);
        if (before !== undefined && before !== g.verdict) {
          if (problems.length < MAX_AGGREGATE_PROBLEMS)
            problems.push({
              file,
              line,
              field: "verdict",
              message: `contradicts line ${goldLine.get(g.passage)}, which gives passage ${g.passage} as ${before}`,
            });
          return;
        }
        gold.set(g.passage, g.verdict);
        goldLine.set(g.passage, line);
      });
    }
  } catch (error) {
    if (error instanceof FatalImportError) return { ok: false, stderr: [problemLine(error.problem)] };
    throw error;
  }
  if (!problems.length && !votes.length) problems.push({ file: opts.judgments, line: 0, field: "", message: "has no judgments" });
  if (problems.length) return { ok: false, stderr: problemLines(problems) };

  const options = { gold: gold.size ? gold : undefined, nIter: 100, tol: 1e-5 };
  const { fit, trace } = opts.model === "one-coin" ? fitOneCoinDawidSkeneTraced(votes, options) : fitDawidSkeneTraced(votes, options);
  const clamped = [...gold.keys()].filter((p) => fit.pSufficient.has(p)).length;
  const unjudged = gold.size - clamped;
  const summary =
    `Aggregated ${votes.length} judgment${votes.length === 1 ? "" : "s"} with ${opts.model} in ${trace.iterations} iteration${trace.iterations === 1 ? "" : "s"}` +
    (opts.gold
      ? ` (${clamped} gold passage${clamped === 1 ? "" : "s"} clamped${unjudged ? `; ${unjudged} gold passage${unjudged === 1 ? " has" : "s have"} no judgment and ${unjudged === 1 ? "was" : "were"} ignored` : ""})`
      : "") +
    ".";
  return { ok: true, stdout: opts.json ? [JSON.stringify(fitJson(fit), null, 1)] : humanLines(fit, trace, clamped), summary };
}

/** `kps aggregate`: Dawid–Skene or one-coin Dawid–Skene over a judgments file, offline. */
export function addAggregateCommand(program: Command): void {
  offlineCommand(program, "aggregate", "fit Dawid–Skene (or its one-coin variant) to judgments as crowd-kit does, n_iter 100, tol 1e-5")
    .requiredOption("--judgments <file>", 'the judgments: JSONL lines {"passage", "annotator", "verdict"} (plain or .gz)', existingFile)
    .option("--gold <file>", 'known verdicts, clamped: JSONL lines {"passage", "verdict"} (plain or .gz)', existingFile)
    .addOption(new Option("--model <model>", "the model").choices(["dawid-skene", "one-coin"]).makeOptionMandatory())
    .option("--json", "print {p_sufficient, labels, priors, errors | skills} as JSON, in the shape of the fixtures' expected.json", false)
    .action(async (opts: AggregateCommandOptions) =>
      printReport(await aggregateReport(opts), "the files have problems: nothing aggregated."),
    );
}
