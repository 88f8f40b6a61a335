// Internal step of assignment (no authorization of its own): nextTask calls it after requireActiveAnnotator.
import "server-only";
import type { Db } from "@/db/client";
import type { Campaign } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { preparedRows, preparedRowsSerialized } from "@/db/cache/prepared";
import { isUniqueViolation } from "@/lib/errors";
import { newClaimHandle, reapExpiredClaims, reapExpiredClaimsWhenDue, taskFromRow, type TaskRow } from "../claims.internal";
import { memberRowsSql } from "../set-members.internal";
import type { Task } from "./judging.contract";

/**
 * Claiming in one statement, with the same rules as the step-by-step version it replaced:
 *   1. `live`: the caller's live claim (other than `$3`, the one the client already shows), oldest first;
 *   2. else `in_current`: an open passage of the question of the caller's latest claim, in the
 *      per-annotator order md5(id:user);
 *   3. else `anywhere`: an open passage of another question, fullest first (fewest open slots), then
 *      by question, then md5(id:user) — walking the partial index of open passages;
 * only passages of launched batches that the caller never claimed, of no question the caller trained
 * on (`trained`, below), locked FOR NO KEY UPDATE SKIP
 * LOCKED, so concurrent annotators skip each other's picks. `taken` moves the counters under that
 * lock (one slot fewer, one live claim more), `claimed` inserts the claim, and the final SELECT
 * returns the task view and progress. The row lock lasts for this one statement (autocommit): no
 * round trip to the app happens while it is held. The CTEs that lock run only when the ones before
 * them found nothing (uncorrelated NOT EXISTS: a one-time filter).
 *
 * `trained`: the questions of the caller's training answers (crowd workers; nobody else has any). A
 * worker who trained on a gold passage saw its expected verdict, span and explanation, so no passage
 * of that question — candidates, gold, decoys, proposals added later — is ever their work. The
 * filter is here, read at claim time, rather than as ended claims written on the question's
 * passages when the answer is stored: those would miss a passage added to the question later (a
 * proposal, a decoy) unless every path that adds one wrote them too, and a passage added while the
 * answer is being stored would slip between the two. Its cost does not grow with the campaign: one
 * probe of training_answers_user_passage_key by user (none found for annotators; K per session for
 * a crowd worker, K ≤ 50) and the passages of those answers by primary key, once per statement
 * (materialized), then an array test per candidate row; the walk skips at most the passages of
 * those few questions. README: "Crowd campaigns", Training.
 *
 * `live`'s first condition, a one-time filter evaluated before its scan (which every run of the
 * statement makes): this statement's own transaction commits without waiting for the WAL flush
 * (`synchronous_commit` off, local to the transaction). A claim is a lease:
 * a crash may lose the last claims handed out, each with the counters it moved (one transaction),
 * which loses no work — the annotator's judgment on a lost claim is refused as a lapsed hold and the
 * next passage comes. A judgment's write still waits for its flush, and that flush carries every
 * earlier commit, so no stored judgment outlives its claim. Under load the flushes queue: this takes
 * one of a judgment's two off the queue (bench/annotate).
 *
 * $1 user id, $2 campaign id, $3 the handle to skip (or null), $4 the new claim's handle, $5 lease seconds.
 */
export const CLAIM_NEXT_SQL = `
with live as materialized (
  select c.id, c.handle, c.expires_at, c.passage_id from claims c
  where (select set_config('synchronous_commit', 'off', true)) is not null
    and c.user_id = $1::bigint and c.campaign_id = $2::bigint and c.ended_at is null and c.expires_at > now()
    and ($3::text is null or c.handle <> $3::text)
  order by c.id
  limit 1
),
current_query as materialized (
  select p.query_id from claims c join passages p on p.id = c.passage_id
  where c.user_id = $1::bigint and c.campaign_id = $2::bigint
  order by c.id desc
  limit 1
),
launched as materialized (
  select coalesce(array_agg(b.id), '{}') as ids from batches b where b.campaign_id = $2::bigint and b.status = 'launched'
),
trained as materialized (
  select coalesce(array_agg(tp.query_id), '{}') as ids from training_answers t join passages tp on tp.id = t.passage_id
  where t.user_id = $1::bigint
),
in_current as materialized (
  select p.id from passages p
  where not exists (select 1 from live)
    and p.query_id = (select query_id from current_query) and p.open_slots > 0
    and p.batch_id = any((select ids from launched)::bigint[])
    and p.query_id <> all((select ids from trained)::bigint[])
    and not exists (select 1 from claims c where c.passage_id = p.id and c.user_id = $1::bigint)
  order by md5(p.id::text || ':' || $1::bigint::text)
  limit 1
  for no key update of p skip locked
),
anywhere as materialized (
  select p.id from passages p
  where not exists (select 1 from live) and not exists (select 1 from in_current)
    and p.campaign_id = $2::bigint and p.open_slots > 0
    and p.batch_id = any((select ids from launched)::bigint[])
    and p.query_id <> all((select ids from trained)::bigint[])
    and not exists (select 1 from claims c where c.passage_id = p.id and c.user_id = $1::bigint)
  order by p.open_slots, p.query_id, md5(p.id::text || ':' || $1::bigint::text)
  limit 1
  for no key update of p skip locked
),
taken as (
  update passages p set claim_count = p.claim_count + 1, open_slots = p.open_slots - 1
  where p.id = (select id from in_current union all select id from anywhere limit 1) and p.open_slots > 0
  returning p.id
),
claimed as (
  insert into claims (handle, passage_id, user_id, campaign_id, expires_at)
  select $4::text, t.id, $1::bigint, $2::bigint, now() + make_interval(secs => $5::int) from taken t
  returning id, handle, expires_at, passage_id
),
chosen as (
  select * from live union all select * from claimed
)
${taskViewSelect("chosen")}`;

