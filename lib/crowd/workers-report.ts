import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { CrowdOutcome, CrowdPlatform, CrowdStage } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "@/lib/campaign/campaigns";
import { countedJudgmentsOf } from "@/lib/campaign/quality/counted-judgments";
import { smoothedAccuracy } from "@/lib/campaign/quality/consensus";
import { csvLine } from "@/lib/csv";
import { likePattern, pageOf, type Page } from "@/lib/list-options.contract";
import { WORKER_REPORT_COLUMNS, type WorkerListQuery, type WorkerReportFormat, type WorkerSessionRow } from "./workers-report.contract";

// The payment report: one row per crowd session, newest first, with what a coordinator needs to
// approve, reject and bonus on the platform. Computed in one statement per page; no judgment is read
// into TypeScript.
//
// Which judgments belong to a session: its worker's (user's) in the campaign from `work_started_at`
// (none when real work never began) up to the start of the worker's next session — not `ended_at`,
// since a passage claimed before the end may be submitted a little after it. A worker's sessions
// never overlap (at most one is open), so no judgment falls in two sessions. The next session's
// start is looked up by the (worker_id, number) key, not with `lead()` over a page that the filters
// may have thinned.
//
// Active time is the server's, never the client's `durationMs` (a hint, kept as client_duration_ms):
// the sum of the session's judgments' `duration_ms` (each from handing out its task, or from the
// worker's previous judgment if later, to receiving it; at most 24 h) — the stretches between the
// first task handed out and the last judgment received, which never overlap, so their sum is at
// most the session's wall time — plus its training: from the session's start to its last training
// answer, as the server received it (training_answers.duration_ms is the client's figure: no hand-out
// time is recorded per training item, so no rule and no report reads it).

/** A page's filters as SQL: the campaign, `q` in the platform worker id, the outcome (`open`: not ended), the keyset. */
function sessionFilter(campaignId: number, query: Pick<WorkerListQuery, "q" | "outcome">, after: number | undefined): SQL {
  const parts = [sql`s.campaign_id = ${campaignId}`];
  if (query.q) parts.push(sql`w.platform_worker_id ilike ${likePattern(query.q)}`);
  if (query.outcome === "open") parts.push(sql`s.outcome is null`);
  else if (query.outcome) parts.push(sql`s.outcome = ${query.outcome}`);
  if (after !== undefined) parts.push(sql`s.id < ${after}`);
  return sql.join(parts, sql` and `);
}

/** A time as ISO text in UTC to the millisecond (the same on both drivers), or null. */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

interface RawRow {
  id: string | number;
  platform: CrowdPlatform;
  worker_id: string;
  pseudonym: string;
  number: number;
  study_id: string | null;
  platform_session_id: string | null;
  stage: CrowdStage;
  outcome: CrowdOutcome | null;
  code: string | null;
  started_at: string;
  ended_at: string | null;
  judgments: string | number;
  counted: string | number;
  active_ms: string | number;
  training_judged: number;
  training_correct: number;
  gold_judged: number | null;
  gold_correct: number | null;
  agreed: string | number;
  compared: string | number;
  status: "active" | "paused" | null;
  pause_reason: WorkerSessionRow["pauseReason"];
}

/**
 * The statement of one page: the sessions (`limit` of them, newest first), then their judgments by
 * the worker's (user, campaign, created_at) index, which of those count (`countedJudgmentsOf` over
 * just their passages), the training's time, and the worker's standing.
 */
function pageStatement(campaignId: number, r: number, filter: SQL, limit: number): SQL {
  return sql`
    with page as (
      select s.id, s.user_id, s.number, s.study_id, s.platform_session_id, s.stage, s.outcome, s.code,
             s.started_at, s.work_started_at, s.ended_at, s.training_judged, s.training_correct,
             w.platform, w.platform_worker_id,
             (select n.started_at from crowd_sessions n where n.worker_id = s.worker_id and n.number > s.number
              order by n.number limit 1) as next_started_at
      from crowd_sessions s join crowd_workers w on w.id = s.worker_id
      where ${filter}
      order by s.id desc
      limit ${limit}
    ),
    sj as (
      select p.id as session_id, j.id, j.passage_id, j.duration_ms, j.agrees
      from page p
      join judgments j on j.user_id = p.user_id and j.campaign_id = ${campaignId}
        and j.created_at >= p.work_started_at and (p.next_started_at is null or j.created_at < p.next_started_at)
    ),
    totals as (
      select sj.session_id, count(*) as judgments, count(counted.id) as counted, sum(sj.duration_ms) as ms,
             count(*) filter (where sj.agrees) as agreed, count(sj.agrees) as compared
      from sj
      left join ${countedJudgmentsOf(sql`array(select distinct passage_id from sj)`, r)} on counted.id = sj.id
      group by sj.session_id
    )
    select p.id, p.platform, p.platform_worker_id as worker_id, u.pseudonym, p.number, p.study_id, p.platform_session_id,
           p.stage, p.outcome, p.code, ${iso("p.started_at")} as started_at, ${iso("p.ended_at")} as ended_at,
           coalesce(t.judgments, 0) as judgments, coalesce(t.counted, 0) as counted,
           coalesce(t.ms, 0) + coalesce((select greatest(0, round(extract(epoch from (max(a.created_at) - p.started_at)) * 1000))
             from training_answers a where a.session_id = p.id), 0) as active_ms,
           p.training_judged, p.training_correct, st.gold_judged, st.gold_correct,
           coalesce(t.agreed, 0) as agreed, coalesce(t.compared, 0) as compared, st.status, st.pause_reason
    from page p
    join users u on u.id = p.user_id
    left join totals t on t.session_id = p.id
    left join annotator_standings st on st.campaign_id = ${campaignId} and st.user_id = p.user_id
    order by p.id desc`;
}

