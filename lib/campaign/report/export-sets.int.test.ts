// Evidence sets and partial evidence downstream: an endorsed set is one KILT output entry with an
// item per member (each at the consensus of the highlights in that member), partial evidence that T
// annotators marked goes to meta.partial_evidence, the judgments export names members, partial and
// member spans, and a set closes early as one unit.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { pageParagraphs, makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { exportedLines } from "@/test/exported";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { judgeByPlan, makeSetCampaign, wordsOf, type Plan } from "@/test/set-campaign";
import type { Task } from "../annotate/judging.contract";
import { changeBatchStatus } from "../batches";
import { exportJudgments } from "./export-judgments";
import { exportKilt, type ExportReport } from "./export-kilt";
import { exportReportQuerySchema, listExportReport } from "./export-report-page";

type Item = Record<string, unknown> & { meta: Record<string, unknown> };
type Line = { id: string; output: { answer?: string; provenance?: Item[] }[]; meta?: { partial_evidence?: Item[] } };

async function exported(db: Parameters<typeof exportKilt>[0], campaignId: number, location: "span" | "passage" = "span") {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location }, (r) => (report = r))) text += line;
  return { lines: expectValidKiltFile(text) as unknown as Line[], report: report! };
}

/**
 * Annotator `who` (0, 1, 2): every gold passage sufficient; the set sufficient with words who…who+2
 * of member 0 and words who+1…who+3 of member 1; question 0's candidate "part of the evidence"
 * (question 1's: only annotator 0; without `partial`, insufficient); everything else insufficient.
 */
function planOf(c: { queryIds: string[] }, who: number, partial = true) {
  return (t: Task): Plan => {
    if (t.members) return { verdict: "sufficient", spans: [wordsOf(t.members[0]!, who), wordsOf(t.members[1]!, who + 1)] };
    const paragraph = t.passage.paragraphs[0]!.id;
    if (paragraph === 1) return { verdict: "sufficient", span: wordsOf(t.passage, 0, 2) };
    if (partial && (t.query.id === c.queryIds[0] || who === 0)) return { verdict: "partial", span: wordsOf(t.passage, who, 2) };
    return { verdict: "insufficient" };
  };
}

