// The runs' endorsed gold takes an endorsed evidence set as one provenance set, as KILT's evaluator
// reads one output entry: a run must retrieve every member to score on it.
import { expect, it } from "vitest";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { fileOf, makeUser } from "@/test/runs";
import { judgeByPlan, makeSetCampaign, wordsOf, type Plan } from "@/test/set-campaign";
import type { Task } from "../annotate/judging.contract";
import { getLeaderboard, getRunResults } from "./leaderboard";
import { uploadRun } from "./upload-run";

describeEachDatabase("runs: an endorsed evidence set in the golds", ({ db }) => {
  it("gives R-precision 1 to a run ranking both members first and 0.5 to one ranking only one of them", async () => {
    const c = await makeSetCampaign(db());
    // Question 0: its gold (paragraph 1) and the set endorsed, its candidate not; question 1: nothing endorsed.
    const plan = (t: Task): Plan => {
      if (t.members) return { verdict: "sufficient", spans: t.members.map((m) => wordsOf(m, 0)) };
      if (t.query.id === c.queryIds[0] && t.passage.paragraphs[0]!.id === 1) return { verdict: "sufficient", span: wordsOf(t.passage, 0) };
      return { verdict: "insufficient" };
    };
    for (const a of await makeAnnotators(db(), 3)) await judgeByPlan(db(), a, c.campaignId, plan);

    const coordinator = await makeUser(db(), "coordinator");
    const item = (page: number, paragraph: number) => ({
      wikipedia_id: c.pageIds[page],
      start_paragraph_id: paragraph,
      end_paragraph_id: paragraph,
    });
    const run = (q0: ReturnType<typeof item>[]) =>
      fileOf(
        [
          JSON.stringify({ id: c.queryIds[0], output: [{ provenance: q0 }] }),
          JSON.stringify({ id: c.queryIds[1], output: [{ provenance: [item(1, 1)] }] }),
        ].join("\n"),
      );
    const both = await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "both", guess: run([item(0, 2), item(1, 2)]) });
    const one = await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "one", guess: run([item(0, 2), item(0, 3)]) });

    const results = async (runId: number) => (await getRunResults(db(), coordinator, { campaignId: c.campaignId, runId })).results;
    // Paragraph level, endorsed gold (question 0 only): the sets {page 0 ¶1} and {page 0 ¶2, page 1 ¶2}.
    const a = await results(both.id);
    // KILT's get_rank: the set is one point where its last member is, its partial point removed: first.
    expect(a.endorsed.paragraph).toMatchObject({ Rprec: 1, "precision@1": 1, "recall@3": 0.5, "success_rate@3": 1 });
    expect(a.both.paragraph).toMatchObject({ Rprec: 1 });
    // The imported gold (both questions) knows only paragraph 1: question 0 scores 0, question 1 (its gold first) 1.
    expect(a.original.paragraph).toMatchObject({ Rprec: 0.5 });
    const b = await results(one.id);
    // Half of the set in its first two: R-precision 0.5; the set never complete, so no recall.
    expect(b.endorsed.paragraph).toMatchObject({ Rprec: 0.5, "precision@1": 0, "recall@3": 0, "success_rate@3": 0 });
    expect(b.both.paragraph).toMatchObject({ Rprec: 0.5 });

    const board = await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: [1, 3] });
    expect(board.golds.endorsed).toEqual({ questions: 1 });
    expect(Object.fromEntries(board.rows.map((r) => [r.run.name, r.scores.endorsed.paragraph!.Rprec]))).toEqual({ both: 1, one: 0.5 });
  });
});