/**
 * The task view of the claim(s) in relation `claim` (columns handle, expires_at, passage_id): the
 * question and its batch's task kind (one join on batches by primary key), the passage's paragraphs with the section header above them, and the caller's progress
 * ($1 user, $2 campaign). Numbers, text and json only, so both drivers return the same.
 */
export function taskViewSelect(claim: string): string {
  return `select ch.handle, (extract(epoch from ch.expires_at) * 1000)::float8 as expires_ms,
  q.kilt_id, q.input, to_json(q.answers) as answers, b.task_kind, pg.wikipedia_id, pg.title, p.start_paragraph_id as start,
  array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
  (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i)
    where e like 'Section::::%' order by i desc limit 1) as header_above,
  b.partial_evidence,
  ${memberRowsSql("p")} as members,
  coalesce((select d.judgments from annotator_days d
    where d.user_id = $1::bigint and d.campaign_id = $2::bigint and d.day = kps_utc_day(now())), 0) as today,
  (select count(*)::int from judgments j join passages jp on jp.id = j.passage_id
    where j.user_id = $1::bigint and jp.query_id = p.query_id) as done,
  (select count(*)::int from passages qp where qp.query_id = p.query_id) as total
from ${claim} ch
join passages p on p.id = ch.passage_id
join queries q on q.id = p.query_id
join batches b on b.id = p.batch_id
join pages pg on pg.wikipedia_id = p.wikipedia_id`;
}

/** The advisory lock key (with the user id) that runs a crowd worker's claim statements one at a time. */
const CROWD_CLAIM_LOCK = 7303;

/**
 * Claims the caller's next passage (or returns their live claim) in one statement; null when no
 * open passage is left for them. A claim insert that loses a race on one of its unique keys (the
 * same annotator's two requests picking one passage; a handle collision) is tried again.
 */
export async function claimNext(db: Db, user: UserActor, campaign: Campaign, after: string | undefined): Promise<Task | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      const params = [user.id, campaign.id, after ?? null, newClaimHandle(), campaign.leaseSeconds];
      // The statement gives a third claim to none but concurrent requests of one caller, which do not
      // see each other's claims. A crowd worker (anyone with the link) could hoard so: their requests
      // run one at a time, and each sees the claims before it — one on screen, one prefetched at most.
      // Annotators (accounts a coordinator made) keep the one round trip.
      const [row] =
        user.role === "crowd"
          ? await preparedRowsSerialized<TaskRow>(db, [CROWD_CLAIM_LOCK, user.id % 2_147_483_647], CLAIM_NEXT_SQL, params)
          : await preparedRows<TaskRow>(db, CLAIM_NEXT_SQL, params);
      return row ? taskFromRow(row, campaign) : null;
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * `claimNext` with reaping: expired claims are reaped at most every 2 s per campaign and process (and
 * whenever nothing else is open), so a claim that has just expired keeps its slot a little longer,
 * never doubles it.
 */
export async function claimNextReaping(db: Db, user: UserActor, campaign: Campaign, after: string | undefined): Promise<Task | null> {
  const reaped = await reapExpiredClaimsWhenDue(db, campaign.id);
  const task = await claimNext(db, user, campaign, after);
  if (task || reaped) return task;
  // Nothing open: slots held by claims that expired since the last reaping may be free.
  if (!(await db.transaction((tx) => reapExpiredClaims(tx, campaign.id)))) return null;
  return claimNext(db, user, campaign, after);
}
