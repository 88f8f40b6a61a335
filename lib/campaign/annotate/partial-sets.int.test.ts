// Sets built from partial evidence: in a batch that collects "part of the evidence", two
// single passages of one question that T annotators marked partial become a set of the two, which is
// then judged and endorsed like any set. A paused annotator's partial verdicts do not count, and a
// batch that does not collect partial evidence never builds one.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import type { UserActor } from "@/lib/auth/actor";
import { nextTask } from "./assignment";
import type { Task, TaskPassage } from "./judging.contract";
import { judgmentInputSchema, pauseByGoldRule, submitJudgment } from "./judgments";
import { buildPartialSets, PARTIAL_SETS_PER_QUESTION } from "./partial-sets";
import { reviseJudgment } from "./revise-judgment";

function spanIn(p: TaskPassage) {
  const para = p.paragraphs[0]!;
  const text = para.text.split(" ").slice(0, 2).join(" ");
  return { startParagraphId: para.id, startCharacter: 0, endParagraphId: para.id, endCharacter: Array.from(text).length, text };
}

const body = (over: Record<string, unknown>) =>
  judgmentInputSchema.parse({ span: null, unreadable: false, durationMs: 900, idempotencyKey: unique("key"), ...over });

describeEachDatabase("sets built from partial evidence", ({ db }) => {
  /** One question with its gold passage (paragraph 1) and two candidates (paragraphs 2 and 3) on one page; R 3, T 2. */
  async function partialCampaign(partialEvidence: boolean) {
    const c = await makeCampaign(db(), {
      queries: 1,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldMinJudgments: 10_000 },
    });
    if (partialEvidence) await db().execute(sql`update batches set partial_evidence = true where id = ${c.batchId}`);
    return c;
  }

  /** Every task the annotator is given, judged by `answer` until none is left; the tasks. */
  async function judgeAll(campaignId: number, who: UserActor, answer: (t: Task) => Record<string, unknown>) {
    const seen: Task[] = [];
    for (let t = await nextTask(db(), who, { campaignId }); t; t = await nextTask(db(), who, { campaignId })) {
      seen.push(t);
      await submitJudgment(db(), who, t.claim.handle, body(answer(t)));
      if (seen.length > 20) throw new Error("too many tasks");
    }
    return seen;
  }

  const setsOf = async (batchId: number) =>
    rowsOf<{ id: number; set_members: unknown; set_key: string; origins: unknown; open_slots: number; sufficient_count: number }>(
      await db().execute(sql`select id::float8 as id, set_members, set_key, origins, open_slots, sufficient_count
        from passages where batch_id = ${batchId} and set_members is not null order by id`),
    );

  it("makes a set of two passages that T annotators marked partial, and the set is endorsed when judged sufficient together", async () => {
    const c = await partialCampaign(true);
    const [a, b, x, y] = await makeAnnotators(db(), 4);
    const partial = (t: Task) => (t.members ? { verdict: "insufficient" } : { verdict: "partial", span: spanIn(t.passage) });
    const [before] = rowsOf<{ passage_count: number }>(await db().execute(sql`select passage_count from batches where id = ${c.batchId}`));
    // One annotator's partial verdicts are not yet T.
    await judgeAll(c.campaignId, a!, partial);
    expect(await setsOf(c.batchId)).toEqual([]);
    // The second makes T = 2 on both candidates (and on the gold passage, which never joins a set).
    const bSaw = await judgeAll(c.campaignId, b!, partial);
    expect(bSaw.some((t) => t.members)).toBe(true); // the set was built while b judged, and given to b
    const sets = await setsOf(c.batchId);
    const page = c.pageIds[0]!;
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({
      set_members: [
        { wikipediaId: page, startParagraphId: 2, endParagraphId: 2 },
        { wikipediaId: page, startParagraphId: 3, endParagraphId: 3 },
      ],
      set_key: `${page}:3-3`,
      origins: [{ kind: "partial" }],
    });
    const [after] = rowsOf<{ passage_count: number }>(await db().execute(sql`select passage_count from batches where id = ${c.batchId}`));
    expect(after!.passage_count).toBe(before!.passage_count + 1);
    // Building again makes nothing new.
    const [anyPassage] = rowsOf<{ id: number }>(
      await db().execute(
        sql`select id::float8 as id from passages where batch_id = ${c.batchId} and set_members is null and not is_gold limit 1`,
      ),
    );
    expect(await buildPartialSets(db(), anyPassage!.id)).toBe(0);

    // Judged sufficient together, with a highlight in each member, by the two others: endorsed (T = 2).
    const together = (t: Task) =>
      t.members ? { verdict: "sufficient", spans: t.members.map((m) => spanIn(m)) } : { verdict: "insufficient" };
    for (const who of [x!, y!]) {
      const saw = await judgeAll(c.campaignId, who, together);
      expect(saw.filter((t) => t.members)).toHaveLength(1);
    }
    const [set] = await setsOf(c.batchId);
    expect(set).toMatchObject({ open_slots: 0, sufficient_count: 2 });
  });

  it("builds the set when a revision to partial makes T", async () => {
    const c = await partialCampaign(true);
    const [a, b] = await makeAnnotators(db(), 2);
    await judgeAll(c.campaignId, a!, (t) => ({ verdict: "partial", span: spanIn(t.passage) }));
    // b marks only the first passage given partial; the others not sufficient.
    let first = true;
    const bSaw = await judgeAll(c.campaignId, b!, (t) => {
      const answer = first ? { verdict: "partial", span: spanIn(t.passage) } : { verdict: "insufficient" };
      first = false;
      return answer;
    });
    expect(await setsOf(c.batchId)).toEqual([]);
    // b changes their mind on each later one: the revision that makes T on a candidate pair builds the set.
    for (const t of bSaw.slice(1)) {
      await reviseJudgment(db(), b!, t.claim.handle, { ...body({ verdict: "partial", span: spanIn(t.passage) }), revision: 0 });
    }
    const sets = await setsOf(c.batchId);
    expect(sets).toHaveLength(1);
    expect(sets[0]!.origins).toEqual([{ kind: "partial" }]);
  });

  it("counts no paused annotator's partial verdict, and builds nothing where the batch does not collect partial evidence", async () => {
    const c = await partialCampaign(true);
    const [a, b] = await makeAnnotators(db(), 2);
    const partial = (t: Task) => ({ verdict: "partial", span: spanIn(t.passage) });
    await judgeAll(c.campaignId, a!, partial);
    await pauseByGoldRule(db(), c.campaignId, a!.id);
    await judgeAll(c.campaignId, b!, partial);
    expect(await setsOf(c.batchId)).toEqual([]);

    // Two partial verdicts under T = 3 build nothing; at T = 2 the batch builds the set only while it collects partial evidence.
    const d = await partialCampaign(true);
    await db().execute(sql`update campaigns set endorsement_threshold = 3 where id = ${d.campaignId}`);
    const [e, f] = await makeAnnotators(db(), 2);
    await judgeAll(d.campaignId, e!, partial);
    await judgeAll(d.campaignId, f!, partial);
    expect(await setsOf(d.batchId)).toEqual([]);
    await db().execute(sql`update campaigns set endorsement_threshold = 2 where id = ${d.campaignId}`);
    await db().execute(sql`update batches set partial_evidence = false where id = ${d.batchId}`);
    const [single] = rowsOf<{ id: number }>(
      await db().execute(sql`select id::float8 as id from passages where batch_id = ${d.batchId} and not is_gold limit 1`),
    );
    expect(await buildPartialSets(db(), single!.id)).toBe(0);
    await db().execute(sql`update batches set partial_evidence = true where id = ${d.batchId}`);
    expect(await buildPartialSets(db(), single!.id)).toBe(1);
    expect(PARTIAL_SETS_PER_QUESTION).toBe(15);
  });
});
