import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { campaigns, queries } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError, invalidField, parseInput } from "@/lib/errors";
import { FatalImportError } from "@/lib/kilt/jsonl";
import {
  addKeptCandidates,
  answerOverlapFilter,
  CandidateReport,
  fileCandidates,
  textCandidates,
  type CandidateFile,
  type RankParagraphsMany,
} from "./candidates";
import { pairSets, partialEvidenceByDefault } from "./candidate-sets";
import { checkPages } from "./check-pages";
import { importFailed, Problems } from "./import-problems";
import { batchImportOptionsSchema, MAX_CANDIDATE_FILES, type BatchImportOptions, type BatchImportOptionsInput } from "./import-options";
import { addDecoys } from "./decoys";
import { conflictingGold, retrieverOfFile, type PassageDraft } from "./passage-drafts";
import { rankParagraphsMany } from "@/lib/knowledge/retrieve";
import { readCandidatesFile, readTaskFile, type ImportFile, type Located, type ParsedQuery } from "./read-batch-files";
import { taskOfBatch } from "./task-of-batch";
import { writeBatch } from "./write-batch";
import type { EvidenceMapReport } from "./evidence-map.contract";
import { mapTextEvidence, TEXT_EVIDENCE_HINT, textItemFields } from "./map-evidence";
import { readRedirects } from "./redirects";
import { answerOverlapRule, type BatchImportResult, type ImportProgress } from "./import-batch.contract";

export { MAX_BATCH_QUERIES, MAX_TASK_LINE_BYTES, type ImportFile } from "./read-batch-files";
export { batchImportOptionsSchema, type BatchImportOptions, type BatchImportOptionsInput } from "./import-options";

/**
 * A batch as a stream of parts, the shape of an upload (app/_server/uploads.ts): each file is read to
 * its end before the next part is pulled, and the options (the form's fields, which may come before
 * or after the files) arrive as the last part. importBatch pulls the first part only once it has
 * authorized the caller, so an unauthorized upload is refused before its body is read.
 */
export type BatchPart =
  | { kind: "queries"; file: ImportFile }
  | { kind: "candidates"; file: ImportFile }
  | { kind: "redirects"; file: ImportFile }
  | { kind: "options"; options: BatchImportOptions };

/** The files at hand (tests, the demo), or the parts of an upload. */
export type BatchImportInput = { campaignId: number } & ((BatchImportOptionsInput & FilesAtHand) | { parts: AsyncIterable<BatchPart> });

/** The files of a batch at hand: the questions, candidates, and a redirects file for evidence given as text. */
type FilesAtHand = { queries: ImportFile; candidates?: ImportFile | ImportFile[]; redirects?: ImportFile };

/** How the import ranks for `retrieve: "text"` (tests give their own), and who hears its progress (the API's NDJSON stream). */
export interface ImportHooks {
  rankMany?: RankParagraphsMany;
  onProgress?: (progress: ImportProgress) => void;
}

interface ReadBatch {
  queries: { file: ImportFile; parsed: ParsedQuery[] };
  candidates: CandidateFile[];
  options: BatchImportOptions;
  /** From a redirects file (readRedirects), or null without one. */
  redirects: Map<string, string> | null;
}

/**
 * Imports a batch into a campaign: questions from a KILT task file (their provenance becomes gold
 * passages) and, optionally, candidates: the top K of each retrieval-output file (one per retriever),
 * the best paragraphs of the text index, or both, kept when they overlap an answer enough. Every line
 * is checked — JSON, fields, duplicate and unknown ids, pages, paragraph ids and code-point offsets —
 * and if any line fails nothing is stored. Evidence sets come from multi-place gold, a candidates
 * file's `set` keys and `sets: "pairs"` (set-drafts.ts, candidate-sets.ts). With `mapEvidence`, the
 * provenance items given as text are located first (map-evidence.ts). The batch starts as a draft.
 */
