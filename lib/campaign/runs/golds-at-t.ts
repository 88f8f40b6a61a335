import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { CampaignView } from "../campaigns";
import { endorsementRuleOf } from "../quality/aggregation";
import { PAGE_QUERIES, readProvenancePageAt, type QuestionProvenance } from "../report/kilt-provenance";
import { storedGoldsOf, takeGoldsWritten, writeQuestionGolds } from "./question-golds";
import type { GoldSettings } from "./score-entries";

// The leaderboard cache's golds at the other values of T (db/schema.ts, leaderboard_question_golds):
// beside the golds the figures hold (those at the golds row's T), each question's golds as they
// would be read with every other T from 1 to R, kept in step with them at the same own changes. A
// change of T then takes the golds kept for the new T (retarget: the golds row's T changes, no row
// moves) instead of reading every question's outcomes again, and those of the old T stay kept.
// Under majority only: under Dawid–Skene every judgment may move every question. Internal.

type Settings = Pick<CampaignView, "judgmentsPerPassage" | "endorsementThreshold" | "aggregation">;

/** The values of T whose golds are kept beside the campaign's: every T from 1 to R but its own; none under Dawid–Skene. */
export function otherTs(campaign: Settings): number[] {
  if (campaign.aggregation !== "majority") return [];
  return Array.from({ length: campaign.judgmentsPerPassage }, (_, i) => i + 1).filter((t) => t !== campaign.endorsementThreshold);
}

/** What the golds row records: the T the figures' golds are read with, and R when golds at the other Ts are kept (majority). */
export function goldSettingsOf(campaign: Settings): GoldSettings {
  return { t: campaign.endorsementThreshold, r: campaign.aggregation === "majority" ? campaign.judgmentsPerPassage : null };
}

/**
 * At the start of a catch-up whose golds row was read with `row`'s T and R: the stored golds
 * brought to the campaign's T. Kept golds are valid only under majority at the same R (else all but
 * those at the row's T are dropped). After a change of T: when every question stored at the row's T
 * has golds kept at the new T at the same own changes, they are taken as they are ("taken": the
 * caller scores from them and records the new T); otherwise the golds at the new T start as copies of
 * those at the old T ("copied": the caller reads every question again and moves those that differ),
 * and those of the old T stay kept when valid. "same": T did not change.
 */
export async function retarget(db: Db, campaign: CampaignView, row: { t: number; r: number | null }): Promise<"same" | "taken" | "copied"> {
  const now = goldSettingsOf(campaign);
  const keptValid = now.r !== null && row.r === now.r;
  if (!keptValid) await db.execute(sql`delete from leaderboard_question_golds where campaign_id = ${campaign.id} and t <> ${row.t}::int`);
  if (row.t === now.t) return "same";
  if (keptValid) {
    const [count] = rowsOf<{ stored: string | number; kept: string | number }>(
      await db.execute(sql`
        select count(*) as stored, count(k.query_id) as kept from leaderboard_question_golds g
        left join leaderboard_question_golds k
          on k.campaign_id = g.campaign_id and k.t = ${now.t}::int and k.query_id = g.query_id and k.changes = g.changes
        where g.campaign_id = ${campaign.id} and g.t = ${row.t}::int`),
    );
    if (Number(count!.stored) > 0 && Number(count!.stored) === Number(count!.kept)) return "taken";
  }
  await db.execute(sql`delete from leaderboard_question_golds where campaign_id = ${campaign.id} and t = ${now.t}::int`);
  await db.execute(sql`
    insert into leaderboard_question_golds (campaign_id, t, query_id, changes, original_md5, status, entries)
    select campaign_id, ${now.t}::int, query_id, changes, original_md5, status, entries from leaderboard_question_golds
    where campaign_id = ${campaign.id} and t = ${row.t}::int`);
  if (!keptValid) await db.execute(sql`delete from leaderboard_question_golds where campaign_id = ${campaign.id} and t = ${row.t}::int`);
  return "copied";
}

/**
 * Brings the golds kept at the other Ts into step with the figures' (those at the campaign's T,
 * which a catch-up has just brought up to date): a question whose kept golds are missing at some
 * other T, or at other own changes than its stored golds, is read again at every other T (a page of
 * questions per reading, all the Ts in one) and labelled with its stored golds' own changes (read
 * before them: a later change to the question makes the two differ from its changes then, and it is
 * read again). The questions looked at: those whose stored golds were written on this handle since
 * it was last called, or every one when the kept golds do not number the stored ones times the other
 * Ts (none kept yet, or some dropped).
 */
export async function syncGoldsAtT(db: Db, campaign: CampaignView): Promise<void> {
  const ts = otherTs(campaign);
  const ids = takeGoldsWritten(db);
  if (!ts.length) return;
  const [count] = rowsOf<{ stored: string | number; kept: string | number }>(
    await db.execute(sql`
      select count(*) filter (where t = ${campaign.endorsementThreshold}::int) as stored,
             count(*) filter (where t = any(${sql.param(ts)}::int[])) as kept
      from leaderboard_question_golds where campaign_id = ${campaign.id}`),
  );
  const all = Number(count!.kept) !== Number(count!.stored) * ts.length;
  if (!all && !ids.length) return;
  const only = all ? sql`` : sql`and g.query_id = any(${sql.param(ids)}::bigint[])`;
  const behind = rowsOf<{ query_id: string | number; changes: string | number }>(
    await db.execute(sql`
      select g.query_id, g.changes from leaderboard_question_golds g
      left join leaderboard_question_golds k
        on k.campaign_id = g.campaign_id and k.query_id = g.query_id and k.changes = g.changes and k.t = any(${sql.param(ts)}::int[])
      where g.campaign_id = ${campaign.id} and g.t = ${campaign.endorsementThreshold}::int ${only}
      group by g.query_id, g.changes having count(k.t) < ${ts.length}
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
    await keepAtOtherTs(
      db,
      campaign.id,
      ts,
      perT[0]!.map((q, k) => ({ atOtherTs: perT.map((list) => list[k]!), changes: changes.get(q.id)! })),
    );
  }
}

/**
 * Keeps questions' golds as read at the other Ts (`ts`; each question's readings in their order),
 * labelled with the own changes read before them: what a walk that read them at every T in one
 * reading (scored-pages.ts) hands over, so that syncGoldsAtT finds them in step.
 */
export async function keepAtOtherTs(
  db: Db,
  campaignId: number,
  ts: readonly number[],
  questions: { atOtherTs: QuestionProvenance[]; changes: number }[],
): Promise<void> {
  for (const [j, t] of ts.entries()) {
    const rows = questions.map((q) => storedGoldsOf(q.atOtherTs[j]!, q.changes));
    await writeQuestionGolds(db, { campaignId, t }, rows, true);
  }
}
