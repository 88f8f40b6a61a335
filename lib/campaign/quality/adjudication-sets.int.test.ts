// A coordinator's decision on an evidence set: it endorses or rejects the set whole; an endorsed set
// exports the consensus of the highlights in each member, so a span of the coordinator's own (which
// could only stand for one member) is refused, naming the field.
import { expect, it } from "vitest";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { makeUser } from "@/test/runs";
import { judgeByPlan, makeSetCampaign, wordsOf } from "@/test/set-campaign";
import { exportKilt } from "../report/export-kilt";
import { adjudicatePassage } from "./adjudication";

type Line = { id: string; output: { provenance?: { wikipedia_id: string; start_character: number; end_character: number }[] }[] };

async function setEntries(db: Parameters<typeof exportKilt>[0], campaignId: number, queryId: string) {
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location: "span" }, () => {})) text += line;
  const line = (text ? (expectValidKiltFile(text) as unknown as Line[]) : []).find((l) => l.id === queryId);
  return (line?.output ?? []).filter((o) => (o.provenance?.length ?? 0) > 1).map((o) => o.provenance!);
}

describeEachDatabase("adjudicating an evidence set", ({ db }) => {
  it("endorses a set the vote left out, exporting each member at its consensus; refuses a span of one's own on a set", async () => {
    const c = await makeSetCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    // Only annotator 0 finds the set sufficient (1 of 3, under T = 2): the vote does not endorse it.
    for (const [who, a] of (await makeAnnotators(db(), 3)).entries())
      await judgeByPlan(db(), a, c.campaignId, (t) =>
        t.members
          ? who === 0
            ? { verdict: "sufficient", spans: [wordsOf(t.members[0]!, 0, 2), wordsOf(t.members[1]!, 1, 2)] }
            : { verdict: "insufficient" }
          : // The gold passages (paragraph 1) endorsed, so the question is answerable and exported.
            t.passage.paragraphs[0]!.id === 1
            ? { verdict: "sufficient", span: wordsOf(t.passage, 0, 2) }
            : { verdict: "insufficient" },
      );
    expect(await setEntries(db(), c.campaignId, c.queryIds[0]!)).toEqual([]);

    const span = { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 3, text: "The" };
    const refused = await adjudicatePassage(db(), coordinator, c.campaignId, c.setId, { decision: "endorse", span, reason: "both" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toMatchObject({ problems: [{ field: "span" }] });
    expect((refused as AppError).message + JSON.stringify((refused as AppError).details)).toContain("evidence set");

    await adjudicatePassage(db(), coordinator, c.campaignId, c.setId, { decision: "endorse", reason: "the two pages together answer it" });
    const [set] = await setEntries(db(), c.campaignId, c.queryIds[0]!);
    expect(set!.map((i) => i.wikipedia_id)).toEqual(c.pageIds);
    // Annotator 0's highlights: words 0–1 of member 0 and words 1–2 of member 1 (paragraph 2 reads "The 𐌅𐌄𐌋 inscription …").
    expect(set!.map((i) => [i.start_character, i.end_character])).toEqual([
      [0, 7],
      [4, 19],
    ]);
  });
});