describeEachDatabase("KILT export of evidence sets and partial evidence", ({ db }) => {
  it("writes an endorsed set as one output entry, an item per member at that member's consensus; partial evidence in meta", async () => {
    const c = await makeSetCampaign(db(), { partialEvidence: true });
    const team = await makeAnnotators(db(), 3);
    for (const [who, a] of team.entries()) await judgeByPlan(db(), a, c.campaignId, planOf(c, who));

    const { lines, report } = await exported(db(), c.campaignId);
    expect(lines.map((l) => l.id)).toEqual(c.queryIds);
    const [q0, q1] = lines;
    const added = q0!.output.slice(1);
    expect(added.map((e) => e.provenance!.length)).toEqual([1, 2]); // the gold passage, then the set
    const set = added[1]!.provenance!;
    expect(set.map((i) => i.wikipedia_id)).toEqual(c.pageIds);
    expect(set.map((i) => i.title)).toEqual(c.pageIds.map((id) => `Page ${id}`));
    // Per member, the code points at least T = 2 of the three highlights share: annotator 1's words.
    const paragraphs = c.pageIds.map((id) => pageParagraphs(`Page ${id}`, 3));
    const texts = set.map((item, i) =>
      sliceLocation(paragraphs[i]!, {
        startParagraphId: item.start_paragraph_id as number,
        startCharacter: item.start_character as number,
        endParagraphId: item.end_paragraph_id as number,
        endCharacter: item.end_character as number,
      }),
    );
    expect(texts).toEqual(["𐌅𐌄𐌋 inscription on", "inscription on Page"]);
    expect(set[0]!.meta.evidence_span).toEqual(["The 𐌅𐌄𐌋 inscription", "𐌅𐌄𐌋 inscription on", "inscription on Page"]);
    expect(set[1]!.meta.evidence_span).toEqual(["𐌅𐌄𐌋 inscription on", "inscription on Page", `on Page ${c.pageIds[1]}`]);
    for (const [i, item] of set.entries()) {
      expect(item).toMatchObject({ section: "Section::::Abstract.", bleu_score: -1, start_paragraph_id: 2, end_paragraph_id: 2 });
      expect(item.meta).toMatchObject({
        evidence_set: { member: i, members: 2 },
        passage: { start_paragraph_id: 2, end_paragraph_id: 2 },
        votes: { sufficient: 3, insufficient: 0 },
        batch: c.batchId,
      });
    }
    // Question 0's candidate: three partial marks (T = 2), in the shape of KILT's ELI5 partial evidence.
    expect(q0!.meta!.partial_evidence).toEqual([
      {
        wikipedia_id: c.pageIds[0],
        title: `Page ${c.pageIds[0]}`,
        section: "Section::::Abstract.",
        start_paragraph_id: 2,
        end_paragraph_id: 2,
        meta: {
          evidence_span: ["The 𐌅𐌄𐌋", "𐌅𐌄𐌋 inscription", "inscription on"],
          votes: { partial: 3, judgments: 3 },
          campaign: c.campaignId,
          batch: c.batchId,
        },
      },
    ]);
    // Question 1's candidate has one partial mark: no partial evidence, and its line no meta.
    expect(q1!.output.slice(1).map((e) => e.provenance!.length)).toEqual([1]);
    expect(q1!.meta).toBeUndefined();
    expect(report).toMatchObject({ queriesExported: 2, passagesEndorsed: 3 });
    // The export report's endorsed section names the set's members.
    const endorsed = await listExportReport(db(), system, c.campaignId, exportReportQuerySchema.parse({ show: "endorsed" }));
    const setVotes = endorsed.rows[0]!.endorsed.find((v) => v.passageId === c.setId)!;
    expect(setVotes.members!.map((m) => [m.title, m.startParagraphId, m.endParagraphId])).toEqual(
      c.pageIds.map((id) => [`Page ${id}`, 2, 2]),
    );
    expect(endorsed.rows[0]!.endorsed.filter((v) => v.passageId !== c.setId).every((v) => v.members === null)).toBe(true);

    // Closed, the batch is read as sealed (which judgments counted at close): the same lines.
    await changeBatchStatus(db(), system, c.batchId, "close");
    expect((await exported(db(), c.campaignId)).lines).toEqual(lines);

    // The passage location: each member's whole paragraphs, -1 characters.
    const passage = (await exported(db(), c.campaignId, "passage")).lines[0]!.output[2]!.provenance!;
    expect(passage.map((i) => [i.wikipedia_id, i.start_paragraph_id, i.start_character, i.end_paragraph_id, i.end_character])).toEqual(
      c.pageIds.map((id) => [id, 2, -1, 2, -1]),
    );
  });

  it("writes members, partial and member spans in the judgments export", async () => {
    const c = await makeSetCampaign(db(), { partialEvidence: true });
    const team = await makeAnnotators(db(), 3);
    for (const [who, a] of team.entries()) await judgeByPlan(db(), a, c.campaignId, planOf(c, who));
    // A proposal of the set (as the Ask screen's two passages make one): its highlight per member.
    const spans = [0, 1].map(() => ({ startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 3, text: "The" }));
    await db().execute(sql`insert into proposals (passage_id, query_id, campaign_id, user_id, start_paragraph_id, start_character,
        end_paragraph_id, end_character, span_text, member_spans)
      select id, query_id, campaign_id, ${team[0]!.id}, 2, 0, 2, 3, 'The', ${JSON.stringify(spans)}::jsonb from passages where id = ${c.setId}`);
    const lines = (await exportedLines(exportJudgments(db(), system, c.campaignId))).map((l) => JSON.parse(l) as Record<string, unknown>);
    const proposal = lines.find((l) => "proposal" in l)!;
    const snake = { start_paragraph_id: 2, start_character: 0, end_paragraph_id: 2, end_character: 3, text: "The" };
    expect(proposal).toMatchObject({
      passage_id: c.setId,
      members: c.pageIds.map((id) => ({ wikipedia_id: id, start_paragraph_id: 2, end_paragraph_id: 2 })),
      proposal: { span: snake, member_spans: [snake, snake] },
    });
    const rows = lines.filter((r) => "verdict" in r);
    const ofSet = rows.filter((r) => r.passage_id === c.setId);
    expect(ofSet).toHaveLength(3);
    for (const r of ofSet) {
      expect(r.members).toEqual(c.pageIds.map((id) => ({ wikipedia_id: id, start_paragraph_id: 2, end_paragraph_id: 2 })));
      expect(r).toMatchObject({ verdict: "sufficient", partial: false });
      const spans = r.member_spans as { start_paragraph_id: number; text: string }[];
      expect(spans).toHaveLength(2);
      expect(spans.every((s) => s.start_paragraph_id === 2)).toBe(true);
      expect((r.span as { text: string }).text).toBe(spans[0]!.text);
    }
    const partial = rows.filter((r) => r.partial);
    expect(partial).toHaveLength(4);
    expect(partial.every((r) => r.verdict === "insufficient" && r.span !== null && r.members === null && r.member_spans === null)).toBe(
      true,
    );
    expect(rows.filter((r) => r.passage_id !== c.setId).every((r) => r.members === null && r.member_spans === null)).toBe(true);
  });

  it("closes a set early as one unit once T judgments endorse it, and exports it once", async () => {
    const c = await makeSetCampaign(db(), { settings: { earlyStop: true } });
    const team = await makeAnnotators(db(), 3);
    for (const [who, a] of team.entries()) await judgeByPlan(db(), a, c.campaignId, planOf(c, who, false));
    const [p] = rowsOf<{ judgment_count: number; sufficient_count: number; open_slots: number; is_decided: boolean }>(
      await db().execute(sql`select judgment_count, sufficient_count, open_slots, is_decided from passages where id = ${c.setId}`),
    );
    expect(p).toEqual({ judgment_count: 2, sufficient_count: 2, open_slots: 0, is_decided: true });
    const { lines } = await exported(db(), c.campaignId);
    const sets = lines[0]!.output.filter((e) => (e.provenance?.length ?? 0) > 1);
    expect(sets).toHaveLength(1);
    // Two endorsers: per member, the code points both highlighted.
    expect(sets[0]!.provenance!.map((i) => i.meta.evidence_span)).toEqual([
      ["The 𐌅𐌄𐌋 inscription", "𐌅𐌄𐌋 inscription on"],
      ["𐌅𐌄𐌋 inscription on", "inscription on Page"],
    ]);
  });
});
