import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db, type Tx } from "@/db/client";
import type { Campaign } from "@/db/schema";
import type { Actor, UserActor } from "@/lib/auth/actor";
import { AppError, invalidField } from "@/lib/errors";
import { requireActiveAnnotator } from "./annotator-access";
import type { Ask, PassageLocation } from "./ask.contract";
import type { TaskKind } from "@/lib/kilt/task-kind";

/** How far back `getAsk` looks: the caller's latest judgments in the campaign (the question just finished is among them). */
export const ASK_LOOKBACK = 50;

/** A question's KILT id as the proposal and explanation bodies name it. */
export const askQueryIdSchema = z.string().min(1, "must not be empty").max(1000, "must be at most 1000 characters");

interface AskRow {
  id: number;
  kilt_id: string;
  input: string;
  answers: string[];
  task_kind: TaskKind;
  judged: number;
  given: PassageLocation[];
}

/**
 * The questions of the caller's latest ASK_LOOKBACK judgments (judgments_user_idx) that they owe a
 * response for, most recent first: all their judgments on it insufficient, every passage of it either
 * given to them or finished without them (a passage others hold but have not finished may yet be
 * sufficient: no ask while one is), no live claim of theirs on it, its batch launched, and neither a
 * proposal nor an explanation of theirs for it. Bounded by the lookback whatever the campaign's
 * size. Internal: callers have checked `requireActiveAnnotator`.
 */
async function askRows(db: Db | Tx, userId: number, campaign: Campaign): Promise<AskRow[]> {
  if (!campaign.askWhenNoneSufficient) return [];
  return rowsOf<AskRow>(
    await db.execute(sql`
      with recent as materialized (
        select j.passage_id, j.created_at from judgments j
        where j.user_id = ${userId} and j.campaign_id = ${campaign.id}
        order by j.created_at desc limit ${ASK_LOOKBACK}
      ),
      asked as materialized (
        select p.query_id, max(r.created_at) as last from recent r join passages p on p.id = r.passage_id group by p.query_id
      )
      select q.id::float8 as id, q.kilt_id, q.input, to_json(q.answers) as answers, b.task_kind,
        (select count(*)::int from judgments j join passages jp on jp.id = j.passage_id
          where jp.query_id = q.id and j.user_id = ${userId}) as judged,
        (select coalesce(json_agg(json_build_object('wikipediaId', gp.wikipedia_id, 'startParagraphId', gp.start_paragraph_id,
            'endParagraphId', gp.end_paragraph_id) order by gp.wikipedia_id, gp.start_paragraph_id, gp.end_paragraph_id), '[]')
          from claims c join passages gp on gp.id = c.passage_id where gp.query_id = q.id and c.user_id = ${userId}) as given
      from asked a
      join queries q on q.id = a.query_id
      join batches b on b.id = q.batch_id and b.status = 'launched'
      where not exists (select 1 from judgments j join passages jp on jp.id = j.passage_id
          where jp.query_id = q.id and j.user_id = ${userId} and j.verdict = 'sufficient')
        and not exists (select 1 from passages lp where lp.query_id = q.id
          and not kps_is_finished(lp.is_decided, lp.judgment_count, ${campaign.judgmentsPerPassage})
          and not exists (select 1 from claims c where c.passage_id = lp.id and c.user_id = ${userId}))
        and not exists (select 1 from claims c join passages cp on cp.id = c.passage_id
          where cp.query_id = q.id and c.user_id = ${userId} and c.ended_at is null and c.expires_at > now())
        and not exists (select 1 from proposals pr where pr.query_id = q.id and pr.user_id = ${userId})
        and not exists (select 1 from explanations e where e.query_id = q.id and e.user_id = ${userId})
      order by a.last desc, q.id desc
      limit 1`),
  );
}

/**
 * What the judging page asks before the next question: the question whose passages the caller all
 * judged not sufficient, when the campaign asks for another passage or an explanation (null when
 * nothing is owed). Annotators of the campaign; crowd workers are never asked (null).
 */
export async function getAsk(db: Db, actor: Actor, campaignId: number): Promise<Ask | null> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, campaignId);
  if (user.role === "crowd") return null;
  const [row] = await askRows(db, user.id, campaign);
  if (!row) return null;
  return {
    queryId: row.kilt_id,
    input: row.input,
    kind: row.task_kind,
    ...(campaign.showAnswers ? { answers: row.answers } : {}),
    judged: row.judged,
    given: row.given,
  };
}

/** The question a proposal or explanation is for, as the caller may answer it: their own ask (else a 409 saying why). */
export interface AskedQuestion {
  id: number;
  kiltId: string;
  batchId: number;
}

/**
 * Inside the proposal's or explanation's transaction: locks the question (FOR NO KEY UPDATE, so a
 * caller's two responses to it run one after the other; imports and claims do not take it) and
 * checks it is what `getAsk` returns for the caller now. Refused with 409 otherwise.
 */
export async function requireAsked(tx: Tx, user: UserActor, campaign: Campaign, kiltId: string): Promise<AskedQuestion> {
  const [q] = rowsOf<{ id: number; batch_id: number }>(
    await tx.execute(sql`select id::float8 as id, batch_id::float8 as batch_id from queries
      where campaign_id = ${campaign.id} and kilt_id = ${kiltId} for no key update`),
  );
  if (!q)
    throw invalidField(
      "queryId",
      `no question ${JSON.stringify(kiltId.slice(0, 200))} in this campaign`,
      "no such question in this campaign",
    );
  const [asked] = await askRows(tx, user.id, campaign);
  if (asked?.id === q.id) return { id: q.id, kiltId, batchId: q.batch_id };
  const [done] = rowsOf<{ proposed: boolean; explained: boolean }>(
    await tx.execute(sql`select
      exists (select 1 from proposals where query_id = ${q.id} and user_id = ${user.id}) as proposed,
      exists (select 1 from explanations where query_id = ${q.id} and user_id = ${user.id}) as explained`),
  );
  if (done?.proposed) throw new AppError("conflict", "You already proposed a passage for this question.");
  if (done?.explained) throw new AppError("conflict", "You already explained why no passage answers this question.");
  if (!campaign.askWhenNoneSufficient) throw new AppError("conflict", "This campaign does not ask for other passages or explanations.");
  throw new AppError(
    "conflict",
    "This question is not asking you for a passage or an explanation: that comes once you have judged every passage of it given to you, none sufficient.",
  );
}
