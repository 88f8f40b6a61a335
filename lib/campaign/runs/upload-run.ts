import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { copyRows, copyValue, dropStaleTables, quoteIdent, withStagingTable, type StagingColumn } from "@/db/bulk";
import { campaigns, runs } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { FatalImportError, readLines } from "@/lib/kilt/jsonl";
import { GuessLines, type GuessKind } from "@/lib/kilt/score/guess-lines";
import { pyStrip } from "@/lib/kilt/score/python";
import { importFailed, Problems } from "../import/import-problems";
import type { ImportFile } from "../import/read-batch-files";
import { runNameSchema, type RunView } from "./runs.contract";
import { getRunView } from "./list-runs";

/** A guess line carries one answer and one ranked list (with passage texts, perhaps): long, but not unbounded. */
export const MAX_GUESS_LINE_BYTES = 16 * 1024 * 1024;

/** Runs a campaign holds at most: the run list is one page, and every leaderboard read scores them all. */
export const MAX_RUNS_PER_CAMPAIGN = 50;

const STAGING_PREFIX = "kps_stage_run_";
const STAGING_COLUMNS: StagingColumn[] = [
  { name: "query_id", type: "bigint" },
  // JSON null when the line has none (a staging column is never SQL null).
  { name: "answer", type: "jsonb" },
  { name: "provenance", type: "jsonb", compress: true },
];

/** Drops staging tables an upload left behind when its process died (older than a day). */
export function dropStaleRunStagingTables(db: Db, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  return dropStaleTables(db, STAGING_PREFIX, olderThanMs);
}

/**
 * An upload as a stream of parts (app/_server/uploads.ts: `runUploadParts`): the `name` field and the
 * `guess` file, in either order. uploadRun pulls the first part only once it has authorized the
 * caller, so an unauthorized upload is refused before its body is read.
 */
export type RunPart = { kind: "name"; name: string } | { kind: "guess"; file: ImportFile };

export type UploadRunInput = { campaignId: number } & ({ name: string; guess: ImportFile } | { parts: AsyncIterable<RunPart> });

/** A campaign question as a guess line names it: by its KILT id as KILT reads it (`str(id).strip()`). */
interface Question {
  queryId: number;
  batchName: string;
  lineNumber: number;
}

/**
 * Stores a system's predictions for a campaign as a run (coordinators). The guess file (a KILT
 * guess JSONL, plain or gzip) is streamed and every line checked as KILT's evaluator reads it (the
 * lead's `parseGuessLine`); its ids must be the campaign's questions' KILT ids, each once, and every
 * question needs a prediction. Lines are COPY'd into a staging table as they are read; with any
 * problem nothing is stored (422 naming file, line and field).
 */
export async function uploadRun(db: Db, actor: Actor, input: UploadRunInput): Promise<RunView> {
  const { userId } = requireCoordinator(actor);
  const [campaign] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.id, input.campaignId));
  if (!campaign) throw new AppError("not_found", `No campaign with id ${input.campaignId}.`);
  const [held] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(eq(runs.campaignId, campaign.id));
  if ((held?.n ?? 0) >= MAX_RUNS_PER_CAMPAIGN)
    throw new AppError("conflict", `This campaign holds ${MAX_RUNS_PER_CAMPAIGN} runs, the most it may: delete one first.`);

  // Only now, with the caller allowed, is the upload read.
  return withStagingTable(db, STAGING_PREFIX, STAGING_COLUMNS, async (staging) => {
    let name: string | undefined;
    let staged: { file: string; kind: GuessKind; questions: number } | undefined;
    for await (const part of "parts" in input ? input.parts : partsOf(input)) {
      if (part.kind === "name") {
        name = checkName(part.name);
        await refuseTakenName(db, campaign.id, name);
      } else {
        if (staged) throw invalidField("guess", "send one guess file");
        staged = await stageGuess(db, staging, campaign.id, part.file);
      }
    }
    if (!staged) throw invalidField("guess", "a guess file (KILT JSONL, one prediction per question) is required");
    if (name === undefined) throw invalidField("name", "a run needs a name (1 to 80 characters)");
    await refuseTakenName(db, campaign.id, name);
    const runId = await storeRun(db, actor, { campaignId: campaign.id, name, createdBy: userId, staging, ...staged });
    return await getRunView(db, campaign.id, runId);
  });
}

async function* partsOf(input: { name: string; guess: ImportFile }): AsyncGenerator<RunPart> {
  yield { kind: "name", name: input.name };
  yield { kind: "guess", file: input.guess };
}

