import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign, judgmentOf, type TestCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { fileOf, makeUser } from "@/test/runs";
import { nextTask } from "../annotate/assignment";
import type { Task } from "../annotate/judging.contract";
import { reviseJudgment } from "../annotate/revise-judgment";
import { submitJudgment } from "../annotate/judgments";
import { getCampaign, updateCampaign } from "../campaigns";
import type { Aggregation } from "@/db/schema";
import { getDashboard } from "../report/dashboard";
import { exportKilt, type ExportReport } from "../report/export-kilt";
import { getQuestionView } from "../report/question-view";
import { getLeaderboard } from "../runs/leaderboard";
import { uploadRun } from "../runs/upload-run";
import { campaignFit, endorsementRuleOf, fitCount } from "./aggregation";
import { pauseAnnotator } from "./standings";

type Verdict = "sufficient" | "insufficient";

/** Judges every passage the annotator is handed: `plan(paragraph)`; the tasks judged. */
async function judge(db: Db, a: UserActor, campaignId: number, plan: (paragraph: number) => Verdict): Promise<Task[]> {
  const judged: Task[] = [];
  for (let t = await nextTask(db, a, { campaignId }); t; t = await nextTask(db, a, { campaignId })) {
    await submitJudgment(db, a, t.claim.handle, judgmentOf(t, plan(t.passage.paragraphs[0]!.id)));
    judged.push(t);
  }
  return judged;
}

/** The truth of the campaign below: paragraphs 1 (gold) and 2 hold the evidence, 3 and 4 (negative gold) do not. */
const careful = (p: number): Verdict => (p <= 2 ? "sufficient" : "insufficient");
const spammer = (): Verdict => "sufficient";

/**
 * A campaign where majority and Dawid–Skene disagree: each question has a sufficient gold passage
 * (paragraph 1), a sufficient candidate (2), an insufficient candidate (3) and an insufficient
 * negative gold passage (4). Two spammers who call everything sufficient take two of the three slots
 * of every passage, one careful annotator the third: majority endorses all four passages, while
 * Dawid–Skene, with gold clamped, learns that the spammers' "sufficient" says nothing and follows
 * the careful annotator.
 */
async function disagreeingCampaign(db: Db, aggregation?: Aggregation) {
  const c = await makeCampaign(db, {
    queries: 3,
    candidates: 3,
    settings: { goldAccuracyThreshold: 0, ...(aggregation ? { aggregation } : {}) },
  });
  await db.execute(
    sql`update passages set is_gold = true, expected_verdict = 'insufficient' where campaign_id = ${c.campaignId} and start_paragraph_id = 4`,
  );
  const [s1, s2, good] = [await makeAnnotator(db), await makeAnnotator(db), await makeAnnotator(db)];
  const tasks = [
    await judge(db, s1!, c.campaignId, spammer),
    await judge(db, s2!, c.campaignId, spammer),
    await judge(db, good!, c.campaignId, careful),
  ];
  expect(tasks.map((t) => t.length)).toEqual([12, 12, 12]);
  return { c, spammers: [s1!, s2!], good: good!, tasks };
}

interface ExportedItem {
  start_paragraph_id: number;
  meta: { confidence: number; aggregation: string; votes: { sufficient: number; insufficient: number } };
}

/** The export's items per question (kilt id → items, by paragraph), and its report. */
async function exported(db: Db, c: TestCampaign, aggregation?: Aggregation) {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, c.campaignId, { location: "span", aggregation }, (r) => (report = r))) text += line;
  const rows = expectValidKiltFile(text);
  const items = new Map(
    rows.map((r) => [
      r.id as string,
      (r.output as { provenance?: ExportedItem[]; answer?: string }[])
        .slice(1)
        .map((o) => o.provenance![0]!)
        .sort((a, b) => a.start_paragraph_id - b.start_paragraph_id),
    ]),
  );
  return { items, report: report! };
}

const paragraphsOf = (items: Map<string, ExportedItem[]>) => [...items.values()].map((list) => list.map((i) => i.start_paragraph_id));

