import { expect, it } from "vitest";
import { judgmentOf, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "./assignment";
import { submitJudgment } from "./judgments";
import { listMyJudgments, myJudgmentsQuerySchema } from "./my-judgments";

describeEachDatabase("the annotator's history, filtered", ({ db }) => {
  it("filters by verdict (unreadable apart from not sufficient) and by a part of the question, pages within the filter", async () => {
    const c = await makeCampaign(db(), { queries: 4, candidates: 0 });
    const [a, other] = await makeAnnotators(db(), 2);
    const verdicts = ["sufficient", "insufficient", "unreadable", "sufficient"] as const;
    const inputOf: Record<string, string[]> = { sufficient: [], insufficient: [], unreadable: [] };
    for (const v of verdicts) {
      const t = (await nextTask(db(), a!, { campaignId: c.campaignId }))!;
      const body = judgmentOf(t, v === "sufficient" ? "sufficient" : "insufficient");
      await submitJudgment(db(), a!, t.claim.handle, { ...body, unreadable: v === "unreadable" });
      inputOf[v]!.push(t.query.input);
    }
    // Another annotator's judgment never shows in the caller's list, filtered or not.
    const t = (await nextTask(db(), other!, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), other!, t.claim.handle, judgmentOf(t, "insufficient"));

    const list = (query: Record<string, unknown>) =>
      listMyJudgments(db(), a!, c.campaignId, myJudgmentsQuerySchema.parse(query)).then((p) => ({
        inputs: p.rows.map((r) => r.query.input).sort(),
        next: p.next,
        rows: p.rows,
      }));
    expect((await list({})).inputs).toHaveLength(4);
    expect((await list({ verdict: "sufficient" })).inputs).toEqual([...inputOf.sufficient!].sort());
    expect((await list({ verdict: "insufficient" })).inputs).toEqual(inputOf.insufficient);
    const unreadable = await list({ verdict: "unreadable" });
    expect(unreadable.inputs).toEqual(inputOf.unreadable);
    expect(unreadable.rows[0]).toMatchObject({ verdict: "insufficient", unreadable: true });

    // A part of the question, in any case; % and _ stand for themselves.
    const one = inputOf.sufficient![0]!;
    expect((await list({ q: `  ${one.toUpperCase()} ` })).inputs).toEqual([one]);
    expect((await list({ q: one, verdict: "insufficient" })).inputs).toEqual([]);
    expect((await list({ q: "%" })).inputs).toEqual([]);
    expect((await list({ q: "question_" })).inputs).toEqual([]);

    // Paging keeps the filter: the two sufficient ones, one a page.
    const first = await list({ verdict: "sufficient", limit: 1 });
    expect(first.next).not.toBeNull();
    const second = await list({ verdict: "sufficient", limit: 1, after: first.next });
    expect(second.next).toBeNull();
    expect([...first.inputs, ...second.inputs].sort()).toEqual([...inputOf.sufficient!].sort());
  });

  it("refuses a verdict it does not know, an overlong search and NUL, naming the parameter", () => {
    const problems = (query: Record<string, string>) => {
      const r = myJudgmentsQuerySchema.safeParse(query);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems({ verdict: "maybe" })).toEqual(["verdict: must be one of sufficient, insufficient, partial, unreadable"]);
    expect(problems({ q: "x".repeat(201) })).toEqual(["q: must be at most 200 characters"]);
    expect(problems({ q: "a\u0000b" })).toEqual([expect.stringMatching(/^q: .*NUL/)]);
    expect(problems({ verdict: "sufficient", q: "lighthouse" })).toEqual([]);
  });
});
