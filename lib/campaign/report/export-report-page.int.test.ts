import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { failure, judgeAll } from "@/test/ask";
import { describeEachDatabase } from "@/test/databases";
import { getAsk } from "../annotate/ask";
import { explainQuestion } from "../annotate/explanations";
import { exportReport } from "./export-kilt";
import { exportReportQuerySchema, listExportReport, type ExportReportSection } from "./export-report-page";

describeEachDatabase("the export report's page", ({ db }) => {
  /**
   * Four questions, R = T = 2, two annotators: question 0 all insufficient (its gold missed: unanswerable),
   * question 1 all sufficient (both passages exported, their first-word spans holding no "1871"),
   * question 2 all insufficient with negative gold (finished, none endorsed), question 3 all sufficient.
   * The first annotator explains questions 0 and 2.
   */
  async function campaignWithEveryCase() {
    const c = await makeCampaign(db(), {
      queries: 4,
      candidates: 1,
      settings: { goldMinJudgments: 10_000, judgmentsPerPassage: 2, endorsementThreshold: 2 },
    });
    const ids = rowsOf<{ id: number; kilt_id: string }>(
      await db().execute(sql`select id::float8 as id, kilt_id from queries where campaign_id = ${c.campaignId} order by id`),
    );
    await db().execute(sql`update passages set expected_verdict = 'insufficient' where is_gold and query_id = ${ids[2]!.id}`);
    const sufficient = new Set([ids[1]!.kilt_id, ids[3]!.kilt_id]);
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    for (const x of [a, b]) await judgeAll(db(), x, c.campaignId, (k) => (sufficient.has(k) ? "sufficient" : "insufficient"));
    for (let ask = await getAsk(db(), a, c.campaignId); ask; ask = await getAsk(db(), a, c.campaignId)) {
      const reason = ask.queryId === ids[0]!.kilt_id ? "not_in_wikipedia" : "ambiguous";
      await explainQuestion(db(), a, c.campaignId, { queryId: ask.queryId, reason, text: `because ${ask.queryId}` });
    }
    return { c, ids, a, b };
  }

  const show = (section: ExportReportSection, more: Record<string, unknown> = {}) =>
    exportReportQuerySchema.parse({ show: section, ...more });

  it("lists each section as the export report has it: why unanswerable, explanations by username, endorsed passages, spans without answer; annotators are refused", async () => {
    const { c, ids, a, b } = await campaignWithEveryCase();
    const list = (section: ExportReportSection) => listExportReport(db(), system, c.campaignId, show(section));

    const unanswerable = await list("unanswerable");
    expect(unanswerable.next).toBeNull();
    expect(unanswerable.rows.map((r) => [r.kiltId, r.reason])).toEqual([
      [ids[0]!.kilt_id, "gold-missed"],
      [ids[2]!.kilt_id, "none-endorsed"],
    ]);
    const [missed, none] = unanswerable.rows;
    expect(missed!.missedGold).toEqual([
      expect.objectContaining({ startParagraphId: 1, endParagraphId: 1, sufficient: 0, judgments: 2, adjudicated: false }),
    ]);
    expect(missed!.endorsed).toEqual([]);
    expect(missed!.explanations).toEqual([
      expect.objectContaining({ reason: "not_in_wikipedia", text: `because ${ids[0]!.kilt_id}`, annotator: a.username }),
    ]);
    expect(none).toMatchObject({ passages: 2, finished: 2, missedGold: [], endorsed: [] });

    const explained = await list("explained");
    expect(explained.rows.map((r) => [r.kiltId, r.status, r.explanations.map((e) => e.annotator)])).toEqual([
      [ids[0]!.kilt_id, "unanswerable", [a.username]],
      [ids[2]!.kilt_id, "none-endorsed", [a.username]],
    ]);

    const endorsed = await list("endorsed");
    expect(endorsed.rows.map((r) => [r.kiltId, r.endorsed.map((p) => [p.startParagraphId, p.sufficient, p.judgments])])).toEqual([
      [
        ids[1]!.kilt_id,
        [
          [1, 2, 2],
          [2, 2, 2],
        ],
      ],
      [
        ids[3]!.kilt_id,
        [
          [1, 2, 2],
          [2, 2, 2],
        ],
      ],
    ]);

    // The same spans, and the same unanswerable questions and explanations, as the JSON report.
    const report = await exportReport(db(), system, c.campaignId, { location: "span" });
    const spans = await list("spans");
    expect(spans.rows.flatMap((r) => r.spansWithoutAnswer)).toEqual(report.spansWithoutAnswer);
    expect(report.spansWithoutAnswer.length).toBeGreaterThan(0);
    expect(unanswerable.rows.filter((r) => r.reason === "gold-missed").map((r) => r.kiltId)).toEqual(report.unanswerable);
    expect(explained.rows.map((r) => ({ queryId: r.kiltId, explanations: r.explanations }))).toEqual(report.explained);

    // Annotators never read it.
    for (const who of [a, b]) expect(await failure(listExportReport(db(), who, c.campaignId, show("unanswerable")))).toBe("403");
  });

  it("pages by question id: `next` goes on after the page's last row, and a page that looked at its budget of questions says where to go on", async () => {
    const { c, ids } = await campaignWithEveryCase();
    const first = await listExportReport(db(), system, c.campaignId, show("unanswerable", { limit: 1 }));
    expect(first.rows.map((r) => r.kiltId)).toEqual([ids[0]!.kilt_id]);
    expect(first.next).toBe(ids[1]!.id);
    const second = await listExportReport(db(), system, c.campaignId, show("unanswerable", { limit: 1, after: first.next }));
    expect(second.rows.map((r) => r.kiltId)).toEqual([ids[2]!.kilt_id]);
    expect(second.next).toBeNull();

    // One question looked at per page, one read per round: the endorsed ones turn up page by page.
    const tiny = { chunk: 1, scanBudget: 1 };
    const seen: string[] = [];
    let after: number | undefined;
    let pages = 0;
    do {
      const page = await listExportReport(db(), system, c.campaignId, show("endorsed", { limit: 5, after }), tiny);
      expect(page.scanned).toBeLessThanOrEqual(2);
      seen.push(...page.rows.map((r) => r.kiltId));
      after = page.next ?? undefined;
      pages++;
    } while (after !== undefined && pages < 10);
    expect(seen).toEqual([ids[1]!.kilt_id, ids[3]!.kilt_id]);
    expect(after).toBeUndefined();

    // A bad section or id is named.
    const bad = exportReportQuerySchema.safeParse({ show: "everything", after: "x" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(["show", "after"]);
  });
});
