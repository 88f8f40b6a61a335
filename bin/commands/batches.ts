import { type Command, Option } from "commander";
import {
  answerOverlapText,
  importProgressText,
  retrieverDefaultText,
  type BatchImportResult,
  type ImportProgress,
  type RetrieverDefault,
  type RetrieverReport,
} from "@/lib/campaign/import/import-batch.contract";
import { TASK_KINDS, TASK_KIND_NAMES, type TaskKind } from "@/lib/kilt/task-kind";
import { batchListQuerySchema } from "@/lib/list-options.contract";
import { addEvidenceOptions, checkEvidenceOptions, evidenceLines, evidenceParts, type EvidenceOptions } from "./batch-evidence";
import { type CliContext, existingFile, listEvery, note, number, out, progressPrinter } from "./shared";

/** `kps batch import|list|launch|pause|close`. */
export function addBatchCommands(program: Command, ctx: CliContext): void {
  const batch = program.command("batch").description("batches: import, launch, pause, close (coordinators)");
  addImport(batch, ctx);
  batch
    .command("list")
    .description("list every batch of a campaign, newest first, with its task kind (and KILT dataset)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--search <text>", "only names containing this text")
    .action((opts: { campaign: string; search?: string }) =>
      listEvery<{
        id: number;
        name: string;
        status: string;
        queries: number;
        passages: number;
        goldPassages: number;
        taskKind?: string;
        dataset?: string | null;
      }>(ctx, {
        path: `/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`,
        key: "batches",
        schema: batchListQuerySchema,
        search: opts.search,
        noun: ["batch", "batches"],
        line: (b) =>
          `${b.id}\t${b.status}\t${b.name}\t${b.queries} questions\t${b.passages} passages\t${b.goldPassages} gold` +
          (b.taskKind ? `\t${b.taskKind}${b.dataset ? ` (${b.dataset})` : ""}` : ""),
      }),
    );
  for (const action of ["launch", "pause", "close"] as const) {
    batch
      .command(action)
      .description(`${action} a batch (draft → launched ⇄ paused → closed)`)
      .argument("<id>", "the batch's id")
      .action(async (id: string) => {
        ctx.needToken();
        const { data } = await ctx
          .client()
          .request<{ batch: { id: number; status: string } }>("POST", `/api/batches/${encodeURIComponent(id)}/${action}`, {});
        out(data.batch.status);
        note(`Batch ${data.batch.id} is ${data.batch.status}.`);
      });
  }
}

interface ImportOptions extends EvidenceOptions {
  campaign: string;
  queries: string;
  candidates: string[];
  perRetriever?: number;
  topK?: number;
  minAnswerOverlap?: number;
  retrieve?: string;
  retriever?: string;
  task?: TaskKind;
  sets?: "pairs";
  setPages?: number;
  partialEvidence?: "on" | "off";
  name?: string;
}

/**
 * The upload's fields. `--top-k` keeps its old meaning (the candidates taken from a file, now
 * `perRetriever`) unless `--retrieve text` is given: then it is the number of text-retrieval candidates.
 */
export function importFields(opts: ImportOptions): { name: string; value: string }[] {
  const fields: [string, unknown][] = [
    ["perRetriever", opts.perRetriever ?? (opts.retrieve ? undefined : opts.topK)],
    ["minAnswerOverlap", opts.minAnswerOverlap],
    ["retrieve", opts.retrieve],
    ["retrieveTopK", opts.retrieve ? opts.topK : undefined],
    ["retriever", opts.retriever || undefined],
    ["task", opts.task],
    ["sets", opts.sets],
    ["setPages", opts.setPages],
    ["partialEvidence", opts.partialEvidence],
    ["name", opts.name || undefined],
  ];
  return fields.flatMap(([name, value]) => (value === undefined ? [] : [{ name, value: String(value) }]));
}

/** The report's line on evidence sets and partial evidence (an older server says neither). */
/** Uploads the batch, showing the upload's progress and then, with --retrieve text, the server's ranking progress. */
async function uploadBatch(ctx: CliContext, opts: ImportOptions): Promise<BatchImportResult> {
  const parts = [
    { name: "queries", file: opts.queries },
    ...opts.candidates.map((file) => ({ name: "candidates", file })),
    ...importFields(opts),
    ...evidenceParts(opts),
  ];
  const progress = progressPrinter("Uploading the batch");
  let uploaded = false;
  const endUpload = () => {
    if (!uploaded) progress.done();
    uploaded = true;
  };
  const ranked = opts.retrieve === "text" ? retrievalPrinter(endUpload) : undefined;
  const result = await ctx
    .client()
    .upload<BatchImportResult>(`/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`, parts, progress, ranked);
  endUpload();
  ranked?.done();
  return result;
}

/**
 * Text retrieval's progress on stderr, as the server streams it: "Text retrieval: ranked N of M
 * questions", a redrawn line on a terminal, else the first, one per 10% and the last.
 */
