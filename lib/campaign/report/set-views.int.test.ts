// Evidence sets on the coordinator's pages: the question view gives a set's members with the
// consensus of the highlights in each, and every judgment's highlight per member; the annotator's
// judgments give the members, the highlights per member, partial verdicts, and gold sets checked
// member by member.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { makeAnnotators, pageParagraphs } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { judgeByPlan, makeSetCampaign, wordsOf, type Plan } from "@/test/set-campaign";
import type { Task } from "../annotate/judging.contract";
import { annotatorJudgmentsQuerySchema, listAnnotatorJudgments } from "./annotator-detail";
import { getQuestionView } from "./question-view";

/** Annotator `who`: the set sufficient with words who…who+2 of member 0 and who+1…who+3 of member 1; single passages partial (who 0) or insufficient. */
const planOf =
  (who: number) =>
  (t: Task): Plan => {
    if (t.members) return { verdict: "sufficient", spans: [wordsOf(t.members[0]!, who), wordsOf(t.members[1]!, who + 1)] };
    if (who === 0 && t.passage.paragraphs[0]!.id === 2) return { verdict: "partial", span: wordsOf(t.passage, 0, 2) };
    return {
      verdict: t.passage.paragraphs[0]!.id === 1 ? "sufficient" : "insufficient",
      span: t.passage.paragraphs[0]!.id === 1 ? wordsOf(t.passage, 0) : null,
    };
  };

describeEachDatabase("evidence sets on the coordinator's pages", ({ db }) => {
  it("the question view stacks a set's members, with each judgment's highlight and the consensus per member", async () => {
    const c = await makeSetCampaign(db(), { partialEvidence: true });
    const team = await makeAnnotators(db(), 3);
    for (const [who, a] of team.entries()) await judgeByPlan(db(), a, c.campaignId, planOf(who));
    const [q] = rowsOf<{ id: number }>(await db().execute(sql`select id::float8 as id from queries where kilt_id = ${c.queryIds[0]!}`));
    const view = await getQuestionView(db(), system, c.campaignId, q!.id);

    const set = view.passages.find((p) => p.id === c.setId)!;
    expect(set.endorsed).toBe(true);
    expect(set.members!.map((m) => [m.title, m.startParagraphId, m.endParagraphId, m.paragraphs.map((p) => p.id)])).toEqual(
      c.pageIds.map((id) => [`Page ${id}`, 2, 2, [2]]),
    );
    const paragraphs = c.pageIds.map((id) => pageParagraphs(`Page ${id}`, 3));
    expect(set.members!.map((m, i) => sliceLocation(paragraphs[i]!, m.consensus!))).toEqual(["𐌅𐌄𐌋 inscription on", "inscription on Page"]);
    expect(set.judgments.map((j) => j.memberSpans!.map((s) => s.text))).toEqual([
      ["The 𐌅𐌄𐌋 inscription", "𐌅𐌄𐌋 inscription on"],
      ["𐌅𐌄𐌋 inscription on", "inscription on Page"],
      ["inscription on Page", `on Page ${c.pageIds[1]}`],
    ]);
    // A single passage has no members; a partial verdict reads as partial.
    const candidate = view.passages.find((p) => !p.members && p.startParagraphId === 2)!;
    expect(candidate.members).toBeNull();
    expect(candidate.judgments.map((j) => [j.verdict, j.partial, j.memberSpans])).toEqual([
      ["insufficient", true, null],
      ["insufficient", false, null],
      ["insufficient", false, null],
    ]);
  });

  it("the annotator's judgments give a set's members and highlights, and check a gold set member by member", async () => {
    const c = await makeSetCampaign(db(), { gold: true, partialEvidence: true });
    const [right, wrong] = await makeAnnotators(db(), 2);
    // Right: each member's first three words (they cover the expected two). Wrong: member 1's words 5–6 miss them.
    const setPlan = (member1From: number, who: number) => (t: Task) =>
      t.members
        ? { verdict: "sufficient" as const, spans: [wordsOf(t.members[0]!, 0), wordsOf(t.members[1]!, member1From, member1From ? 2 : 3)] }
        : planOf(who)(t);
    await judgeByPlan(db(), right!, c.campaignId, setPlan(0, 0));
    await judgeByPlan(db(), wrong!, c.campaignId, setPlan(5, 1));
    const judgmentsOf = async (who: typeof right) =>
      (await listAnnotatorJudgments(db(), system, c.campaignId, who!.id, annotatorJudgmentsQuerySchema.parse({}))).rows;

    const mine = await judgmentsOf(right);
    const set = mine.find((j) => j.passage.id === c.setId)!;
    expect(set.passage.members!.map((m) => [m.title, m.expectedSpan])).toEqual(
      c.pageIds.map((id) => [`Page ${id}`, { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 7 }]),
    );
    expect(set.memberSpans!.map((s) => s.text)).toEqual(["The 𐌅𐌄𐌋 inscription", "The 𐌅𐌄𐌋 inscription"]);
    expect(set.gold).toMatchObject({ expectedVerdict: "sufficient", correct: true });
    // Member 1's highlight misses its expected words: wrong, as the gold rule counted it.
    const theirs = (await judgmentsOf(wrong)).find((j) => j.passage.id === c.setId)!;
    expect(theirs.memberSpans![1]!.text).toBe(`${c.pageIds[1]} dates`);
    expect(theirs.gold).toMatchObject({ correct: false });
    const standings = rowsOf<{ user_id: number; gold_judged: number; gold_correct: number }>(
      await db().execute(sql`select user_id::float8 as user_id, gold_judged, gold_correct from annotator_standings
        where campaign_id = ${c.campaignId} order by user_id`),
    );
    // Both judged the two questions' gold passages (paragraph 1: right) and the gold set.
    expect(standings.map((s) => [s.gold_judged, s.gold_correct])).toEqual([
      [3, 3],
      [3, 2],
    ]);
    // Both questions' candidates (paragraph 2) partial: stored insufficient, single passages.
    expect(mine.filter((j) => j.partial).map((j) => [j.verdict, j.passage.members, j.memberSpans])).toEqual([
      ["insufficient", null, null],
      ["insufficient", null, null],
    ]);
    expect(mine.filter((j) => j.passage.id !== c.setId).every((j) => j.passage.members === null && j.memberSpans === null)).toBe(true);
  });
});
