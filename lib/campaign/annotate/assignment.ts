import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { annotatorStandings, batches, campaignMembers, campaigns, claims, judgments, pages, passages, queries, type Campaign } from "@/db/schema";
import { requireUser, type Actor, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sectionOf } from "@/lib/kilt/codepoints";
import { requireActiveAnnotator } from "./annotator-access";

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

/**
 * The next task of an annotator in a campaign: (1) their live claim, so a reload resumes; (2) else
 * the next open passage of the question they are on, in an order fixed per annotator; (3) else a
 * passage of another question, closest to completion first. Claiming locks the passage row with
 * FOR UPDATE SKIP LOCKED, so concurrent annotators never wait on each other and a passage never gets
 * more than R judgments and claims. `after`: a claim the client already shows (prefetching the next).
 */
export async function nextTask(db: Db, actor: Actor, input: { campaignId: number; after?: number }): Promise<Task | null> {
  const { user, campaign } = await requireActiveAnnotator(db, actor, input.campaignId);
  const claimId = await db.transaction(async (tx) => {
    // Expired claims are reaped at most every 2 s per campaign and process (and whenever nothing
    // else is open): a claim that has just expired keeps its slot a little longer, never doubles it.
    const reaped = Date.now() - (lastReap.get(campaign.id) ?? 0) >= REAP_EVERY_MS;
    if (reaped) await reapExpiredClaims(tx, campaign.id);
    const [live] = await tx
      .select({ id: claims.id })
      .from(claims)
      .where(
        and(
          eq(claims.userId, user.id),
          eq(claims.campaignId, campaign.id),
          isNull(claims.endedAt),
          sql`${claims.expiresAt} > now()`,
          input.after ? sql`${claims.id} <> ${input.after}` : undefined,
        ),
      )
      .orderBy(claims.id)
      .limit(1);
    if (live) return live.id;

    const launched = (await tx.select({ id: batches.id }).from(batches).where(and(eq(batches.campaignId, campaign.id), eq(batches.status, "launched")))).map(
      (b) => b.id,
    );
    if (!launched.length) return null;
    const find = async () =>
      (await openPassageInCurrentQuery(tx, user.id, campaign.id, launched)) ?? (await openPassageAnywhere(tx, user.id, campaign.id, launched));
    let passageId = await find();
    if (passageId === null && !reaped) {
      // Nothing open: slots held by claims that expired since the last reaping may be free.
      if (await reapExpiredClaims(tx, campaign.id)) passageId = await find();
    }
    if (passageId === null) return null;

    const taken = await tx
      .update(passages)
      .set({ claimCount: sql`${passages.claimCount} + 1`, openSlots: sql`${passages.openSlots} - 1` })
      .where(and(eq(passages.id, passageId), sql`${passages.openSlots} > 0`))
      .returning({ id: passages.id });
    if (!taken.length) throw new Error(`passage ${passageId} was locked with a free slot but has none`);
    const [claim] = await tx
      .insert(claims)
      .values({ passageId, userId: user.id, campaignId: campaign.id, expiresAt: sql`now() + make_interval(secs => ${campaign.leaseSeconds})` })
      .returning({ id: claims.id });
    return claim!.id;
  });
  return claimId === null ? null : taskOfClaim(db, user, campaign, claimId);
}

async function openPassageInCurrentQuery(tx: Tx, userId: number, campaignId: number, launched: number[]): Promise<number | null> {
  const [current] = await tx
    .select({ queryId: passages.queryId })
    .from(claims)
    .innerJoin(passages, eq(passages.id, claims.passageId))
    .where(and(eq(claims.userId, userId), eq(claims.campaignId, campaignId)))
    .orderBy(sql`${claims.id} desc`)
    .limit(1);
  if (!current) return null;
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select p.id from ${passages} p
      where p.query_id = ${current.queryId} and p.open_slots > 0 and p.batch_id = any(${sql.param(launched)}::bigint[])
        and not exists (select 1 from ${claims} c where c.passage_id = p.id and c.user_id = ${userId})
      order by md5(p.id::text || ':' || ${userId}::text)
      limit 1
      for no key update of p skip locked`),
  );
  return rows[0] ? Number(rows[0].id) : null;
}

async function openPassageAnywhere(tx: Tx, userId: number, campaignId: number, launched: number[]): Promise<number | null> {
  // Walks the partial index of open passages (campaign, open_slots, query) from the fullest, and
  // stops at the first one this annotator has not touched and nobody else is claiming right now.
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select p.id from ${passages} p
      where p.campaign_id = ${campaignId} and p.open_slots > 0 and p.batch_id = any(${sql.param(launched)}::bigint[])
        and not exists (select 1 from ${claims} c where c.passage_id = p.id and c.user_id = ${userId})
      order by p.open_slots, p.query_id, p.id
      limit 1
      for no key update of p skip locked`),
  );
  return rows[0] ? Number(rows[0].id) : null;
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

/** Extends a live claim by the campaign's lease. An expired claim cannot be renewed (410). */
export async function renewClaim(db: Db, actor: Actor, claimId: number): Promise<{ id: number; expiresAt: Date }> {
  const user = requireUser(actor);
  const [claim] = await db.select().from(claims).where(eq(claims.id, claimId));
  if (!claim) throw new AppError("not_found", `No claim with id ${claimId}.`);
  if (claim.userId !== user.id) throw new AppError("forbidden", "This claim belongs to another annotator.");
  await requireActiveAnnotator(db, actor, claim.campaignId);
  const renewed = await db
    .update(claims)
    .set({ expiresAt: sql`now() + make_interval(secs => (select ${campaigns.leaseSeconds} from ${campaigns} where ${campaigns.id} = ${claims.campaignId}))` })
    .where(and(eq(claims.id, claimId), isNull(claims.endedAt), sql`${claims.expiresAt} > now()`))
    .returning({ id: claims.id, expiresAt: claims.expiresAt });
  if (!renewed[0]) throw new AppError("gone", "This claim has expired or ended; ask for the next passage.");
  return renewed[0];
}