describeEachDatabase("aggregation: majority or Dawid–Skene", ({ db }) => {
  it("decides what the export endorses; every exported passage carries meta.confidence and meta.aggregation; --aggregation overrides", async () => {
    const { c } = await disagreeingCampaign(db());

    // Majority (the default): the spammers outvote the careful annotator on paragraphs 3 and 4; 4 is
    // negative gold, which is never exported, endorsed or not.
    const majority = await exported(db(), c);
    expect(majority.report).toMatchObject({ aggregation: "majority", queriesExported: 3, passagesEndorsed: 9 });
    expect(paragraphsOf(majority.items)).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    for (const list of majority.items.values()) {
      for (const item of list) {
        expect(item.meta.aggregation).toBe("majority");
        // The share of counted sufficient votes.
        expect(item.meta.confidence).toBeCloseTo(
          item.meta.votes.sufficient / (item.meta.votes.sufficient + item.meta.votes.insufficient),
          12,
        );
        expect(item.meta.confidence).toBe(item.start_paragraph_id <= 2 ? 1 : 2 / 3);
      }
    }

    // The setting changed to Dawid–Skene (audited like every setting): the careful annotator's verdicts win.
    const coordinator = await makeUser(db(), "coordinator");
    const updated = await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "dawid-skene" });
    expect(updated.aggregation).toBe("dawid-skene");
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "campaign.update"), eq(auditLog.targetId, String(c.campaignId))));
    expect(audits.map((a) => a.details)).toContainEqual({ changes: { aggregation: "dawid-skene" } });

    const ds = await exported(db(), c);
    expect(ds.report).toMatchObject({ aggregation: "dawid-skene", queriesExported: 3, passagesEndorsed: 6 });
    expect(paragraphsOf(ds.items)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    const fit = await campaignFit(db(), await getCampaign(db(), system, c.campaignId));
    for (const list of ds.items.values()) {
      for (const item of list) {
        expect(item.meta.aggregation).toBe("dawid-skene");
        expect(item.meta.confidence).toBeGreaterThanOrEqual(0.5);
      }
    }
    // The posteriors the export wrote are the fit's; gold is clamped to its expected verdict.
    const exportedConfidence = [...ds.items.values()].flat().map((i) => i.meta.confidence);
    expect(exportedConfidence.every((x) => [...fit.posteriors.values()].includes(x))).toBe(true);
    const posteriorsAt = async (paragraph: number) => {
      const rows = rowsOf<{ id: string | number }>(
        await db().execute(sql`select id from passages where campaign_id = ${c.campaignId} and start_paragraph_id = ${paragraph}`),
      );
      expect(rows).toHaveLength(3);
      return rows.map((r) => fit.posteriors.get(Number(r.id))!);
    };
    for (const p of await posteriorsAt(1)) expect(p).toBeGreaterThan(1 - 1e-6);
    for (const p of await posteriorsAt(4)) expect(p).toBeLessThan(1e-6);
    for (const p of await posteriorsAt(2)) expect(p).toBeGreaterThan(0.5);
    for (const p of await posteriorsAt(3)) expect(p).toBeLessThan(0.5);

    // `kps export --aggregation` overrides the setting, both ways.
    const overridden = await exported(db(), c, "majority");
    expect(overridden.report.aggregation).toBe("majority");
    expect(paragraphsOf(overridden.items)).toEqual(paragraphsOf(majority.items));
    await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "majority" });
    const back = await exported(db(), c, "dawid-skene");
    expect(back.report.aggregation).toBe("dawid-skene");
    expect(paragraphsOf(back.items)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  });

  it("decides the leaderboard's endorsed gold", async () => {
    const { c } = await disagreeingCampaign(db());
    const coordinator = await makeUser(db(), "coordinator");
    // A system that ranks the insufficient paragraph 3 first: right by the majority's gold, wrong by Dawid–Skene's.
    const guess = c.queryIds.map((id, q) =>
      JSON.stringify({
        id,
        output: [{ provenance: [3, 2].map((p) => ({ wikipedia_id: c.pageIds[q], start_paragraph_id: p, end_paragraph_id: p })) }],
      }),
    );
    await uploadRun(db(), coordinator, { campaignId: c.campaignId, name: "ranks-3-first", guess: fileOf(guess.join("\n")) });
    const precisionAt1 = async () => {
      const board = await getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: [1] });
      return board.rows[0]!.scores.endorsed.paragraph!["precision@1"];
    };
    expect(await precisionAt1()).toBe(1);
    await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "dawid-skene" });
    expect(await precisionAt1()).toBe(0);
  });

  it("shows on the dashboard (endorsed count, annotators by skill) and the question view (posteriors)", async () => {
    const { c, spammers, good } = await disagreeingCampaign(db(), "dawid-skene");
    const coordinator = await makeUser(db(), "coordinator");
    const dashboard = await getDashboard(db(), coordinator, c.campaignId);
    expect(dashboard.campaign.aggregation).toBe("dawid-skene");
    expect(dashboard.totals.endorsedPassages).toBe(6);
    expect(dashboard.batches[0]!.endorsedPassages).toBe(6);
    // Least skilled first: the spammers, then the careful annotator.
    expect(dashboard.skills.total).toBe(3);
    expect(dashboard.skills.annotators.map((a) => a.userId).slice(2)).toEqual([good.id]);
    expect(new Set(dashboard.skills.annotators.slice(0, 2).map((a) => a.userId))).toEqual(new Set(spammers.map((s) => s.id)));
    const [worst, , best] = dashboard.skills.annotators;
    expect(best!.skill).toBeGreaterThan(0.99);
    expect(worst!.skill).toBeLessThan(0.75);
    expect(best!.username).toBe(good.username);
    expect(best!.judgments).toBe(12);

    await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "majority" });
    expect((await getDashboard(db(), coordinator, c.campaignId)).totals.endorsedPassages).toBe(12);

    const [q] = rowsOf<{ id: string | number }>(
      await db().execute(sql`select id from queries where campaign_id = ${c.campaignId} order by id limit 1`),
    );
    const queryId = Number(q!.id);
    const view = await getQuestionView(db(), coordinator, c.campaignId, queryId);
    const byParagraph = new Map(view.passages.map((p) => [p.startParagraphId, p.posterior]));
    expect(byParagraph.get(1)).toBeGreaterThan(1 - 1e-6);
    expect(byParagraph.get(2)).toBeGreaterThan(0.5);
    expect(byParagraph.get(3)).toBeLessThan(0.5);
    expect(byParagraph.get(4)).toBeLessThan(1e-6);
  });

  it("caches the fit, and refits after a pause, a revision and a new judgment", async () => {
    const { c, spammers, tasks } = await disagreeingCampaign(db(), "dawid-skene");
    const campaign = await getCampaign(db(), system, c.campaignId);
    await endorsementRuleOf(db(), campaign);
    const fits = fitCount();
    // Repeated reads: no refit.
    await exported(db(), c);
    await exported(db(), c);
    await campaignFit(db(), campaign);
    expect(fitCount()).toBe(fits);

    // A pause: the spammer's judgments stop counting, their slots reopen, paragraphs 1 and 2 are no longer finished.
    const coordinator = await makeUser(db(), "coordinator");
    await pauseAnnotator(db(), coordinator, c.campaignId, spammers[0]!.id);
    const paused = await exported(db(), c);
    expect(fitCount()).toBe(fits + 1);
    expect(paused.report.passagesEndorsed).toBe(0);
    const afterPause = await campaignFit(db(), campaign);
    expect(afterPause.judgments.has(spammers[0]!.id)).toBe(false);
    expect(afterPause.votes).toBe(24);

    // A revision (the passage is open again): a refit that reads the new verdict.
    const revised = tasks[1]!.find((t) => t.passage.paragraphs[0]!.id === 2)!;
    const revisedPassage = Number((await idsOfTask(db(), revised)).passageId);
    const before = afterPause.posteriors.get(revisedPassage)!;
    await reviseJudgment(db(), spammers[1]!, revised.claim.handle, { ...judgmentOf(revised, "insufficient"), revision: 0 });
    const afterRevision = await campaignFit(db(), campaign);
    expect(fitCount()).toBe(fits + 2);
    expect(afterRevision.votes).toBe(24);
    expect(afterRevision.posteriors.get(revisedPassage)!).not.toBe(before);
    // The spammer never said insufficient before; now once, on a passage the fit holds sufficient.
    expect(afterPause.errors.get(spammers[1]!.id)!["insufficient|sufficient"] ?? 0).toBeLessThan(1e-6);
    expect(afterRevision.errors.get(spammers[1]!.id)!["insufficient|sufficient"]).toBeGreaterThan(0.05);

    // One new judgment: a refit, and it counts.
    const other = await makeAnnotator(db());
    const t = await nextTask(db(), other, { campaignId: c.campaignId });
    await submitJudgment(db(), other, t!.claim.handle, judgmentOf(t!, careful(t!.passage.paragraphs[0]!.id)));
    const one = await campaignFit(db(), campaign);
    expect(fitCount()).toBe(fits + 3);
    expect(one.votes).toBe(25);
    expect(one.judgments.get(other.id)).toBe(1);

    // The careful newcomer fills the reopened slots: paragraphs 1 and 2 are endorsed again, 3 and 4 not.
    await judge(db(), other, c.campaignId, careful);
    const refilled = await exported(db(), c);
    expect(paragraphsOf(refilled.items)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
  });
});
