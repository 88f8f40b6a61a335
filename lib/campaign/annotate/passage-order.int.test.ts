import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase, unique } from "@/test/databases";
import { nextTask } from "./assignment";
import type { Task } from "./judging.contract";
import { submitJudgment } from "./judgments";
import type { UserActor } from "@/lib/auth/actor";
import { judgeAll, proposalOf } from "@/test/ask";
import { getAsk } from "./ask";
import { proposePassage } from "./proposals";

/** Every passage an annotator is given, judged "not sufficient" one by one, grouped per question in the order served. */
async function serveAll(
  db: Parameters<typeof nextTask>[0],
  annotator: UserActor,
  campaignId: number,
): Promise<Map<string, { passageId: number; paragraph: number }[]>> {
  const byQuestion = new Map<string, { passageId: number; paragraph: number }[]>();
  for (let t: Task | null = await nextTask(db, annotator, { campaignId }); t; t = await nextTask(db, annotator, { campaignId })) {
    const { passageId } = await idsOfTask(db, t);
    const list = byQuestion.get(t.query.id) ?? [];
    list.push({ passageId, paragraph: t.passage.paragraphs[0]!.id });
    byQuestion.set(t.query.id, list);
    await submitJudgment(db, annotator, t.claim.handle, {
      verdict: "insufficient",
      span: null,
      unreadable: false,
      durationMs: 1500,
      idempotencyKey: unique("key"),
    });
  }
  return byQuestion;
}

describeEachDatabase("the order of a question's passages", ({ db }) => {
  it("is an order of each annotator's own, fixed by passage and annotator, with gold and proposals neither always first nor always last", async () => {
    // Six questions of four passages (the gold one is paragraph 1 of the question's page, the candidates 2–4), and a proposal each.
    const c = await makeCampaign(db(), { queries: 6, candidates: 3, settings: { goldAccuracyThreshold: 0 } }); // judging gold "not sufficient" pauses no one
    const [a, b, proposer] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    // The proposer finds nothing sufficient and proposes paragraph 5 of every question's page: a fifth passage each.
    await judgeAll(db(), proposer, c.campaignId);
    for (let ask = await getAsk(db(), proposer, c.campaignId); ask; ask = await getAsk(db(), proposer, c.campaignId)) {
      await proposePassage(db(), proposer, c.campaignId, proposalOf(c, c.queryIds.indexOf(ask.queryId), 5));
    }
    const seenA = await serveAll(db(), a, c.campaignId);
    const seenB = await serveAll(db(), b, c.campaignId);
    expect([...seenA.values()].map((l) => l.length)).toEqual([5, 5, 5, 5, 5, 5]);
    expect([...seenB.values()].map((l) => l.length)).toEqual([5, 5, 5, 5, 5, 5]);

    // The two annotators see the passages of some question in different orders.
    const orderOf = (seen: typeof seenA, q: string) =>
      seen
        .get(q)!
        .map((p) => p.paragraph)
        .join(",");
    expect(c.queryIds.some((q) => orderOf(seenA, q) !== orderOf(seenB, q))).toBe(true);

    // Gold (paragraph 1) and the proposals (paragraph 5) are not always first and not always last.
    for (const paragraph of [1, 5]) {
      const positions = [...seenA.values(), ...seenB.values()].map((list) => list.findIndex((p) => p.paragraph === paragraph));
      expect(positions.every((i) => i >= 0)).toBe(true);
      expect(positions.some((i) => i !== 0)).toBe(true);
      expect(positions.some((i) => i !== 4)).toBe(true);
    }

    // Fixed: the first passage of a question is the one closest to completion (fewest open slots: here
    // the proposal, judged by nobody yet, is never first), and after it the question's passages follow
    // md5(passage id : annotator id), whatever else happens.
    for (const [annotator, seen] of [
      [a, seenA],
      [b, seenB],
    ] as const) {
      for (const list of seen.values()) {
        const ids = list.slice(1).map((p) => p.passageId);
        const expected = rowsOf<{ id: number }>(
          await db().execute(
            sql`select id::float8 as id from passages where id = any(${`{${ids.join(",")}}`}::bigint[]) order by md5(id::text || ':' || ${annotator.id}::bigint::text)`,
          ),
        ).map((r) => Number(r.id));
        expect(ids).toEqual(expected);
      }
    }
  });
});