export async function importBatch(db: Db, actor: Actor, input: BatchImportInput, hooks: ImportHooks = {}): Promise<BatchImportResult> {
  const { userId } = requireCoordinator(actor);
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, input.campaignId));
  if (!campaign) throw new AppError("not_found", `No campaign with id ${input.campaignId}.`);

  // Only now, with the caller allowed, is the upload read.
  const problems = new Problems();
  const batch = await readBatch("parts" in input ? input.parts : partsOf(input), problems);
  const { queries: read, options } = batch;
  if (!problems.list.length && read.parsed.length === 0) problems.add(read.file.fileName, 1, "(file)", "holds no questions");
  const evidence = await mapEvidenceOf(db, batch, problems);
  const questions = new Map(read.parsed.map((q) => [q.kiltId, q]));
  const drafts = new Map<string, Located<PassageDraft>[]>(read.parsed.map((q) => [q.kiltId, [...q.gold]]));
  const report = new CandidateReport();
  checkRetrieverOption(options, batch.candidates.length);
  const task = taskOfBatch(read.file, read.parsed, options.task, problems);
  const candidates = fileCandidates(batch.candidates, questions, read.file.fileName, options, problems, report);
  await checkNewQuestions(db, campaign.id, read, problems);
  if (problems.list.length) throw importFailed(problems.list);
  if (options.retrieve === "text") {
    const onProgress = hooks.onProgress && ((done: number, total: number) => hooks.onProgress!({ step: "retrieve", done, total }));
    const search = { k: options.retrieveTopK!, kind: task.kind, onProgress };
    candidates.push(...(await textCandidates(db, hooks.rankMany ?? rankParagraphsMany, read.parsed, search, report)));
  }

  const threshold = options.minAnswerOverlap;
  const overlap = threshold === undefined ? undefined : answerOverlapFilter(candidates, questions, threshold, task.kind);
  await checkPages(db, [...[...drafts.values()].flat(), ...candidates.map((c) => c.located)], problems, overlap);
  if (problems.list.length) throw importFailed(problems.list);
  addKeptCandidates(candidates, drafts, report);
  if (options.sets === "pairs") for (const p of pairSets(candidates, options.setPages!)) drafts.get(p.kiltId)!.push(p.located);
  checkConflictingGold(drafts, problems);
  if (problems.list.length) throw importFailed(problems.list);
  // Decoys (negative gold) by the kind's rule, from the pages the batch's passages come from, about decoysPer100 per 100 passages.
  await addDecoys(db, { questions: read.parsed, drafts, per100: campaign.decoysPer100, kind: task.kind });
  // The stored passages' pages (a set's: every member's).
  const pageCount = new Set([...drafts.values()].flat().flatMap((l) => (l.value.setMembers ?? [l.value]).map((m) => m.wikipediaId))).size;
  const partialEvidence = options.partialEvidence ?? partialEvidenceByDefault(read.file.fileName, read.parsed, options.sets === "pairs");

  const name = options.name ?? read.file.fileName;
  const written = await writeBatch(db, {
    campaign,
    name,
    createdBy: userId,
    task,
    queries: read.parsed,
    drafts,
    pageCount,
    retrievers: report.list(),
    retrieverDefaults: report.defaults,
    partialEvidence,
  });
  const answerOverlap = threshold === undefined ? null : { threshold, rule: answerOverlapRule(task.kind) };
  const result: BatchImportResult = { ...written, answerOverlap, evidence };
  await recordAudit(db, actor, {
    action: "batch.import",
    targetType: "batch",
    targetId: result.batch.id,
    details: {
      campaignId: campaign.id,
      name,
      queries: result.queries,
      passages: result.passages,
      task: task.kind,
      ...evidenceAudit(evidence),
    },
  });
  // Fresh planner statistics: without them the open-passage lookup of assignment scans and sorts
  // every open passage (bench/annotate: 3× slower on PostgreSQL, 7.5× on PGlite, which has no autovacuum).
  await db.execute(sql`analyze passages, queries`);
  return result;
}

/** The audit's record of the evidence given as text: its counts. */
function evidenceAudit(r: EvidenceMapReport | null) {
  return r ? { evidence: { items: r.items, exact: r.exact, fuzzy: r.fuzzy, dropped: r.dropped, minBleu: r.minBleu } } : {};
}

function checkRetrieverOption(options: BatchImportOptions, files: number): void {
  if (options.retriever !== undefined && files !== 1)
    throw invalidField(
      "retriever",
      files === 0
        ? "is the retriever of a candidates file's items without meta.retriever: give it with a candidates file"
        : "is the retriever of one candidates file's items without meta.retriever: give it with one file, or give the items meta.retriever",
    );
}