function retrievalPrinter(endUpload: () => void) {
  let lastTenth = -1;
  let shown = false;
  const print = (p: unknown) => {
    endUpload();
    const progress = p as ImportProgress;
    const tenth = progress.total ? Math.floor((progress.done / progress.total) * 10) : 10;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${importProgressText(progress)}   `);
      shown = true;
    } else if (tenth > lastTenth) {
      lastTenth = tenth;
      note(importProgressText(progress));
    }
  };
  return Object.assign(print, {
    done() {
      if (shown) process.stderr.write("\n");
    },
  });
}

export function setLines(result: Partial<Pick<BatchImportResult, "sets" | "partialEvidence">>): string[] {
  if (result.partialEvidence === undefined) return [];
  const sets = result.sets ? `Evidence sets: ${result.sets} (judged together, counted in the passages). ` : "";
  return [`${sets}Partial evidence: ${result.partialEvidence ? "on" : "off"}.`];
}

/** One line per retriever: what the per-retriever cut and the answer-overlap rule left. */
export function retrieverLines(retrievers: RetrieverReport[]): string[] {
  return retrievers.map(
    (r) =>
      `  ${r.retriever}: ${r.read} read (top K), ${r.droppedByRank} below the top K, ${r.droppedByOverlap} dropped by the answer overlap, ` +
      `${r.kept} kept (${r.merged} merged with another origin)`,
  );
}

/** One line per candidates file whose lines named no retriever: what they were counted as. */
export function retrieverDefaultLines(defaults: RetrieverDefault[]): string[] {
  return defaults.map(retrieverDefaultText);
}

/** The report's lines on the batch's task kind (and the dataset, and why) and on the answer-overlap filter for that kind. */
export function taskLines(result: Pick<BatchImportResult, "task" | "answerOverlap">): string[] {
  const { task } = result;
  if (!task) return []; // an older server
  return [
    `Task: ${TASK_KIND_NAMES[task.kind]}${task.dataset ? ` (dataset ${task.dataset})` : ""}. ${task.reason}`,
    ...(result.answerOverlap ? [answerOverlapText(result.answerOverlap, task.kind)] : []),
  ];
}

/** `--candidates` may be repeated: every file, in order. */
const collectFiles = (value: string, previous: string[]) => [...previous, existingFile(value)];

function addImport(batch: Command, ctx: CliContext): void {
  const command = batch
    .command("import")
    .description("import questions (and candidates) into a campaign as a draft batch; prints the batch id")
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--queries <file>", "a KILT task JSONL file; its provenance becomes gold passages", existingFile)
    .option(
      "--candidates <file>",
      "a KILT retrieval-output JSONL file, one per retriever (repeat the option; the retriever is the file's name unless an item's meta.retriever says)",
      collectFiles,
      [],
    )
    .option("--per-retriever <k>", "candidates taken from the top of each file's ranking (default 4)", number("--per-retriever"))
    .option(
      "--top-k <k>",
      "with --retrieve text: the text-retrieval candidates per question (default 4); else the same as --per-retriever",
      number("--top-k"),
    )
    .option(
      "--min-answer-overlap <share>",
      "keep a candidate only when it holds at least this share (0–1) of a gold answer's normalised tokens",
      number("--min-answer-overlap"),
    )
    .option("--retrieve <how>", "'text': also propose the best paragraphs of the text index (kps knowledge index) for each question")
    .option(
      "--retriever <name>",
      "with one --candidates file: the retriever of its items without meta.retriever (default: the one its other items name, else the file's name)",
    )
    .addOption(
      new Option("--task <kind>", "the KILT task of the lines, over what the import detects from the file (default: detected)").choices(
        TASK_KINDS,
      ),
    )
    .addOption(
      new Option("--sets <how>", "'pairs': also pair the candidates of each question's top pages into evidence sets").choices(["pairs"]),
    )
    .option("--set-pages <k>", "with --sets pairs: the top candidate pages paired per question (2–6, default 3)", number("--set-pages"))
    .addOption(
      new Option(
        "--partial-evidence <on|off>",
        "whether annotators may answer 'part of the evidence' (default: on for a HotpotQA-like batch or with --sets pairs)",
      ).choices(["on", "off"]),
    )
    .option("--name <name>", "the batch's name (default: the queries file's name)");
  addEvidenceOptions(command).action(async (opts: ImportOptions) => {
    ctx.needToken();
    checkEvidenceOptions(opts);
    const result = await uploadBatch(ctx, opts);
    out(String(result.batch.id));
    note(
      [
        `Imported batch '${result.batch.name}' (id ${result.batch.id}, draft): ${result.queries} questions, ${result.passages} passages ` +
          `(${result.goldPassages} gold, ${result.candidatePassages} candidates) over ${result.pages} pages.`,
        ...taskLines(result),
        ...setLines(result),
        ...(result.trainingPassages ? [`Training items for crowd workers: ${result.trainingPassages} (of the gold).`] : []),
        ...(result.decoys ? [`Decoys made: ${result.decoys} (negative gold, counted in the gold; never exported).`] : []),
        ...(result.retrievers?.length ? ["Candidates per retriever:", ...retrieverLines(result.retrievers)] : []),
        ...retrieverDefaultLines(result.retrieverDefaults ?? []),
        ...evidenceLines(result.evidence, opts),
        `Launch it with 'kps batch launch ${result.batch.id}'.`,
      ].join("\n"),
    );
  });
}
