import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { campaigns, queries } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { FatalImportError } from "@/lib/kilt/jsonl";
import { checkPages } from "./check-pages";
import { importFailed, Problems } from "./import-problems";
import { candidatePassagesOf, type PassageDraft } from "./passage-drafts";
import { readCandidatesFile, readTaskFile, type ImportFile, type Located, type ParsedQuery, type Ranking } from "./read-batch-files";
import { writeBatch, type BatchImportResult } from "./write-batch";

export { MAX_BATCH_QUERIES, MAX_TASK_LINE_BYTES, type ImportFile } from "./read-batch-files";
export type { BatchImportResult } from "./write-batch";

export const batchImportOptionsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  topK: z.coerce.number().int().min(1, "must be at least 1").max(100, "must be at most 100").default(4),
});
export type BatchImportOptions = z.infer<typeof batchImportOptionsSchema>;

/**
 * A batch as a stream of parts, the shape of an upload (lib/server/uploads.ts): each file is read to
 * its end before the next part is pulled, and the options (the form's fields, which may come before
 * or after the files) arrive as the last part. importBatch pulls the first part only once it has
 * authorized the caller, so an unauthorized upload is refused before its body is read.
 */
export type BatchPart =
  | { kind: "queries"; file: ImportFile }
  | { kind: "candidates"; file: ImportFile }
  | { kind: "options"; options: BatchImportOptions };

/** The files at hand (tests, the demo), or the parts of an upload. */
export type BatchImportInput = { campaignId: number } & (
  | (BatchImportOptions & { queries: ImportFile; candidates?: ImportFile })
  | { parts: AsyncIterable<BatchPart> }
);

interface ReadBatch {
  queries: { file: ImportFile; parsed: ParsedQuery[] };
  candidates?: { file: ImportFile; ranking: Map<string, Ranking> };
  options: BatchImportOptions;
}

/**
 * Imports a batch into a campaign: questions from a KILT task file (their provenance becomes gold
 * passages) and, optionally, top-k candidates from a retrieval-output file. Every line is checked —
 * JSON, fields, duplicate and unknown ids, pages, paragraph ids and code-point offsets — and if any
 * line fails nothing is stored. The batch starts as a draft.
 */
export async function importBatch(db: Db, actor: Actor, input: BatchImportInput): Promise<BatchImportResult> {
  const { userId } = requireCoordinator(actor);
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, input.campaignId));
  if (!campaign) throw new AppError("not_found", `No campaign with id ${input.campaignId}.`);

  // Only now, with the caller allowed, is the upload read.
  const problems = new Problems();
  const batch = await readBatch("parts" in input ? input.parts : partsOf(input), problems);
  const { queries: read, options } = batch;
  if (!problems.list.length && read.parsed.length === 0) problems.add(read.file.fileName, 1, "(file)", "holds no questions");
  const drafts = passageDrafts(batch, problems);
  await checkNewQuestions(db, campaign.id, read, problems);
  const pageCount = await checkPages(db, [...drafts.values()].flat(), problems);
  if (problems.list.length) throw importFailed(problems.list);

  const name = options.name ?? read.file.fileName;
  const result = await writeBatch(db, { campaign, name, createdBy: userId, queries: read.parsed, drafts, pageCount });
  await recordAudit(db, actor, { action: "batch.import", targetType: "batch", targetId: result.batch.id, details: { campaignId: campaign.id, name, queries: result.queries, passages: result.passages } });
  // Fresh planner statistics: without them the open-passage lookup of assignment scans and sorts
  // every open passage (bench/annotate: 3× slower on PostgreSQL, 7.5× on PGlite, which has no autovacuum).
  await db.execute(sql`analyze passages, queries`);
  return result;
}

async function* partsOf(input: BatchImportOptions & { queries: ImportFile; candidates?: ImportFile }): AsyncGenerator<BatchPart> {
  yield { kind: "queries", file: input.queries };
  if (input.candidates) yield { kind: "candidates", file: input.candidates };
  yield { kind: "options", options: { name: input.name, topK: input.topK } };
}

/** Reads the parts: each file as it comes, collecting its problems; a broken file stops the reading. */
async function readBatch(parts: AsyncIterable<BatchPart>, problems: Problems): Promise<ReadBatch> {
  let queries: ReadBatch["queries"] | undefined;
  let candidates: ReadBatch["candidates"];
  let options: BatchImportOptions | undefined;
  try {
    for await (const part of parts) {
      if (part.kind === "options") options = part.options;
      else if (part.kind === "queries") queries = { file: part.file, parsed: await readTaskFile(part.file, problems) };
      else candidates = { file: part.file, ranking: await readCandidatesFile(part.file, problems) };
    }
  } catch (error) {
    if (error instanceof FatalImportError) throw importFailed([...problems.list, error.problem]);
    throw error;
  }
  if (!queries) throw invalidField("queries", "a KILT task file is required");
  return { queries, candidates, options: options ?? batchImportOptionsSchema.parse({}) };
}

/** Each question's passages: its gold ones, then its top-k candidates (whose ids must be questions of the batch). */
function passageDrafts({ queries, candidates, options }: ReadBatch, problems: Problems): Map<string, Located<PassageDraft>[]> {
  const drafts = new Map<string, Located<PassageDraft>[]>();
  for (const q of queries.parsed) drafts.set(q.kiltId, [...q.gold]);
  if (!candidates) return drafts;
  const file = candidates.file.fileName;
  for (const [id, r] of candidates.ranking) {
    const own = drafts.get(id);
    if (!own) {
      problems.add(file, r.lineNumber, "id", `'${id}' is not a question of ${queries.file.fileName}`);
      continue;
    }
    candidatePassagesOf(r.ranking, options.topK).forEach((value, rank) =>
      own.push({ value, file, line: r.lineNumber, field: `output[${r.entry}].provenance[${rank}]` }),
    );
  }
  return drafts;
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