function checkName(value: string): string {
  const parsed = runNameSchema.safeParse(value);
  if (!parsed.success) throw invalidField("name", parsed.error.issues[0]!.message);
  return parsed.data;
}

async function refuseTakenName(db: Db, campaignId: number, name: string): Promise<void> {
  const [taken] = await db
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.campaignId, campaignId), eq(runs.name, name)));
  if (taken)
    throw new AppError("conflict", `This campaign already has a run named '${name}': delete it first or choose another name.`, {
      field: "name",
    });
}

/** The campaign's questions by KILT id (as KILT compares ids), with where each was imported, for the messages. */
async function questionsOf(db: Db, campaignId: number): Promise<Map<string, Question>> {
  const rows = rowsOf<{ id: number; kilt_id: string; line_number: number; batch_name: string }>(
    await db.execute(sql`
      select q.id, q.kilt_id, q.line_number, b.name as batch_name from queries q join batches b on b.id = q.batch_id
      where q.campaign_id = ${campaignId} order by q.id`),
  );
  return new Map(rows.map((r) => [pyStrip(r.kilt_id), { queryId: Number(r.id), batchName: r.batch_name, lineNumber: r.line_number }]));
}

/** Reads, checks and COPYs every line into the staging table; any problem fails the whole upload. */
async function stageGuess(db: Db, staging: string, campaignId: number, file: ImportFile) {
  const questions = await questionsOf(db, campaignId);
  const problems = new Problems();
  const lines = new GuessLines((line, field, message) => problems.add(file.fileName, line, field, message));
  const unread = { lines: 0 };
  try {
    return await copyRows(db, staging, STAGING_COLUMNS, async (writeRow) => {
      for await (const line of readLines(file.source, { file: file.fileName, maxLineBytes: MAX_GUESS_LINE_BYTES })) {
        const guess = lines.check(line);
        if (problems.full) break;
        if (guess === undefined) unread.lines++;
        if (!guess) continue;
        const question = questions.get(guess.id);
        if (!question)
          problems.add(file.fileName, line.lineNumber, "id", `${guess.id} is not in the gold: no question of this campaign has this id`);
        if (problems.list.length || !question) continue; // keep checking, stop staging
        await writeRow([String(question.queryId), copyValue(JSON.stringify(guess.answer)), copyValue(JSON.stringify(guess.provenance))]);
      }
      // A question without prediction, once every line was read (a line that could not be read names no id).
      for (const [id, q] of unread.lines ? [] : questions) {
        if (problems.full) break;
        if (!lines.seen.has(id)) problems.add(q.batchName, q.lineNumber, "id", `has no prediction in ${file.fileName} (id ${id})`);
      }
      if (!lines.kind && !problems.list.length) problems.add(file.fileName, 1, "(file)", "holds no prediction");
      if (problems.list.length) throw importFailed(problems.list);
      return { file: file.fileName, kind: lines.kind!, questions: lines.seen.size };
    });
  } catch (error) {
    if (error instanceof FatalImportError) throw importFailed([...problems.list, error.problem]);
    throw error;
  }
}

/** The run and its predictions (moved from the staging table in one statement), and the audit entry, in one transaction. */
async function storeRun(
  db: Db,
  actor: Actor,
  input: { campaignId: number; name: string; createdBy: number | null; staging: string; file: string; kind: GuessKind; questions: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(runs)
      .values({
        campaignId: input.campaignId,
        name: input.name,
        createdBy: input.createdBy,
        questions: input.questions,
        hasProvenance: input.kind.provenance,
        hasAnswers: input.kind.answers,
      })
      .onConflictDoNothing()
      .returning({ id: runs.id });
    const run = inserted[0];
    if (!run)
      throw new AppError("conflict", `This campaign already has a run named '${input.name}': delete it first or choose another name.`, {
        field: "name",
      });
    await tx.execute(
      sql.raw(`insert into run_predictions (run_id, query_id, answer, provenance)
        select ${Number(run.id)}, s.query_id, s.answer #>> '{}', nullif(s.provenance, 'null'::jsonb)
        from ${quoteIdent(input.staging)} s join queries q on q.id = s.query_id`),
    );
    await recordAudit(tx, actor, {
      action: "run.upload",
      targetType: "run",
      targetId: run.id,
      details: { campaignId: input.campaignId, name: input.name, file: input.file, questions: input.questions },
    });
    return Number(run.id);
  });
}
