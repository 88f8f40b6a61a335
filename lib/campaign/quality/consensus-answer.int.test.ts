import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { codePointLength, sliceLocation } from "@/lib/kilt/codepoints";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { changeBatchStatus } from "../batches";
import { createCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { exportKilt, exportReport, type ExportReport } from "../report/export-kilt";
import { getQuestionView } from "../report/question-view";
import { createCampaignSchema } from "../settings.contract";

// The case end to end, through the import, the judging and the export: one shrunk highlight
// made the exported consensus span "was first lit", without "1871".

const paragraphs = (title: string) => [
  `${title}\n`,
  `${title} stands on the northern breakwater of Velmora harbour. The lighthouse was first lit in 1871.\n`,
  "It was designed by the engineer Ana Kessler.\n",
];

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

/** Who highlights what, by question and annotator (0, 1, 2): every passage is judged sufficient. */
const plan: Record<"lit" | "designed" | "noAnswer", readonly [string, string, string]> = {
  // One endorser takes the sentence, two a shrunk "was first lit": at T = 2 the consensus is "was first lit".
  lit: ["The lighthouse was first lit in 1871.", "was first lit", "was first lit"],
  // Nobody highlights the answer: the span holds none, and the report says so.
  designed: ["designed by the engineer", "designed by the engineer", "It was designed by the engineer"],
  // A question without answers: its span is never listed.
  noAnswer: ["stands on the northern", "stands on the northern breakwater", "stands on the northern"],
};

async function judge(db: Parameters<typeof nextTask>[0], team: UserActor[], campaignId: number, which: Map<string, keyof typeof plan>) {
  for (const [who, a] of team.entries()) {
    for (let t = await nextTask(db, a, { campaignId }); t; t = await nextTask(db, a, { campaignId })) {
      const p = t.passage.paragraphs[0]!;
      const text = plan[which.get(t.query.id)!][who]!;
      const at = p.text.indexOf(text);
      expect(at, `${text} in ${p.text}`).toBeGreaterThanOrEqual(0);
      const start = codePointLength(p.text.slice(0, at));
      await submitJudgment(db, a, t.claim.handle, {
        verdict: "sufficient",
        span: { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: start + codePointLength(text), text },
        unreadable: false,
        durationMs: 4000,
        idempotencyKey: unique("k"),
      });
    }
  }
}

async function exportText(db: Parameters<typeof nextTask>[0], campaignId: number, location: "span" | "passage") {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location }, (r) => (report = r))) text += line;
  return { rows: expectValidKiltFile(text), report: report! };
}

describeEachDatabase("a consensus span that keeps the answer, in the export", ({ db }) => {
  it("widens the shrunk consensus to cover 1871, and reports the span that holds no answer", async () => {
    const pageId = unique("velmora");
    const title = `Velmora Lighthouse ${pageId}`;
    const page = paragraphs(title);
    await importKnowledge(db(), system, {
      fileName: "pages.jsonl",
      source: source(JSON.stringify({ wikipedia_id: pageId, wikipedia_title: title, text: page })),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("campaign"), goldAccuracyThreshold: 0 }));
    const ids = { lit: unique("lit"), designed: unique("designed"), noAnswer: unique("stands") };
    const gold = (paragraph: number) => [{ wikipedia_id: pageId, start_paragraph_id: paragraph, end_paragraph_id: paragraph }];
    const tasks = [
      { id: ids.lit, input: "when was Velmora lighthouse first lit", output: [{ answer: "1871", provenance: gold(1) }] },
      { id: ids.designed, input: "who designed Velmora lighthouse", output: [{ answer: "Ana Kessler", provenance: gold(2) }] },
      { id: ids.noAnswer, input: "where does Velmora lighthouse stand", output: [{ provenance: gold(1) }] },
    ];
    const { batch } = await importBatch(db(), system, {
      campaignId: campaign.id,
      perRetriever: 1,
      queries: { fileName: "queries.jsonl", source: source(tasks.map((t) => JSON.stringify(t)).join("\n")) },
    });
    await changeBatchStatus(db(), system, batch.id, "launch");
    const team = await makeAnnotators(db(), 3);
    await judge(db(), team, campaign.id, new Map(Object.entries(ids).map(([k, v]) => [v, k as keyof typeof plan])));

    const { rows, report } = await exportText(db(), campaign.id, "span");
    const itemOf = (id: string) => {
      const row = rows.find((r) => r.id === id)!;
      const added = (row.output as { provenance?: Record<string, number | string>[] }[]).slice(1);
      expect(added).toHaveLength(1);
      const item = added[0]!.provenance![0]!;
      const loc = {
        startParagraphId: item.start_paragraph_id as number,
        startCharacter: item.start_character as number,
        endParagraphId: item.end_paragraph_id as number,
        endCharacter: item.end_character as number,
      };
      return { item, loc, text: sliceLocation(page, loc)! };
    };
    expect(rows.map((r) => r.id).sort()).toEqual(Object.values(ids).sort());

    // The shrunk-highlight case: the exported consensus span covers the answer.
    const lit = itemOf(ids.lit);
    expect(lit.text).toContain("1871");
    expect(lit.text).toBe("was first lit in 1871");
    // The other two: as voted (no endorser highlighted "Ana Kessler"; the third question has no answer).
    expect(itemOf(ids.designed).text).toBe("designed by the engineer");
    expect(itemOf(ids.noAnswer).text).toBe("stands on the northern");

    // The report lists the one exported span that holds no answer, with where it is.
    expect(report.spansWithoutAnswer).toEqual([
      { queryId: ids.designed, passageId: expect.any(Number), wikipediaId: pageId, ...itemOf(ids.designed).loc },
    ]);
    expect(report).toMatchObject({ queries: 3, queriesExported: 3, passagesEndorsed: 3 });
    expect((await exportReport(db(), system, campaign.id, { location: "span" })).spansWithoutAnswer).toHaveLength(1);

    // The question view shows the consensus the export writes.
    const [q] = rowsOf<{ id: string | number }>(
      await db().execute(sql`select id from queries where campaign_id = ${campaign.id} and kilt_id = ${ids.lit}`),
    );
    const view = await getQuestionView(db(), system, campaign.id, Number(q!.id));
    const consensus = view.passages[0]!.consensus!;
    expect(sliceLocation(page, consensus)).toBe("was first lit in 1871");

    // Exported as whole passages: paragraph 2 holds "Ana Kessler", so no line; paragraph 1 holds 1871.
    const byPassage = await exportText(db(), campaign.id, "passage");
    expect(byPassage.report.spansWithoutAnswer).toEqual([]);
  });
});
