import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { passages, queries } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/errors";
import { makeAnnotator } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { source } from "@/test/kilt-lines";
import { nextTask } from "../annotate/assignment";
import { judgmentInputSchema, type JudgmentInput } from "../annotate/judgment-input";
import type { Task } from "../annotate/judging.contract";
import { submitJudgment } from "../annotate/judgments";
import { changeBatchStatus } from "../batches";
import { createCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { createCampaignSchema } from "../settings.contract";
import { getStanding } from "./standings";

// Decoys for fact checking and entity linking against a cheater: the team's FEVER and AIDA fixtures
// (test/fixtures/kinds) imported with decoys, the gold rule on; a bot answering every passage
// sufficient is paused by the decoys, a careful annotator is not.

const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/kinds");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file));
const RULE = { goldMinJudgments: 2, goldAccuracyThreshold: 0.5, judgmentsPerPassage: 3 };

/** A stored passage and its question's answers (a fact-checking line's first answer is its label). */
type Truth = typeof passages.$inferSelect & { answers: string[] };

/** The bot: sufficient everywhere; SUPPORTS for a claim, no span for a mention, else the whole passage. */
function bot(t: Task): Record<string, unknown> {
  const p = t.passage.paragraphs[0]!;
  if (t.query.kind === "entity-linking") return { verdict: "sufficient", span: null };
  const text = p.text.replace(/\n$/, "");
  const span = { startParagraphId: p.id, startCharacter: 0, endParagraphId: p.id, endCharacter: Array.from(text).length, text };
  return { verdict: "sufficient", span, label: t.query.kind === "fact-checking" ? "SUPPORTS" : null };
}

/** The careful annotator: the truth of the passage (gold's expected verdict, label and span; a decoy insufficient). */
function careful(t: Task, truth: Truth): Record<string, unknown> {
  if (truth.expectedVerdict !== "sufficient") return { verdict: "insufficient", span: null };
  if (truth.expectedStartParagraphId === null || t.query.kind === "entity-linking")
    return { verdict: "sufficient", span: null, label: labelOf(t, truth) };
  const p = t.passage.paragraphs.find((x) => x.id === truth.expectedStartParagraphId)!;
  const [start, end] = [truth.expectedStartCharacter!, truth.expectedEndCharacter!];
  const text = Array.from(p.text).slice(start, end).join("");
  const span = { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: end, text };
  return { verdict: "sufficient", span, label: labelOf(t, truth) };
}

const labelOf = (t: Task, truth: Truth) => (t.query.kind === "fact-checking" ? truth.answers[0] : null);

describeEachDatabase("decoys for fact checking and entity linking against a cheater", ({ db }) => {
  beforeAll(async () => {
    // Fixed page ids: on the shared server the pages may be there from an earlier run (then unchanged).
    await importKnowledge(db(), system, { fileName: "knowledge.jsonl", source: source(read("knowledge.jsonl")) });
  });

  async function campaignOf(files: string[], decoysPer100: number) {
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("kind decoys"), decoysPer100, ...RULE }));
    const decoys: Record<string, number> = {};
    for (const file of files) {
      const result = await importBatch(db(), system, { campaignId: campaign.id, queries: { fileName: file, source: source(read(file)) } });
      decoys[file] = result.decoys;
      await changeBatchStatus(db(), system, result.batch.id, "launch");
    }
    return { campaignId: campaign.id, decoys };
  }

  /** The stored passage a task shows (the test's view of the truth; the annotator's browser never sees it). */
  async function truthOf(campaignId: number, t: Task): Promise<Truth> {
    const rows = await db()
      .select({ passage: passages, answers: queries.answers })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(
        and(
          eq(passages.campaignId, campaignId),
          eq(queries.kiltId, t.query.id),
          eq(passages.wikipediaId, t.passage.wikipediaId),
          eq(passages.startParagraphId, t.passage.paragraphs[0]!.id),
        ),
      );
    expect(rows).toHaveLength(1);
    return { ...rows[0]!.passage, answers: rows[0]!.answers };
  }

  /** Plays every task the annotator is given until none is left or they are paused; returns the kinds of passage judged. */
  async function play(who: UserActor, campaignId: number, answer: (t: Task, truth: Truth) => Record<string, unknown>) {
    const seen = { decoys: 0, kinds: new Set<string>() };
    for (;;) {
      const t = await nextTask(db(), who, { campaignId }).catch((e: unknown) => {
        if (e instanceof Error && /paused/i.test(e.message)) return null;
        throw e;
      });
      if (!t) return seen;
      const truth = await truthOf(campaignId, t);
      if (truth.isDecoy) seen.decoys++;
      seen.kinds.add(t.query.kind);
      const body: JudgmentInput = parseInput(judgmentInputSchema, { durationMs: 4000, idempotencyKey: unique("key"), ...answer(t, truth) });
      await submitJudgment(db(), who, t.claim.handle, body);
    }
  }

  it("pauses a bot that finds every claim and mention sufficient (every decoy it judged, wrong), and not a careful annotator who finds the decoys insufficient", async () => {
    const c = await campaignOf(["fever-dev-kilt.jsonl", "aidayago2-dev-kilt.jsonl"], 50);
    expect(c.decoys["fever-dev-kilt.jsonl"]).toBeGreaterThanOrEqual(2);
    expect(c.decoys["aidayago2-dev-kilt.jsonl"]).toBeGreaterThanOrEqual(2);
    const total = c.decoys["fever-dev-kilt.jsonl"]! + c.decoys["aidayago2-dev-kilt.jsonl"]!;

    const good = await makeAnnotator(db());
    const goodSeen = await play(good, c.campaignId, careful);
    expect(goodSeen.decoys).toBe(total);
    expect([...goodSeen.kinds].sort()).toEqual(["entity-linking", "fact-checking"]);
    const g = await getStanding(db(), system, c.campaignId, good.id);
    expect(g).toMatchObject({ status: "active", negativeGoldJudged: total, negativeGoldCorrect: total });
    expect(g.goldCorrect).toBe(g.goldJudged);

    const cheat = await makeAnnotator(db());
    await play(cheat, c.campaignId, (t) => bot(t));
    const s = await getStanding(db(), system, c.campaignId, cheat.id);
    expect(s).toMatchObject({ status: "paused", pauseReason: "gold_rule", negativeGoldCorrect: 0 });
  });

  // A bot right on every piece of evidence (entity linking: any sufficient verdict is; fact checking:
  // one lucky on label and span) passes sufficient gold: only negative gold can catch it, and the
  // fixtures hold none but the decoys.
  for (const file of ["fever-dev-kilt.jsonl", "aidayago2-dev-kilt.jsonl"]) {
    it(`${file}: a bot right on every evidence but finding everything sufficient is paused with decoys, and not without`, async () => {
      const lucky = (t: Task, truth: Truth) => (truth.expectedVerdict === "sufficient" ? careful(t, truth) : bot(t));
      for (const [decoysPer100, paused] of [
        [0, false],
        [50, true],
      ] as const) {
        const c = await campaignOf([file], decoysPer100);
        expect(c.decoys[file]! > 0).toBe(paused);
        const cheat = await makeAnnotator(db());
        const seen = await play(cheat, c.campaignId, file.startsWith("aida") ? (t) => bot(t) : lucky);
        const s = await getStanding(db(), system, c.campaignId, cheat.id);
        const where = `${file}, decoysPer100 ${decoysPer100}`;
        expect(s.goldCorrect - s.negativeGoldCorrect, where).toBe(s.goldJudged - s.negativeGoldJudged);
        expect(s.status, where).toBe(paused ? "paused" : "active");
        // Paused at its 2nd decoy, both wrong: (0.5 + 0) / (1 + 2) < 0.5.
        expect([s.negativeGoldJudged, s.negativeGoldCorrect, seen.decoys], where).toEqual(paused ? [2, 0, 2] : [0, 0, 0]);
      }
    });
  }
});