/** With mapEvidence, locates the evidence given as text (once the files read well) and reports on it; else null. */
async function mapEvidenceOf(db: Db, batch: ReadBatch, problems: Problems): Promise<EvidenceMapReport | null> {
  const { options, queries: read } = batch;
  if (!options.mapEvidence) {
    if (batch.redirects) throw invalidField("redirects", "is a redirects file for evidence given as text: give it with mapEvidence on");
    for (const q of read.parsed)
      for (const field of textItemFields(q)) problems.add(read.file.fileName, q.lineNumber, field, TEXT_EVIDENCE_HINT);
    return null;
  }
  if (problems.list.length) return null; // nothing is stored: the import fails on those problems
  const redirects = batch.redirects ?? new Map<string, string>();
  return mapTextEvidence(db, read.file.fileName, read.parsed, { minBleu: options.minBleu!, redirects }, problems);
}

async function* partsOf(input: BatchImportOptionsInput & FilesAtHand): AsyncGenerator<BatchPart> {
  const { queries: file, candidates, redirects, ...options } = input; // the schema leaves out the other keys (campaignId)
  yield { kind: "queries", file };
  if (redirects) yield { kind: "redirects", file: redirects };
  for (const c of candidates === undefined ? [] : Array.isArray(candidates) ? candidates : [candidates])
    yield { kind: "candidates", file: c };
  yield { kind: "options", options: parseInput(batchImportOptionsSchema, options, "options") };
}

/** Reads the parts: each file as it comes, collecting its problems; a broken file stops the reading. */
async function readBatch(parts: AsyncIterable<BatchPart>, problems: Problems): Promise<ReadBatch> {
  let queries: ReadBatch["queries"] | undefined;
  const candidates: CandidateFile[] = [];
  let options: BatchImportOptions | undefined;
  let redirects: Map<string, string> | null = null;
  try {
    for await (const part of parts) {
      if (part.kind === "options") options = part.options;
      else if (part.kind === "queries") queries = { file: part.file, parsed: await readTaskFile(part.file, problems) };
      else if (part.kind === "redirects") redirects = await readRedirects(part.file, problems);
      else candidates.push(await readCandidates(part.file, candidates, problems));
    }
  } catch (error) {
    if (error instanceof FatalImportError) throw importFailed([...problems.list, error.problem]);
    throw error;
  }
  if (!queries) throw invalidField("queries", "a KILT task file is required");
  return { queries, candidates, options: options ?? batchImportOptionsSchema.parse({}), redirects };
}

/** One retrieval-output file; two files of one retriever name would mix their counts and origins. */
async function readCandidates(file: ImportFile, before: CandidateFile[], problems: Problems): Promise<CandidateFile> {
  if (before.length >= MAX_CANDIDATE_FILES)
    throw invalidField("candidates", `at most ${MAX_CANDIDATE_FILES} retrieval-output files in one batch`);
  const retriever = retrieverOfFile(file.fileName);
  const twin = before.find((c) => c.retriever === retriever);
  if (twin)
    problems.add(
      file.fileName,
      1,
      "(file)",
      `names the same retriever '${retriever}' as ${twin.file.fileName}: give each retriever's file its own name`,
    );
  return { file, retriever, ranking: await readCandidatesFile(file, problems) };
}

/** Gold of one question expecting both verdicts at one place (conflictingGold): a problem on each later one. */
function checkConflictingGold(drafts: Map<string, Located<PassageDraft>[]>, problems: Problems): void {
  for (const own of drafts.values()) {
    for (const { draft, other } of conflictingGold(own)) {
      const says = draft.value.expectedVerdict === "insufficient" ? 'marks it "gold": "insufficient"' : "gives it as gold evidence";
      problems.add(
        draft.file,
        draft.line,
        `${draft.field}.gold`,
        `${says}, but ${other.file} line ${other.line} ${other.field} says the opposite about the same passage`,
      );
    }
  }
}

/** Refuses questions already in the campaign. */
async function checkNewQuestions(db: Db, campaignId: number, read: ReadBatch["queries"], problems: Problems): Promise<void> {
  const lineOf = new Map(read.parsed.map((q) => [q.kiltId, q.lineNumber]));
  const ids = [...lineOf.keys()];
  for (let i = 0; i < ids.length; i += 1000) {
    const existing = await db
      .select({ kiltId: queries.kiltId, batchId: queries.batchId })
      .from(queries)
      .where(and(eq(queries.campaignId, campaignId), inArray(queries.kiltId, ids.slice(i, i + 1000))));
    for (const e of existing) {
      problems.add(read.file.fileName, lineOf.get(e.kiltId)!, "id", `'${e.kiltId}' is already in this campaign (batch ${e.batchId})`);
    }
  }
}
