import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { CampaignView } from "../campaigns";
import { endorsementRuleOf } from "../quality/aggregation";
import { PAGE_QUERIES, readProvenancePageAt } from "../report/kilt-provenance";
import { storedGoldsOf, takeGoldsWritten, writeQuestionGolds } from "./question-golds";
import type { GoldSettings } from "./score-entries";

// The leaderboard cache's golds at the other values of T (db/schema.ts, leaderboard_question_golds_at_t):
// each question's golds as they would be read with every other T from 1 to R, kept in step with the
// campaign's golds (leaderboard_question_golds) at the same own changes. A change of T then takes
// the golds kept for the new T (takeGoldsAtT) instead of reading every question's outcomes again, and
// the golds of the old T are kept in their turn. Under majority only: under Dawid–Skene every
// judgment may move every question, and T decides nothing. Internal.

/** The values of T whose golds are kept beside the campaign's: every T from 1 to R but its own; none under Dawid–Skene. */
export function otherTs(campaign: Pick<CampaignView, "judgmentsPerPassage" | "endorsementThreshold" | "aggregation">): number[] {
  if (campaign.aggregation !== "majority") return [];
  return Array.from({ length: campaign.judgmentsPerPassage }, (_, i) => i + 1).filter((t) => t !== campaign.endorsementThreshold);
}

/** R and T the campaign's golds are read with, as the golds row records them (null under Dawid–Skene: nothing kept at other Ts). */
export function goldSettingsOf(campaign: Pick<CampaignView, "judgmentsPerPassage" | "endorsementThreshold" | "aggregation">) {
  return campaign.aggregation === "majority" ? { r: campaign.judgmentsPerPassage, t: campaign.endorsementThreshold } : null;
}

/**
 * Brings the golds kept at the other Ts into step with the campaign's stored golds: a question whose
 * kept golds are missing at some other T, or at other own changes than its stored golds, is read
 * again at every other T (a page of questions per reading, all the Ts in one) and labelled with its
 * stored golds' own changes (read before them: a later change to the question makes the two differ
 * from its changes then, and it is read again). The questions looked at: those whose stored golds
 * were written on this handle since it was last called, or every one when the kept golds do not
 * number the stored ones times the other Ts (as after they were dropped).
 */
export async function syncGoldsAtT(db: Db, campaign: CampaignView): Promise<void> {
  const ts = otherTs(campaign);
  const ids = takeGoldsWritten(db);
  if (!ts.length) return;
  const [count] = rowsOf<{ stored: string | number; kept: string | number }>(
    await db.execute(sql`
      select (select count(*) from leaderboard_question_golds where campaign_id = ${campaign.id}) as stored,
             (select count(*) from leaderboard_question_golds_at_t where campaign_id = ${campaign.id} and t = any(${sql.param(ts)}::int[])) as kept`),
  );
  const all = Number(count!.kept) !== Number(count!.stored) * ts.length;
  if (!all && !ids.length) return;
  const only = all ? sql`` : sql`and g.query_id = any(${sql.param(ids)}::bigint[])`;
  const behind = rowsOf<{ query_id: string | number; changes: string | number }>(
    await db.execute(sql`
      select g.query_id, g.changes from leaderboard_question_golds g
      left join leaderboard_question_golds_at_t a
        on a.campaign_id = g.campaign_id and a.query_id = g.query_id and a.changes = g.changes and a.t = any(${sql.param(ts)}::int[])
      where g.campaign_id = ${campaign.id} ${only}
      group by g.query_id, g.changes having count(a.t) < ${ts.length}
      order by g.query_id`),
  );
  await readAtOtherTs(db, campaign, ts, new Map(behind.map((r) => [Number(r.query_id), Number(r.changes)])));
}

/** These questions (id → the own changes to label them with) read at each of `ts` and kept. */
async function readAtOtherTs(db: Db, campaign: CampaignView, ts: number[], changes: Map<number, number>): Promise<void> {
  const ids = [...changes.keys()];
  const endorsement = await endorsementRuleOf(db, campaign);
  for (let i = 0; i < ids.length; i += PAGE_QUERIES) {
    const page = ids.slice(i, i + PAGE_QUERIES);
    const where = sql`q.id = any(${sql.param(page)}::bigint[])`;
    const perT = await readProvenancePageAt(db, campaign, { location: "span", after: 0, where, limit: page.length, endorsement }, ts);
    for (const [j, t] of ts.entries()) {
      const rows = perT[j]!.map((q) => storedGoldsOf(q, changes.get(q.id)!));
      await writeQuestionGolds(db, campaign.id, rows, t);
    }
  }
}

/**
 * After a campaign-wide change (the caller checks), should T have changed (the golds row's T is not
 * the campaign's, R and majority as they were): the stored golds, read at the old T, are kept as
 * that T's; and when every stored question's golds at the new T are kept at its stored golds' own
 * changes, they become the stored golds. True when they did: the caller drops the entries and scores
 * from the stored golds (the questions changed since read again first). False leaves the stored golds
 * as they were, for every question to be read again; all kept golds are dropped under Dawid–Skene,
 * after a change of R, or when the row does not say what the stored golds were read with.
 */
export async function takeGoldsAtT(db: Db, campaign: CampaignView, row: { t: number | null; r: number | null }): Promise<boolean> {
  const now: GoldSettings | null = goldSettingsOf(campaign);
  if (!now || row.t === null || row.r !== now.r) {
    // Under Dawid–Skene, after a change of R, or not known: none kept is right.
    await db.execute(sql`delete from leaderboard_question_golds_at_t where campaign_id = ${campaign.id}`);
    return false;
  }
  if (row.t === now.t) return false;
  const [count] = rowsOf<{ stored: string | number; kept: string | number }>(
    await db.execute(sql`
      select (select count(*) from leaderboard_question_golds where campaign_id = ${campaign.id}) as stored,
             (select count(*) from leaderboard_question_golds g join leaderboard_question_golds_at_t a
                on a.campaign_id = g.campaign_id and a.t = ${now.t}::int and a.query_id = g.query_id and a.changes = g.changes
              where g.campaign_id = ${campaign.id}) as kept`),
  );
  const complete = Number(count!.stored) > 0 && Number(count!.stored) === Number(count!.kept);
  await db.execute(sql`delete from leaderboard_question_golds_at_t where campaign_id = ${campaign.id} and t = ${row.t}::int`);
  await db.execute(sql`
    insert into leaderboard_question_golds_at_t (campaign_id, t, query_id, changes, original_md5, status, entries)
    select campaign_id, ${row.t}::int, query_id, changes, original_md5, status, entries from leaderboard_question_golds
    where campaign_id = ${campaign.id}`);
  if (complete) {
    await db.execute(sql`
      update leaderboard_question_golds g set changes = a.changes, original_md5 = a.original_md5, status = a.status, entries = a.entries
      from leaderboard_question_golds_at_t a
      where g.campaign_id = ${campaign.id} and a.campaign_id = g.campaign_id and a.t = ${now.t}::int and a.query_id = g.query_id`);
  }
  await db.execute(sql`delete from leaderboard_question_golds_at_t where campaign_id = ${campaign.id} and t = ${now.t}::int`);
  return complete;
}
