import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { RunProvenanceItem } from "@/db/schema";
import { pyStrip } from "@/lib/kilt/score/python";
import type { GoldRecord, GuessRecord } from "@/lib/kilt/score/types";
import { PAGE_QUERIES, type ProvenanceStatus, type QuestionProvenance } from "../report/kilt-provenance";
import { goldsOf, sameStrings } from "./golds";
import type { PerGold } from "./runs.contract";

// The leaderboard cache's per-question golds (leaderboard_question_golds): what each question's golds
// were when the cached figures took it in, and the outcome changes confined to it then. A change
// confined to some questions (a judgment, an adjudication, a pause) updates the figures by taking
// their stored golds out and their new ones in; a run new to the cache is scored from them. Internal.

/** A question's golds as stored: enough to rebuild its gold records with its original line. */
export interface StoredGolds {
  queryId: number;
  changes: number;
  originalMd5: string;
  status: ProvenanceStatus;
  entries: string[];
}

/** The campaign's outcome version: its folded total (query -1) and the pending deltas. */
export const versionSql = (campaignId: number) => sql`
  coalesce((select changes from outcome_versions where campaign_id = ${campaignId} and query_id = -1), 0)
  + coalesce((select sum(changes) from outcome_version_deltas where campaign_id = ${campaignId}), 0)`;

/** The campaign's outcome version, and its campaign-wide part (changes not confined to a question), in one reading. */
export async function readVersions(db: Db, campaignId: number): Promise<{ version: number; wide: number }> {
  const [row] = rowsOf<{ version: string | number; wide: string | number }>(
    await db.execute(sql`
      select ${versionSql(campaignId)} as version,
             coalesce((select changes from outcome_versions where campaign_id = ${campaignId} and query_id = 0), 0)
           + coalesce((select sum(changes) from outcome_version_deltas where campaign_id = ${campaignId} and query_id = 0), 0) as wide`),
  );
  return { version: Number(row!.version), wide: Number(row!.wide) };
}

/** Every question's own outcome changes so far (a question never changed on its own is absent). */
export async function questionVersions(db: Db, campaignId: number): Promise<Map<number, number>> {
  const rows = rowsOf<{ query_id: string | number; changes: string | number }>(
    await db.execute(sql`
      select query_id, sum(changes) as changes from (
        select query_id, changes from outcome_versions where campaign_id = ${campaignId} and query_id > 0
        union all select query_id, changes from outcome_version_deltas where campaign_id = ${campaignId} and query_id > 0
      ) v group by query_id`),
  );
  return new Map(rows.map((r) => [Number(r.query_id), Number(r.changes)]));
}

export const md5Of = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** What to store of a question whose golds were just read, at its own changes `changes`. */
export function storedGoldsOf(q: QuestionProvenance, changes: number): StoredGolds {
  return { queryId: q.id, changes, originalMd5: md5Of(q.originalLine), status: q.status, entries: q.entries };
}

/** Whether two stored golds give the same gold records (the original line, the status and the entries, JSON texts compared as they are). */
export const sameGolds = (a: StoredGolds, b: StoredGolds) =>
  a.originalMd5 === b.originalMd5 && a.status === b.status && sameStrings(a.entries, b.entries);

/** Per database handle (a catch-up's transaction), the questions whose stored golds were written on it since golds-at-t.ts last took them. */
const written = new WeakMap<Db, Set<number>>();

/** The questions whose stored golds were written on `db` since the last call (golds-at-t.ts brings their golds at the other Ts into step). */
export function takeGoldsWritten(db: Db): number[] {
  const ids = [...(written.get(db) ?? [])];
  written.delete(db);
  return ids;
}

/** Which stored golds: a campaign's at one T (the figures' are those at the golds row's T: the campaign's once caught up). */
export interface StoredAt {
  campaignId: number;
  t: number;
}

/** The campaign's stored golds, at its T. */
export const storedAt = (campaign: { id: number; endorsementThreshold: number }): StoredAt => ({
  campaignId: campaign.id,
  t: campaign.endorsementThreshold,
});

/**
 * Stores (or replaces) questions' golds at `at`; noted as written on `db` (takeGoldsWritten) unless
 * they are golds kept at another T than the figures' (`kept`: golds-at-t.ts writing them).
 */
