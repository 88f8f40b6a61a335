import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { pages } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { expectValidKiltFile } from "@/test/kilt-checks";
import { nextTask } from "../annotate/assignment";
import type { Task } from "../annotate/judging.contract";
import { exportKilt, exportReport, type ExportReport } from "./export-kilt";
import { submitJudgment } from "../annotate/judgments";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";

type Plan = (t: Task, who: number) => "sufficient" | "insufficient";

async function judgeAll(db: Parameters<typeof nextTask>[0], annotators: UserActor[], campaignId: number, plan: Plan, only?: Set<string>) {
  for (const [who, a] of annotators.entries()) {
    for (let t = await nextTask(db, a, { campaignId }); t; t = await nextTask(db, a, { campaignId })) {
      if (only && !only.has(t.query.id)) {
        // Leave this question alone: release nothing, just stop (its claim expires later).
        break;
      }
      const p = t.passage.paragraphs[0]!;
      const verdict = plan(t, who);
      // Annotator k highlights from word k: overlapping, different highlights.
      const words = p.text.split(" ");
      const startUtf16 = words.slice(0, who).join(" ").length + (who ? 1 : 0);
      const text = words.slice(who, who + 3).join(" ");
      const start = Array.from(p.text.slice(0, startUtf16)).length;
      await submitJudgment(db, a, t.claim.handle, {
        verdict,
        span:
          verdict === "sufficient"
            ? { startParagraphId: p.id, startCharacter: start, endParagraphId: p.id, endCharacter: start + Array.from(text).length, text }
            : null,
        unreadable: false,
        durationMs: 900,
        idempotencyKey: unique("k"),
      });
    }
  }
}

async function exportText(db: Parameters<typeof nextTask>[0], campaignId: number, location: "span" | "passage" = "span") {
  let report: ExportReport | undefined;
  let text = "";
  for await (const line of exportKilt(db, system, campaignId, { location }, (r) => (report = r))) text += line;
  return { text, report: report! };
}

describeEachDatabase("KILT export", ({ db }) => {
  it("writes one output entry per endorsed passage, originals untouched, unanswerable questions left out", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2, settings: { goldAccuracyThreshold: 0 } });
    const annotators = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    const [q1, q2] = c.queryIds;
    // q1: gold (paragraph 1) sufficient for all; paragraph 2 sufficient for two of three; paragraph 3 for none.
    // q2: everything insufficient → its gold is not endorsed → unanswerable. q3: not judged.
    await judgeAll(
      db(),
      annotators,
      c.campaignId,
      (t, who) => {
        if (t.query.id !== q1) return "insufficient";
        const pid = t.passage.paragraphs[0]!.id;
        return pid === 1 || (pid === 2 && who < 2) ? "sufficient" : "insufficient";
      },
      new Set([q1!, q2!]),
    );

    const { text, report } = await exportText(db(), c.campaignId);
    const rows = expectValidKiltFile(text);
    expect(rows).toHaveLength(1);
    const line = text.slice(0, -1);
    expect(rows[0]!.id).toBe(q1);
    const original = `{"id":"${q1}","input":"question 0","output":[{"answer":"1871","provenance":[{"wikipedia_id":"${c.pageIds[0]}","start_paragraph_id":1,"end_paragraph_id":1}]}`;
    expect(line.startsWith(original)).toBe(true); // the original line, byte for byte, then the new entries
    const output = rows[0]!.output as { answer?: string; provenance?: Record<string, unknown>[] }[];
    expect(output).toHaveLength(3);
    const added = output.slice(1);
    expect(added.every((e) => e.provenance!.length === 1 && e.answer === undefined)).toBe(true);
    const [page] = await db().select().from(pages).where(eq(pages.wikipediaId, c.pageIds[0]!));
    for (const entry of added) {
      const item = entry.provenance![0]!;
      expect(item).toMatchObject({ wikipedia_id: c.pageIds[0], title: page!.title, section: "Section::::Abstract.", bleu_score: -1 });
      const loc = {
        startParagraphId: item.start_paragraph_id as number,
        startCharacter: item.start_character as number,
        endParagraphId: item.end_paragraph_id as number,
        endCharacter: item.end_character as number,
      };
      const consensus = sliceLocation(page!.paragraphs, loc)!;
      const meta = item.meta as {
        evidence_span: string[];
        votes: { sufficient: number; insufficient: number };
        passage: Record<string, number>;
      };
      // Every endorsing highlight is kept. Annotator k highlighted words k..k+2, so the code points at
      // least T = 2 highlights share are words 1–3 with three endorsers, and words 1–2 with two.
      expect(meta.evidence_span.length).toBe(meta.votes.sufficient);
      if (meta.votes.sufficient === 3) expect(consensus).toBe(meta.evidence_span[1]);
      else expect(consensus).toBe(meta.evidence_span[0]!.split(" ").slice(1).join(" "));
      expect(meta.passage.start_paragraph_id).toBe(loc.startParagraphId);
    }
    const votes = added.map((e) => (e.provenance![0]!.meta as { votes: { sufficient: number } }).votes.sufficient).sort();
    expect(votes).toEqual([2, 3]);
    // The 𐌅𐌄𐌋 paragraph: offsets count code points.
    const p2 = added.find((e) => e.provenance![0]!.start_paragraph_id === 2)!.provenance![0]!;
    expect(
      sliceLocation(page!.paragraphs, {
        startParagraphId: 2,
        startCharacter: p2.start_character as number,
        endParagraphId: 2,
        endCharacter: p2.end_character as number,
      }),
    ).toBe("𐌅𐌄𐌋 inscription");

    expect(report).toMatchObject({ queries: 3, queriesExported: 1, passagesEndorsed: 2, unanswerable: [q2], withoutEndorsement: 1 });

    const passageLevel = expectValidKiltFile((await exportText(db(), c.campaignId, "passage")).text);
    const items = (passageLevel[0]!.output as { provenance?: Record<string, unknown>[] }[]).slice(1).map((e) => e.provenance![0]!);
    expect(items.every((i) => i.start_character === -1 && i.end_character === -1 && i.start_paragraph_id === i.end_paragraph_id)).toBe(
      true,
    );
  });

  it("follows a pause: the paused annotator's votes stop endorsing, and resuming restores them", async () => {
    const c = await makeCampaign(db(), { queries: 1, candidates: 1, settings: { goldAccuracyThreshold: 0 } });
    const annotators = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), annotators, c.campaignId, (t, who) =>
      t.passage.paragraphs[0]!.id === 1 || who < 2 ? "sufficient" : "insufficient",
    );
    const entries = async () => {
      const rows = expectValidKiltFile((await exportText(db(), c.campaignId)).text);
      return rows.length ? (rows[0]!.output as unknown[]).length - 1 : 0;
    };
    expect(await entries()).toBe(2);
    await pauseAnnotator(db(), system, c.campaignId, annotators[0]!.id);
    expect(await entries()).toBe(1); // paragraph 2 keeps one sufficient vote: no longer endorsed
    expect((await exportReport(db(), system, c.campaignId, { location: "span" })).passagesEndorsed).toBe(1);
    await resumeAnnotator(db(), system, c.campaignId, annotators[0]!.id);
    expect(await entries()).toBe(2);
  });
});
