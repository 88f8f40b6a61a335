import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase, unique } from "@/test/databases";
import { nextTask, type Task } from "./assignment";
import { submitJudgment } from "./judgments";
import type { UserActor } from "@/lib/auth/actor";

/** Every passage an annotator is given, judged "not sufficient" one by one, grouped per question in the order served. */
async function serveAll(db: Parameters<typeof nextTask>[0], annotator: UserActor, campaignId: number): Promise<Map<string, { passageId: number; paragraph: number }[]>> {
  const byQuestion = new Map<string, { passageId: number; paragraph: number }[]>();
  for (let t: Task | null = await nextTask(db, annotator, { campaignId }); t; t = await nextTask(db, annotator, { campaignId })) {
    const { passageId } = await idsOfTask(db, t);
    const list = byQuestion.get(t.query.id) ?? [];
    list.push({ passageId, paragraph: t.passage.paragraphs[0]!.id });
    byQuestion.set(t.query.id, list);
    await submitJudgment(db, annotator, t.claim.handle, { verdict: "insufficient", span: null, unreadable: false, durationMs: 1500, idempotencyKey: unique("key") });
  }
  return byQuestion;
}

describeEachDatabase("the order of a question's passages", ({ db }) => {
  it("is an order of each annotator's own, fixed by passage and annotator, with gold neither always first nor always last", async () => {
    // Six questions of four passages: the gold one is paragraph 1 of the question's page, the candidates 2–4.
    const c = await makeCampaign(db(), { queries: 6, candidates: 3, settings: { goldAccuracyThreshold: 0 } }); // judging gold "not sufficient" pauses no one
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const seenA = await serveAll(db(), a, c.campaignId);
    const seenB = await serveAll(db(), b, c.campaignId);
    expect([...seenA.values()].map((l) => l.length)).toEqual([4, 4, 4, 4, 4, 4]);
    expect([...seenB.values()].map((l) => l.length)).toEqual([4, 4, 4, 4, 4, 4]);

    // The two annotators see the passages of some question in different orders.
    const orderOf = (seen: typeof seenA, q: string) => seen.get(q)!.map((p) => p.paragraph).join(",");
    expect(c.queryIds.some((q) => orderOf(seenA, q) !== orderOf(seenB, q))).toBe(true);

    // Gold is not always first and not always last.
    const goldPositions = [...seenA.values(), ...seenB.values()].map((list) => list.findIndex((p) => p.paragraph === 1));
    expect(goldPositions.every((i) => i >= 0)).toBe(true);
    expect(goldPositions.some((i) => i !== 0)).toBe(true);
    expect(goldPositions.some((i) => i !== 3)).toBe(true);

    // Fixed: within a question, the order is md5(passage id : annotator id), whatever else happens.
    for (const [annotator, seen] of [[a, seenA], [b, seenB]] as const) {
      for (const list of seen.values()) {
        const ids = list.map((p) => p.passageId);
        const expected = rowsOf<{ id: number }>(
          await db().execute(sql`select id::float8 as id from passages where id = any(${`{${ids.join(",")}}`}::bigint[]) order by md5(id::text || ':' || ${annotator.id}::bigint::text)`),
        ).map((r) => Number(r.id));
        expect(ids).toEqual(expected);
      }
    }
  });
});
