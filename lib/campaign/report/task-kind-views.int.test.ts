import { expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { judgeEvery, makeKindBatch } from "@/test/kind-views-factory";
import { fileOf, makeUser } from "@/test/runs";
import { getLeaderboard } from "../runs/leaderboard";
import { uploadRun } from "../runs/upload-run";
import { exportJudgments } from "./export-judgments";
import { exportKilt, type ExportReport } from "./export-kilt";
import { getQuestionView } from "./question-view";

// The coordinator's side of KILT's task kinds: the question view (the kind, fact checking's labels
// and their disagreement with the dataset), the exports (entity linking page-level, fact checking's
// label kept as the answer, the judgments' labels) and the leaderboard's headline metric.

async function kiltExport(db: Db, campaignId: number, location: "span" | "passage" = "span") {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location }, (r) => (report = r))) text += line;
  return { text, lines: text.split("\n").filter(Boolean), report: report! };
}

async function judgmentLines(db: Db, campaignId: number): Promise<Record<string, unknown>[]> {
  let text = "";
  for await (const chunk of exportJudgments(db, system, campaignId)) text += Buffer.from(chunk).toString("utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => "verdict" in l);
}

const claims = [
  { input: "Velmora lighthouse was first lit in 1871.", answers: ["SUPPORTS"] },
  { input: "Velmora lighthouse was never lit.", answers: ["REFUTES"] },
];

describeEachDatabase("task kinds: question view, exports, leaderboard", ({ db }) => {
  it("fact checking: the view carries the kind and each judgment's label, flagging one that disagrees with the dataset's", async () => {
    const c = await makeKindBatch(db(), { fileName: "fever-dev-kilt.jsonl", lines: claims });
    const team = await makeAnnotators(db(), 3);
    // Question 0 (the dataset says SUPPORTS): the second annotator says REFUTES; question 1 (REFUTES): all agree.
    await judgeEvery(db(), team, c.campaignId, (t, who) =>
      t.query.id === c.kiltIds[0] ? (who === 1 ? "REFUTES" : "SUPPORTS") : "REFUTES",
    );

    const view = await getQuestionView(db(), system, c.campaignId, c.queryIds[0]!);
    expect(view.query).toMatchObject({ taskKind: "fact-checking", dataset: "fever", answers: ["SUPPORTS"] });
    expect(view.passages).toHaveLength(2);
    for (const p of view.passages) {
      const by = new Map(p.judgments.map((j) => [j.username, j]));
      expect(by.get(team[0]!.username)).toMatchObject({ label: "SUPPORTS", labelDisagrees: false });
      expect(by.get(team[1]!.username)).toMatchObject({ label: "REFUTES", labelDisagrees: true });
      expect(by.get(team[2]!.username)).toMatchObject({ label: "SUPPORTS", labelDisagrees: false });
      // The consensus span is not widened to a label (no passage's text holds "SUPPORTS").
      expect(p.endorsed).toBe(true);
      expect(p.consensus).not.toBeNull();
    }
    const other = await getQuestionView(db(), system, c.campaignId, c.queryIds[1]!);
    expect(other.passages.flatMap((p) => p.judgments).every((j) => j.label === "REFUTES" && !j.labelDisagrees)).toBe(true);

    const lines = await judgmentLines(db(), c.campaignId);
    expect(lines).toHaveLength(12);
    expect(lines.filter((l) => l.label === "SUPPORTS")).toHaveLength(4);
    expect(lines.filter((l) => l.label === "REFUTES")).toHaveLength(8);
    expect(Object.keys(lines[0]!).slice(7, 10)).toEqual(["verdict", "label", "unreadable"]);
  });

  it("a QA question's view has kind qa and no labels", async () => {
    const c = await makeKindBatch(db(), { fileName: "nq-dev-kilt.jsonl", lines: [{ input: "when was velmora lit", answers: ["1871"] }] });
    await judgeEvery(db(), await makeAnnotators(db(), 1), c.campaignId, () => "sufficient");
    const view = await getQuestionView(db(), system, c.campaignId, c.queryIds[0]!);
    expect(view.query).toMatchObject({ taskKind: "qa", dataset: "nq" });
    expect(view.passages[0]!.judgments[0]).toMatchObject({ label: null, labelDisagrees: false });
  });

  it("fact checking's KILT export keeps the dataset's label as the answer, byte for byte, with span-level evidence", async () => {
    const c = await makeKindBatch(db(), { fileName: "fever-dev-kilt.jsonl", lines: claims });
    const team = await makeAnnotators(db(), 3);
    // An annotator's label never replaces the dataset's: the first one says SUPPORTS on question 1 (REFUTES).
    await judgeEvery(db(), team, c.campaignId, (t, who) => (t.query.id === c.kiltIds[1] && who > 0 ? "REFUTES" : "SUPPORTS"));
    const { text, lines, report } = await kiltExport(db(), c.campaignId);
    const rows = expectValidKiltFile(text);
    expect(rows.map((r) => r.id)).toEqual(c.kiltIds);
    for (const [i, line] of lines.entries()) {
      const output = rows[i]!.output as { answer?: string; provenance?: Record<string, unknown>[] }[];
      expect(
        line.startsWith(
          `{"id":"${c.kiltIds[i]}","input":${JSON.stringify(claims[i]!.input)},"output":[{"answer":"${claims[i]!.answers[0]}"`,
        ),
      ).toBe(true);
      expect(output.filter((o) => "answer" in o).map((o) => o.answer)).toEqual(claims[i]!.answers);
      const added = output.slice(1);
      expect(added).toHaveLength(2);
      expect(added.every((o) => !("answer" in o) && o.provenance!.length === 1 && o.provenance![0]!.start_character !== undefined)).toBe(
        true,
      );
    }
    // A label is not text: no exported span is reported as holding no answer.
    expect(report).toMatchObject({ queriesExported: 2, passagesEndorsed: 4, spansWithoutAnswer: [] });
  });

  it("entity linking's KILT export is page-level: {wikipedia_id, title}, one entry per endorsed page", async () => {
    const lines = [0, 1].map((i) => ({ input: `The ship left [START_ENT] Velmora ${i} [END_ENT] at dawn.`, answers: [`Velmora ${i}`] }));
    const c = await makeKindBatch(db(), { fileName: "aidayago2-dev-kilt.jsonl", lines });
    await judgeEvery(db(), await makeAnnotators(db(), 3), c.campaignId, (t, who) =>
      // Question 1: only its gold passage is endorsed (two of three say its candidate is insufficient).
      t.query.id === c.kiltIds[1] && t.passage.paragraphs[0]!.id === 2 && who > 0 ? "insufficient" : "sufficient",
    );
    // Every sufficient verdict is page-level, with no span; the export reads the pages, not the spans.
    const [kinds] = rowsOf<{ page_level: number; spans: number }>(
      await db().execute(sql`select count(*) filter (where page_level)::int as page_level, count(span_text)::int as spans
        from judgments where campaign_id = ${c.campaignId} and verdict = 'sufficient'`),
    );
    expect(kinds!.page_level).toBeGreaterThan(0);
    expect(kinds!.spans).toBe(0);
    for (const location of ["span", "passage"] as const) {
      const { text, report } = await kiltExport(db(), c.campaignId, location);
      const rows = expectValidKiltFile(text);
      expect(rows.map((r) => r.id)).toEqual(c.kiltIds);
      for (const [i, row] of rows.entries()) {
        const output = row.output as Record<string, unknown>[];
        // The original output (answer and its gold), then the page once, though both of question 0's passages are on it.
        expect(output[0]).toMatchObject({ answer: `Velmora ${i}` });
        expect(output.slice(1)).toEqual([{ provenance: [{ wikipedia_id: c.pageIds[i], title: `Page ${c.pageIds[i]}` }] }]);
      }
      expect(report).toMatchObject({ queriesExported: 2, passagesEndorsed: 3, spansWithoutAnswer: [] });
    }
    const view = await getQuestionView(db(), system, c.campaignId, c.queryIds[0]!);
    expect(view.query).toMatchObject({ taskKind: "entity-linking", dataset: "aidayago2" });
  });

  it("the leaderboard leads with each dataset's KILT headline metric: FEVER accuracy, ELI5 ROUGE-L, WoW F1, NQ EM; mixed batches lead with EM", async () => {
    const cases = [
      { fileName: "fever-dev-kilt.jsonl", lines: claims.slice(0, 1), metric: "accuracy", kiltMetric: "KILT-accuracy" },
      {
        fileName: "eli5-dev-kilt.jsonl",
        lines: [{ input: "why is the sea salty", answers: ["Rivers carry salt."] }],
        metric: "rougel",
        kiltMetric: "KILT-rougel",
      },
      {
        fileName: "wow-dev-kilt.jsonl",
        lines: [{ input: "I like lighthouses.\nWhich one is oldest?", answers: ["Velmora, lit in 1871."] }],
        metric: "f1",
        kiltMetric: "KILT-f1",
      },
      { fileName: "nq-dev-kilt.jsonl", lines: [{ input: "when was velmora lit", answers: ["1871"] }], metric: "em", kiltMetric: "KILT-em" },
    ];
    const coordinator = await makeUser(db(), "coordinator");
    const campaigns: number[] = [];
    for (const k of cases) {
      const c = await makeKindBatch(db(), { fileName: k.fileName, lines: k.lines });
      campaigns.push(c.campaignId);
      const board = await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "page", ks: [1, 5] });
      expect(board.headline).toMatchObject({
        metric: k.metric,
        kiltMetric: k.kiltMetric,
        mixed: false,
        datasets: [k.fileName.split("-")[0]],
      });
    }
    // A FEVER run: one right label with its page first, scored as KILT's accuracy and KILT-accuracy.
    const fever = await makeKindBatch(db(), { fileName: "fever-dev-kilt.jsonl", lines: claims });
    const guess = [
      { id: fever.kiltIds[0], output: [{ answer: "SUPPORTS", provenance: [{ wikipedia_id: fever.pageIds[0] }] }] },
      { id: fever.kiltIds[1], output: [{ answer: "SUPPORTS", provenance: [{ wikipedia_id: fever.pageIds[1] }] }] },
    ];
    await uploadRun(db(), coordinator, {
      campaignId: fever.campaignId,
      name: "labels",
      guess: fileOf(guess.map((g) => JSON.stringify(g)).join("\n")),
    });
    const board = await getLeaderboard(db(), coordinator, { campaignId: fever.campaignId, level: "page", ks: [1, 5] });
    expect(board.headline.metric).toBe("accuracy");
    expect(board.rows[0]!.scores.original.downstream).toMatchObject({ downstream: { accuracy: 0.5 }, kilt: { "KILT-accuracy": 0.5 } });

    // An NQ batch added to the FEVER campaign: mixed, EM leads, and the page says so.
    await makeKindBatch(db(), {
      fileName: "nq-dev-kilt.jsonl",
      lines: [{ input: "when was velmora lit", answers: ["1871"] }],
      campaignId: fever.campaignId,
    });
    const mixed = await getLeaderboard(db(), coordinator, { campaignId: fever.campaignId, level: "page", ks: [1, 5] });
    expect(mixed.headline).toMatchObject({
      metric: "em",
      kiltMetric: "KILT-em",
      mixed: true,
      kinds: ["fact-checking", "qa"],
      datasets: ["fever", "nq"],
    });
    expect(mixed.headline.reason).toContain("FEVER (accuracy), Natural Questions (EM)");
  });
});
