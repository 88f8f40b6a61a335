// The crowd side of the periodic reaping (app/_server/start-up.ts): a session nobody asks about any
// more (the worker closed the tab) still ends when its time runs out or its entry is stopped, with
// its outcome and code, and gives back its claims — as a worker's own next request would end it.
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { endLiveClaimsOf } from "@/lib/campaign/claims.internal";

/** Sessions ended per round: a backlog is worked off over the next rounds, in short statements. */
const ROUND = 500;

/**
 * Ends the crowd sessions in progress past their deadline (`timed_out`) or of a stopped entry
 * (`stopped`), and frees their claims; answers how many it ended. Probes the partial index
 * crowd_sessions_in_progress_idx (campaign, deadline; sessions in progress only) once per entry. Rows
 * another reaper or the worker's own request holds are skipped (SKIP LOCKED; `stage <> 'ended'`
 * again under the lock), so each session ends once, whichever gets there first.
 */
export async function endExpiredCrowdSessions(db: Db): Promise<number> {
  const ended = rowsOf<{ campaign_id: number; user_id: number }>(
    await db.execute(sql`
      with due as materialized (
        select d.id from crowd_entries e
        cross join lateral (
          -- Both columns of the index are conditions: a stopped entry's sessions are all due.
          select s.id from crowd_sessions s
          where s.campaign_id = e.campaign_id and s.stage <> 'ended'
            and s.deadline_at <= case when e.stopped then 'infinity'::timestamptz else now() end
          limit ${ROUND}
          for update of s skip locked
        ) d
        limit ${ROUND}
      )
      update crowd_sessions s
      set stage = 'ended', ended_at = now(),
        outcome = case when s.deadline_at <= now() then 'timed_out' else 'stopped' end,
        code = e.codes ->> (case when s.deadline_at <= now() then 'timed_out' else 'stopped' end)
      from due, crowd_entries e
      where s.id = due.id and e.campaign_id = s.campaign_id and s.stage <> 'ended'
      returning s.campaign_id::float8 as campaign_id, s.user_id::float8 as user_id`),
  );
  // A transaction per worker, as a session's own end frees its claims: short, and in the order every writer of passages takes them.
  for (const e of ended) await db.transaction((tx) => endLiveClaimsOf(tx, e.campaign_id, e.user_id));
  return ended.length;
}
