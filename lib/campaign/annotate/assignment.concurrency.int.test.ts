import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type DatabaseHandle } from "@/db/client";
import { claims, passages } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { openTestDatabase, testDatabaseKinds, unique } from "@/test/databases";
import { AppError } from "@/lib/errors";
import { nextTask } from "./assignment";
import { getAsk } from "./ask";
import { explainQuestion } from "./explanations";
import { submitJudgment } from "./judgments";
import { proposePassage } from "./proposals";

/**
 * Many annotators drain a batch at once, some abandoning claims at random (their lease is then
 * made to run out), and those asked about a question none of whose passages they found sufficient
 * propose another passage (new, or merged into one at the same location) or explain: every passage,
 * the proposed ones included, must end with exactly R judgments by R distinct annotators, none by
 * its proposer, and no claim left live. Evidence sets are mixed in with single passages:
 * a set is one slot unit, judged sufficient with a highlight per member or insufficient.
 */
for (const kind of testDatabaseKinds()) {
  const size = kind === "postgres" ? { annotators: 50, queries: 100, candidates: 2 } : { annotators: 8, queries: 20, candidates: 2 };
  describe(`concurrent annotators drain a batch [${kind}]`, () => {
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await openTestDatabase(kind);
    });
    afterAll(() => handle.close());

    it(
      `${size.annotators} annotators, ${size.queries * (size.candidates + 1)} passages and ${Math.ceil(size.queries / 2)} sets, R = 3, abandoned claims, proposals`,
      { timeout: 240_000 },
      async () => {
        const db = handle.db;
        // Unfinished, not merely open: a slot held by an abandoned claim that nobody has reaped yet is not open, and
        // the rounds must go on until someone's request reaps it (a proposal late in the run made this end early).
        const openPassages = async (campaignId: number) =>
          rowsOf<{ n: number }>(
            await db.execute(sql`select count(*)::int as n from passages where campaign_id = ${campaignId} and judgment_count < 3`),
          )[0]!.n;
        // Every verdict is "insufficient": the gold rule is set out of reach, so nobody is paused.
        const c = await makeCampaign(db, { queries: size.queries, candidates: size.candidates, settings: { goldMinJudgments: 10_000 } });
        // A set for every other question: paragraph 1 of its page with paragraph 2 of the next question's page.
        const pairs = c.queryIds.flatMap((kilt_id, i) =>
          i % 2 ? [] : [{ kilt_id, first: c.pageIds[i]!, second: c.pageIds[(i + 1) % c.pageIds.length]! }],
        );
        await db.execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id,
            origins, set_members, set_key, open_slots)
          select q.id, q.campaign_id, q.batch_id, m.first, 1, 1, '[{"kind":"retriever","retriever":"pairs","rank":1}]'::jsonb,
            jsonb_build_array(jsonb_build_object('wikipediaId', m.first, 'startParagraphId', 1, 'endParagraphId', 1),
              jsonb_build_object('wikipediaId', m.second, 'startParagraphId', 2, 'endParagraphId', 2)), m.second || ':2-2', 3
          from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as m(kilt_id text, first text, second text)
          join queries q on q.kilt_id = m.kilt_id and q.batch_id = ${c.batchId}`);
        const annotators: UserActor[] = [];
        for (let i = 0; i < size.annotators; i++) annotators.push(await makeAnnotator(db));
        let abandoned = 0;
        let random = 12345;
        const rand = () => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

        const work = async (a: UserActor) => {
          let idle = 0;
          while (idle < 3) {
            const task = await nextTask(db, a, { campaignId: c.campaignId });
            if (!task) {
              idle++;
              await new Promise((r) => setTimeout(r, 20));
              continue;
            }
            idle = 0;
            if (rand() < 0.1) {
              // Walk away: the lease runs out, and the slot must reopen for someone else.
              await db
                .update(claims)
                .set({ expiresAt: sql`now() - interval '1 second'` })
                .where(eq(claims.handle, task.claim.handle));
              abandoned++;
              continue;
            }
            // A set is judged together: sufficient with the first word of each member highlighted, or not.
            const spans =
              task.members && rand() < 0.5
                ? task.members.map((m) => {
                    const p = m.paragraphs[0]!;
                    const word = p.text.split(" ")[0]!;
                    return {
                      startParagraphId: p.id,
                      startCharacter: 0,
                      endParagraphId: p.id,
                      endCharacter: Array.from(word).length,
                      text: word,
                    };
                  })
                : null;
            await submitJudgment(db, a, task.claim.handle, {
              verdict: spans ? "sufficient" : "insufficient",
              spans,
              span: null,
              unreadable: false,
              durationMs: Math.floor(rand() * 5000),
              idempotencyKey: unique("k"),
            });
            await respond(a);
          }
        };
        // Asked about a question (every verdict is "insufficient"): propose a passage of its page, or explain.
        let proposed = 0;
        const respond = async (a: UserActor) => {
          const ask = await getAsk(db, a, c.campaignId);
          if (!ask) return;
          const page = c.pageIds[c.queryIds.indexOf(ask.queryId)]!;
          const last = size.candidates + 2; // the factory's pages: paragraphs 1 … candidates + 2, the last one no passage's
          const start = [last, last - 1, 1][Math.floor(rand() * 3)]!;
          const span = { startParagraphId: last, startCharacter: 0, endParagraphId: last, endCharacter: 9, text: "Paragraph" };
          try {
            if (rand() < 0.7) {
              await proposePassage(db, a, c.campaignId, {
                queryId: ask.queryId,
                wikipediaId: page,
                startParagraphId: start,
                endParagraphId: last,
                span,
              });
              proposed++;
            } else await explainQuestion(db, a, c.campaignId, { queryId: ask.queryId, reason: "not_in_wikipedia", text: "" });
          } catch (error) {
            // Judged that location already, or a passage proposed meanwhile is left for them: not asked any more.
            if (!(error instanceof AppError && error.status === 409)) throw error;
          }
        };
        // Rounds until nobody finds work: a slot reopened by a late abandonment, or a late proposal, is picked up.
        for (let round = 0; round < 5; round++) await Promise.all(annotators.map(work));
        for (let round = 0; round < 20 && (await openPassages(c.campaignId)) > 0; round++) await Promise.all(annotators.map(work));

        const ps = await db.select().from(passages).where(eq(passages.campaignId, c.campaignId));
        expect(ps.length).toBeGreaterThan(size.queries * (size.candidates + 1));
        expect(proposed).toBeGreaterThan(0);
        // A proposer's highlight is the first judgment of the passage their proposal made (T = 2), always sufficient;
        // a proposal merged into a passage that was there already judges nothing. Never judged by them twice (below: 3 distinct judges).
        const byProposer = rowsOf<{ made: number; selfJudged: number; wrong: number }>(
          await db.execute(sql`select count(*) filter (where p.origins->0->>'annotator' = u.pseudonym)::int as made,
              count(*) filter (where p.origins->0->>'annotator' = u.pseudonym and j.verdict = 'sufficient')::int as "selfJudged",
              count(*) filter (where j.id is not null and (p.origins->0->>'annotator' is distinct from u.pseudonym or j.verdict <> 'sufficient'))::int as wrong
            from proposals pr join passages p on p.id = pr.passage_id join users u on u.id = pr.user_id
            left join judgments j on j.passage_id = pr.passage_id and j.user_id = pr.user_id
            where pr.campaign_id = ${c.campaignId}`),
        )[0]!;
        expect(byProposer.made).toBeGreaterThan(0);
        expect(byProposer).toEqual({ made: byProposer.made, selfJudged: byProposer.made, wrong: 0 });
        const counts = rowsOf<{ passage_id: number; n: number; distinct_users: number }>(
          await db.execute(sql`
          select p.id as passage_id, count(j.id)::int as n, count(distinct j.user_id)::int as distinct_users
          from passages p left join judgments j on j.passage_id = p.id
          where p.campaign_id = ${c.campaignId} group by p.id`),
        );
        expect(counts.filter((r) => r.n !== 3 || r.distinct_users !== 3)).toEqual([]);
        expect(ps.every((p) => p.judgmentCount === 3 && p.claimCount === 0 && p.openSlots === 0)).toBe(true);
        const liveClaims = rowsOf<{ n: number }>(
          await db.execute(
            sql`select count(*)::int as n from claims where campaign_id = ${c.campaignId} and ended_at is null and expires_at > now()`,
          ),
        );
        expect(liveClaims[0]!.n).toBe(0);
        expect(abandoned).toBeGreaterThan(0);
        // The sets took their R judgments like every passage; each sufficient one holds a highlight per member.
        const sets = rowsOf<{ sets: number; judged: number; sufficient: number; bad: number }>(
          await db.execute(sql`select count(distinct p.id)::int as sets, count(j.id)::int as judged,
              count(j.id) filter (where j.verdict = 'sufficient')::int as sufficient,
              count(j.id) filter (where (j.verdict = 'sufficient') <> (jsonb_array_length(j.member_spans) = 2) or
                (j.verdict = 'insufficient' and j.member_spans is not null))::int as bad
            from passages p join judgments j on j.passage_id = p.id where p.campaign_id = ${c.campaignId} and p.set_members is not null`),
        )[0]!;
        expect(sets.sets).toBe(Math.ceil(size.queries / 2));
        expect(sets.judged).toBe(3 * sets.sets);
        expect(sets.sufficient).toBeGreaterThan(0);
        expect(sets.bad).toBe(0);
      },
    );
  });
}
