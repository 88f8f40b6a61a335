// Internal steps of assignment: no authorization of their own. Only domain functions that have
// checked the caller (nextTask, renewClaim, submitJudgment) call them; app/, components/ and bin/ never do.
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { claims, judgments, pages, passages, queries, type Campaign } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sectionOf } from "@/lib/kilt/codepoints";

/** What an annotator's browser receives for one passage: never gold flags, counts or others' work. */
export interface Task {
  claim: { id: number; expiresAt: Date };
  query: { id: string; input: string; answers?: string[] };
  passage: {
    id: number;
    wikipediaId: string;
    title: string;
    paragraphs: { id: number; text: string; section: string }[];
  };
  progress: { judgedToday: number; passageOfQuestion: number; passagesInQuestion: number };
}

/** When this process last reaped each campaign: reaping on every request would cost a statement each. */
const lastReap = new Map<number, number>();
const REAP_EVERY_MS = 2000;

/**
 * Frees the slots of expired claims in a campaign. Each expired claim is ended exactly once, even
 * when several requests reap at the same time (the UPDATE … RETURNING takes the row lock).
 */
export async function reapExpiredClaims(tx: Db | Tx, campaignId: number): Promise<number> {
  lastReap.set(campaignId, Date.now());
  const ended = await tx
    .update(claims)
    .set({ endedAt: sql`now()` })
    .where(and(eq(claims.campaignId, campaignId), isNull(claims.endedAt), lt(claims.expiresAt, sql`now()`)))
    .returning({ passageId: claims.passageId });
  if (!ended.length) return 0;
  const perPassage = new Map<number, number>();
  for (const e of ended) perPassage.set(e.passageId, (perPassage.get(e.passageId) ?? 0) + 1);
  for (const [passageId, n] of perPassage) {
    await tx
      .update(passages)
      .set({
        claimCount: sql`${passages.claimCount} - ${n}`,
        // A passage decided early stays closed.
        openSlots: sql`case when ${passages.isDecided} then 0 else ${passages.openSlots} + ${n} end`,
      })
      .where(eq(passages.id, passageId));
  }
  return ended.length;
}

/** Reaps unless this process reaped the campaign in the last 2 s; says whether it did. */
export async function reapExpiredClaimsWhenDue(tx: Db | Tx, campaignId: number): Promise<boolean> {
  if (Date.now() - (lastReap.get(campaignId) ?? 0) < REAP_EVERY_MS) return false;
  await reapExpiredClaims(tx, campaignId);
  return true;
}

/** The task view of one claim. */
export async function taskOfClaim(db: Db | Tx, user: UserActor, campaign: Campaign, claimId: number): Promise<Task> {
  const [row] = await db
    .select({
      claimId: claims.id,
      expiresAt: claims.expiresAt,
      passageId: passages.id,
      queryId: queries.id,
      start: passages.startParagraphId,
      end: passages.endParagraphId,
      kiltId: queries.kiltId,
      input: queries.input,
      answers: queries.answers,
      wikipediaId: pages.wikipediaId,
      title: pages.title,
      // Only the passage's paragraphs and the section header above them, not the whole page.
      paragraphs: sql<string[]>`array_to_json(${pages.paragraphs}[${passages.startParagraphId} + 1 : ${passages.endParagraphId} + 1])`,
      headerAbove: sql<string | null>`(select e from unnest(${pages.paragraphs}[2 : ${passages.startParagraphId}]) with ordinality as h(e, i)
        where e like 'Section::::%' order by i desc limit 1)`,
    })
    .from(claims)
    .innerJoin(passages, eq(passages.id, claims.passageId))
    .innerJoin(queries, eq(queries.id, passages.queryId))
    .innerJoin(pages, eq(pages.wikipediaId, passages.wikipediaId))
    .where(and(eq(claims.id, claimId), eq(claims.userId, user.id)));
  if (!row) throw new AppError("not_found", `No claim with id ${claimId} for you.`);

  const [progress] = rowsOf<{ today: number; done: number; total: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from ${judgments} j where j.user_id = ${user.id} and j.campaign_id = ${campaign.id} and j.created_at >= date_trunc('day', now())) as today,
        (select count(*)::int from ${judgments} j join ${passages} p on p.id = j.passage_id where j.user_id = ${user.id} and p.query_id = ${row.queryId}) as done,
        (select count(*)::int from ${passages} p where p.query_id = ${row.queryId}) as total`),
  );
  // sectionOf over ["", header above, …passage]: paragraph `id` sits at index id − start + 2.
  const local = ["", row.headerAbove ?? "", ...row.paragraphs];
  const paragraphs = row.paragraphs.map((text, i) => ({ id: row.start + i, text, section: sectionOf(local, i + 2) }));
  return {
    claim: { id: row.claimId, expiresAt: row.expiresAt },
    query: { id: row.kiltId, input: row.input, ...(campaign.showAnswers ? { answers: row.answers } : {}) },
    passage: { id: row.passageId, wikipediaId: row.wikipediaId, title: row.title, paragraphs },
    progress: { judgedToday: progress?.today ?? 0, passageOfQuestion: (progress?.done ?? 0) + 1, passagesInQuestion: progress?.total ?? 1 },
  };
}