export async function writeQuestionGolds(db: Db, at: StoredAt, rows: StoredGolds[], kept = false): Promise<void> {
  if (!kept) {
    const ids = written.get(db) ?? new Set<number>();
    for (const r of rows) ids.add(r.queryId);
    written.set(db, ids);
  }
  for (let i = 0; i < rows.length; i += PAGE_QUERIES) {
    const page = rows.slice(i, i + PAGE_QUERIES).map((r) => ({ ...r, entries: JSON.stringify(r.entries) }));
    await db.execute(sql`
      insert into leaderboard_question_golds as g (campaign_id, t, query_id, changes, original_md5, status, entries)
      select ${at.campaignId}, ${at.t}::int, r."queryId", r.changes, r."originalMd5", r.status, r.entries::json
      from json_to_recordset(${JSON.stringify(page)}::json) as r("queryId" bigint, changes bigint, "originalMd5" text, status text, entries text)
      on conflict (campaign_id, t, query_id) do update
        set changes = excluded.changes, original_md5 = excluded.original_md5, status = excluded.status, entries = excluded.entries`);
  }
}

/** The stored golds of the whole campaign (query id → golds), for the questions' changes to be compared. */
export async function storedChanges(db: Db, at: StoredAt): Promise<Map<number, number>> {
  const rows = rowsOf<{ query_id: string | number; changes: string | number }>(
    await db.execute(
      sql`select query_id, changes from leaderboard_question_golds where campaign_id = ${at.campaignId} and t = ${at.t}::int`,
    ),
  );
  return new Map(rows.map((r) => [Number(r.query_id), Number(r.changes)]));
}

/** A stored question's gold records, rebuilt with its original line as it is now; null when the line is gone or not the one stored. */
export interface RebuiltQuestion {
  stored: StoredGolds;
  kiltId: string;
  golds: PerGold<GoldRecord | null>;
}

interface StoredRow {
  query_id: string | number;
  changes: string | number;
  original_md5: string;
  status: ProvenanceStatus;
  entries: string[];
  original_line: string | null;
  kilt_id: string | null;
}

const storedOf = (r: Omit<StoredRow, "original_line" | "kilt_id">): StoredGolds => ({
  queryId: Number(r.query_id),
  changes: Number(r.changes),
  originalMd5: r.original_md5,
  status: r.status,
  entries: r.entries,
});

/** Stored golds' records rebuilt with the question's original line as it is now; null when the line is gone or not the one stored. */
export function rebuiltWith(stored: StoredGolds, originalLine: string | null, kiltId: string | null): RebuiltQuestion | null {
  if (originalLine === null || kiltId === null || md5Of(originalLine) !== stored.originalMd5) return null;
  return { stored, kiltId, golds: goldsOf({ originalLine, status: stored.status, entries: stored.entries }) };
}

/** The rows' gold records rebuilt; null when any cannot be. */
function rebuiltAll(rows: StoredRow[]): RebuiltQuestion[] | null {
  const out: RebuiltQuestion[] = [];
  for (const r of rows) {
    const q = rebuiltWith(storedOf(r), r.original_line, r.kilt_id);
    if (!q) return null;
    out.push(q);
  }
  return out;
}

const storedColumns = sql`g.query_id, g.changes, g.original_md5, g.status, g.entries, q.original_line, q.kilt_id`;

/** The stored golds of these questions (at most a page of them), as stored: query id → golds (the caller rebuilds them with `rebuiltWith`). */
export async function storedGoldsIn(db: Db, at: StoredAt, queryIds: number[]): Promise<Map<number, StoredGolds>> {
  if (!queryIds.length) return new Map();
  const rows = rowsOf<Omit<StoredRow, "original_line" | "kilt_id">>(
    await db.execute(sql`
      select g.query_id, g.changes, g.original_md5, g.status, g.entries from leaderboard_question_golds g
      where g.campaign_id = ${at.campaignId} and g.t = ${at.t}::int and g.query_id = any(${sql.param(queryIds)}::bigint[])`),
  );
  return new Map(rows.map((r) => [Number(r.query_id), storedOf(r)]));
}

