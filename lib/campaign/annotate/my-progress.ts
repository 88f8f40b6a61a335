import "server-only";
import { and, eq, ne, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { batches } from "@/db/schema";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { passageCells } from "../tallies.internal";
import { requireActiveAnnotator } from "./annotator-access";
import type { LeftForMe, MyProgress, QueueFigures } from "./judging.contract";

/**
 * An annotator's own progress, for the queue and the judging header. Only the caller's own work and
 * one campaign-wide share are read: never gold flags, never anyone else's judgments or counts.
 */

/** "Left for you" is counted up to this many passages, then shown as "1,000+". */
export const LEFT_CAP = 1000;
/**
 * The count walks at most this many entries of the open-passage index (passages_open_idx, in its
 * order), never every passage: open passages of paused or draft batches, or ones the annotator
 * already claimed, can fill that walk, and then the count is a lower bound ("12+ left").
 */
export const LEFT_SCAN = 3 * LEFT_CAP;
/** A session is the run of the annotator's judgments without a pause of this many minutes or more. */
export const SESSION_IDLE_MINUTES = 30;

/** The figures of the caller's own work, shared by the header and the queue. */
const mine = (userId: number, campaignId: number | SQL) => sql`
  coalesce((select md.judgments from annotator_days md where md.user_id = ${userId} and md.campaign_id = ${campaignId}
     and md.day = kps_utc_day(now())), 0) as judged_today,
  (select count(*)::int from judgments mj where mj.user_id = ${userId} and mj.campaign_id = ${campaignId}) as judged_total,
  w.found as left_found, w.scanned as left_scanned,
  (select count(*)::int from claims mc where mc.user_id = ${userId} and mc.campaign_id = ${campaignId} and mc.ended_at is null and mc.expires_at > now()
     and exists (select 1 from passages mp join batches mb on mb.id = mp.batch_id where mp.id = mc.passage_id and mb.status = 'launched')) as live_claims`;

/** The bounded walk of the open-passage index behind "left for you" (joined as `w`). */
const leftWalk = (userId: number, campaignId: number | SQL) => sql`
  (select (count(*) filter (where o.launched and not o.mine))::int as found, count(*)::int as scanned
   from (select mp.batch_id in (select mb.id from batches mb where mb.campaign_id = ${campaignId} and mb.status = 'launched') as launched,
                exists (select 1 from claims mc where mc.passage_id = mp.id and mc.user_id = ${userId}) as mine
         from passages mp
         where mp.campaign_id = ${campaignId} and mp.open_slots > 0
         order by mp.open_slots, mp.query_id, mp.id
         limit ${LEFT_SCAN}) o) w`;

interface MineRow {
  judged_today: number;
  judged_total: number;
  left_found: number;
  left_scanned: number;
  live_claims: number;
}

function leftOf(r: MineRow): LeftForMe {
  const n = r.left_found + r.live_claims;
  return n > LEFT_CAP ? { count: LEFT_CAP, capped: true } : { count: n, capped: r.left_scanned >= LEFT_SCAN };
}

/** GET /api/campaigns/:id/my-progress: the caller's figures in a campaign they work on (paused: refused, as the judging page is). */
export async function getMyProgress(db: Db, actor: Actor, campaignId: number, now = new Date()): Promise<MyProgress> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, campaignId);
  const goal = campaign.sessionGoal;
  const [figures, cells, shown, recent] = await Promise.all([
    db.execute(sql`select ${mine(user.id, campaignId)} from ${leftWalk(user.id, campaignId)}`),
    // The campaign's share filled: the dashboard's tally cells (tallies and pending deltas), of batches past draft.
    passageCells(db, campaignId),
    db
      .select({ id: batches.id })
      .from(batches)
      .where(and(eq(batches.campaignId, campaignId), ne(batches.status, "draft"))),
    // Newest first along judgments_user_idx, only as far as the goal needs (or 500 without a goal).
    db.execute(sql`
      select created_at from judgments where user_id = ${user.id} and campaign_id = ${campaignId}
      order by created_at desc limit ${(goal ?? 500) + 1}`),
  ]);
  const f = rowsOf<MineRow>(figures)[0]!;
  const ids = new Set(shown.map((b) => b.id));
  const counted = cells.filter((c) => ids.has(c.batchId));
  const slots = counted.reduce((n, c) => n + c.passages, 0) * campaign.judgmentsPerPassage;
  const unfilled = counted.reduce((n, c) => n + c.open + c.claimed, 0);
  return {
    percentFilled: slots > 0 ? Math.floor((100 * (slots - unfilled)) / slots) : null,
    judgedToday: f.judged_today,
    judgedTotal: f.judged_total,
    left: leftOf(f),
    session: {
      judged: sessionLength(
        rowsOf<{ created_at: string | Date }>(recent).map((r) => new Date(r.created_at)),
        now,
      ),
      goal,
    },
  };
}

/**
 * How many of `times` (newest first) belong to the current session: the run back from the newest
 * while consecutive judgments are less than SESSION_IDLE_MINUTES apart; 0 when the newest is that
 * old already (the next judgment starts a new session).
 */
export function sessionLength(times: readonly Date[], now: Date): number {
  const idle = SESSION_IDLE_MINUTES * 60_000;
  if (!times.length || now.getTime() - times[0]!.getTime() >= idle) return 0;
  let n = 1;
  while (n < times.length && times[n - 1]!.getTime() - times[n]!.getTime() < idle) n++;
  return n;
}

/**
 * The queue's figures for campaigns the caller works on (ids not theirs are left out): one statement
 * for the page, each "left" count a bounded walk of the open-passage index (LEFT_SCAN entries at most).
 */
export async function listMyQueueFigures(db: Db, actor: Actor, campaignIds: readonly number[]): Promise<Map<number, QueueFigures>> {
  const user = requireUser(actor);
  const out = new Map<number, QueueFigures>();
  if (!campaignIds.length) return out;
  const ids = sql.join(
    campaignIds.map((id) => sql`(${id}::bigint)`),
    sql`, `,
  );
  const rows = rowsOf<MineRow & { id: string | number; paused: boolean }>(
    await db.execute(sql`
      select camp.id, coalesce(s.status = 'paused', false) as paused, f.*
      from (values ${ids}) v(id)
      join campaigns camp on camp.id = v.id
      left join annotator_standings s on s.campaign_id = camp.id and s.user_id = ${user.id}
      cross join lateral (select ${mine(user.id, sql.raw("camp.id"))} from ${leftWalk(user.id, sql.raw("camp.id"))}) f
      where camp.all_annotators or exists (select 1 from campaign_members m where m.campaign_id = camp.id and m.user_id = ${user.id})`),
  );
  for (const r of rows) {
    out.set(Number(r.id), {
      paused: r.paused,
      judgedToday: r.judged_today,
      judgedTotal: r.judged_total,
      left: r.paused ? null : leftOf(r),
    });
  }
  return out;
}