function toRow(r: RawRow): WorkerSessionRow {
  const goldJudged = r.gold_judged ?? 0;
  const goldCorrect = r.gold_correct ?? 0;
  const [agreed, compared] = [Number(r.agreed), Number(r.compared)];
  return {
    id: Number(r.id),
    platform: r.platform,
    workerId: r.worker_id,
    pseudonym: r.pseudonym,
    session: r.number,
    studyId: r.study_id,
    platformSessionId: r.platform_session_id,
    stage: r.stage,
    outcome: r.outcome,
    code: r.code,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    judgments: Number(r.judgments),
    countedJudgments: Number(r.counted),
    activeSeconds: Number(r.active_ms) / 1000,
    trainingJudged: r.training_judged,
    trainingCorrect: r.training_correct,
    goldJudged,
    goldCorrect,
    goldAccuracy: goldJudged > 0 ? smoothedAccuracy(goldCorrect, goldJudged) : null,
    agreed,
    compared,
    agreement: compared > 0 ? agreed / compared : null,
    paused: r.status === "paused",
    pauseReason: r.pause_reason,
  };
}

/** The rows of one page (`limit + 1` read, so the caller knows whether another follows). */
async function readPage(
  db: Db,
  campaignId: number,
  r: number,
  query: Pick<WorkerListQuery, "q" | "outcome">,
  after: number | undefined,
  limit: number,
) {
  const raw = rowsOf<RawRow>(await db.execute(pageStatement(campaignId, r, sessionFilter(campaignId, query, after), limit + 1)));
  return pageOf(raw.map(toRow), limit);
}

/**
 * A campaign's crowd sessions, one row per (worker, session), newest first (session id descending),
 * a page at a time; `q` a part of the platform worker id, `outcome` one outcome or `open`
 * (coordinators; 404 for an unknown campaign).
 */
export async function listWorkerSessions(
  db: Db,
  actor: Actor,
  campaignId: number,
  query: WorkerListQuery,
): Promise<Page<WorkerSessionRow>> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  return readPage(db, campaign.id, campaign.judgmentsPerPassage, query, query.after, query.limit);
}

/** Rows read per statement by the export: memory stays flat whatever the number of workers. */
const EXPORT_PAGE_ROWS = 500;

/** A row as the export writes it: the columns in order, without the paging id. */
function exportedValues(row: WorkerSessionRow) {
  return WORKER_REPORT_COLUMNS.map((c) => row[c]);
}

/**
 * Every row of `listWorkerSessions` (matching `q` and `outcome`) as CSV (a header line, then one
 * record per session; RFC 4180 quoting, and text cells that a spreadsheet would run as a formula —
 * starting with = + - @ — get a leading `'`: lib/csv.ts) or JSONL (one object per line, the same
 * keys), read a page at a time. `pageRows` is for tests.
 */
export async function* exportWorkerSessions(
  db: Db,
  actor: Actor,
  campaignId: number,
  options: { format: WorkerReportFormat; q?: string; outcome?: WorkerListQuery["outcome"]; pageRows?: number },
): AsyncGenerator<string> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const csv = options.format === "csv";
  if (csv) yield csvLine(WORKER_REPORT_COLUMNS);
  let after: number | undefined;
  do {
    const page = await readPage(db, campaign.id, campaign.judgmentsPerPassage, options, after, options.pageRows ?? EXPORT_PAGE_ROWS);
    for (const row of page.rows) {
      const values = exportedValues(row);
      yield csv ? csvLine(values) : JSON.stringify(Object.fromEntries(WORKER_REPORT_COLUMNS.map((c, i) => [c, values[i]]))) + "\n";
    }
    after = page.next ?? undefined;
  } while (after !== undefined);
}