async function storedQuestions(db: Db, at: StoredAt, queryIds: number[]): Promise<RebuiltQuestion[] | null> {
  if (!queryIds.length) return [];
  return rebuiltAll(
    rowsOf<StoredRow>(
      await db.execute(sql`
        select ${storedColumns} from leaderboard_question_golds g left join queries q on q.id = g.query_id
        where g.campaign_id = ${at.campaignId} and g.t = ${at.t}::int and g.query_id = any(${sql.param(queryIds)}::bigint[])`),
    ),
  );
}

/** The stored golds of these questions, rebuilt; null when any cannot be (its question deleted, or its original line changed). */
export async function rebuildStored(db: Db, at: StoredAt, queryIds: number[]): Promise<Map<number, RebuiltQuestion> | null> {
  const out = new Map<number, RebuiltQuestion>();
  for (let i = 0; i < queryIds.length; i += PAGE_QUERIES) {
    const page = await storedQuestions(db, at, queryIds.slice(i, i + PAGE_QUERIES));
    if (!page) return null;
    for (const q of page) out.set(q.stored.queryId, q);
  }
  return out;
}

/** Whether every stored question's golds can still be rebuilt: none of their questions deleted, no original line replaced. */
export async function storedGoldsRebuildable(db: Db, at: StoredAt): Promise<boolean> {
  const [row] = rowsOf<{ gone: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from leaderboard_question_golds g left join queries q on q.id = g.query_id
        where g.campaign_id = ${at.campaignId} and g.t = ${at.t}::int and (q.id is null or md5(q.original_line) <> g.original_md5)
      ) as gone`),
  );
  return !row!.gone;
}

/** Runs' predictions for some questions: query id → run id → guess (its id as the scorer reads it). */
export async function guessesOf(
  db: Db,
  runIds: readonly number[],
  questions: { id: number; kiltId: string }[],
): Promise<Map<number, Map<number, GuessRecord>>> {
  const out = new Map<number, Map<number, GuessRecord>>();
  if (!runIds.length || !questions.length) return out;
  const kiltIds = new Map(questions.map((q) => [q.id, pyStrip(q.kiltId)]));
  const rows = rowsOf<{ run_id: number; query_id: number; answer: string | null; provenance: RunProvenanceItem[] | null }>(
    await db.execute(sql`
      select run_id, query_id, answer, provenance from run_predictions
      where run_id = any(${sql.param([...runIds])}::bigint[]) and query_id = any(${sql.param([...kiltIds.keys()])}::bigint[])`),
  );
  for (const p of rows) {
    const queryId = Number(p.query_id);
    const byRun = out.get(queryId) ?? new Map<number, GuessRecord>();
    byRun.set(Number(p.run_id), { id: kiltIds.get(queryId)!, answer: p.answer, provenance: p.provenance });
    out.set(queryId, byRun);
  }
  return out;
}

/**
 * Every stored question of the campaign in id order (as the uncached walk reads them), a page at a
 * time, with the runs' guesses; only those with an id below `before` when it is given. Returns false,
 * having stopped, when a question's golds cannot be rebuilt.
 */
export async function walkStored(
  db: Db,
  at: StoredAt,
  runIds: readonly number[],
  each: (q: RebuiltQuestion, guesses: Map<number, GuessRecord>) => void,
  before?: number,
): Promise<boolean> {
  const below = before === undefined ? sql`` : sql`and g.query_id < ${before}`;
  for (let after = 0; ;) {
    const rows = rowsOf<StoredRow>(
      await db.execute(sql`
        select ${storedColumns} from leaderboard_question_golds g left join queries q on q.id = g.query_id
        where g.campaign_id = ${at.campaignId} and g.t = ${at.t}::int and g.query_id > ${after} ${below}
        order by g.query_id limit ${PAGE_QUERIES}`),
    );
    const questions = rebuiltAll(rows);
    if (!questions) return false;
    const guesses = await guessesOf(
      db,
      runIds,
      questions.map((q) => ({ id: q.stored.queryId, kiltId: q.kiltId })),
    );
    for (const q of questions) each(q, guesses.get(q.stored.queryId) ?? new Map());
    if (rows.length < PAGE_QUERIES) return true;
    after = questions.at(-1)!.stored.queryId;
  }
}
