import { expect, it } from "vitest";
import { users } from "@/db/schema";
import { eq } from "drizzle-orm";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { nextTask } from "../annotate/assignment";
import { exportJudgments } from "./export-judgments";
import { submitJudgment } from "../annotate/judgments";
import { pauseAnnotator } from "../quality/standings";

async function collect(lines: AsyncGenerator<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

describeEachDatabase("judgments export", ({ db }) => {
  it("writes one snake_case line per judgment, annotators by pseudonym, spans in code points", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    for (const who of [a, b]) {
      for (let t = await nextTask(db(), who, { campaignId: c.campaignId }); t; t = await nextTask(db(), who, { campaignId: c.campaignId })) {
        const p = t.passage.paragraphs[0]!;
        const word = p.id === 2 ? "1871" : null;
        const start = word ? Array.from(p.text.slice(0, p.text.indexOf(word))).length : 0;
        await submitJudgment(db(), who, t.claim.handle, {
          verdict: word ? "sufficient" : "insufficient",
          span: word ? { startParagraphId: 2, startCharacter: start, endParagraphId: 2, endCharacter: start + 4, text: word } : null,
          unreadable: false,
          durationMs: 1234,
          idempotencyKey: unique("k"),
        });
      }
    }
    await pauseAnnotator(db(), system, c.campaignId, b.id);

    const lines = await collect(exportJudgments(db(), system, c.campaignId));
    expect(lines).toHaveLength(8); // 2 annotators × 2 questions × 2 passages
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    // Compact JSON with the keys in the documented order (the server builds the lines), times in UTC to the millisecond.
    expect(lines.every((l) => l === JSON.stringify(JSON.parse(l)) + "\n")).toBe(true);
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ["annotator", "batch_id", "counted", "created_at", "duration_ms", "end_paragraph_id", "is_gold", "passage_id", "query_id", "span", "start_paragraph_id", "unreadable", "verdict", "wikipedia_id"].sort(),
    );
    const [pa] = await db().select({ pseudonym: users.pseudonym }).from(users).where(eq(users.id, a.id));
    expect(rows.filter((r) => r.annotator === pa!.pseudonym)).toHaveLength(4);
    expect(JSON.stringify(rows)).not.toContain(a.username);
    expect(rows.filter((r) => r.is_gold)).toHaveLength(4);
    expect(rows.filter((r) => r.counted === false)).toHaveLength(4);
    const spans = rows.filter((r) => r.span !== null).map((r) => r.span as Record<string, unknown>);
    expect(spans).toHaveLength(4);
    expect(spans[0]).toMatchObject({ start_paragraph_id: 2, end_paragraph_id: 2, text: "1871" });
    expect((spans[0]!.end_character as number) - (spans[0]!.start_character as number)).toBe(4);
    expect(new Set(rows.map((r) => r.query_id))).toEqual(new Set(c.queryIds));
    expect(rows.every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r.created_at as string))).toBe(true);
    expect(Object.keys(rows[0]!)).toEqual(["query_id", "passage_id", "wikipedia_id", "start_paragraph_id", "end_paragraph_id", "annotator", "verdict", "unreadable", "span", "is_gold", "counted", "batch_id", "duration_ms", "created_at"]);

    const anon = await makeAnnotator(db());
    await expect(collect(exportJudgments(db(), anon, c.campaignId))).rejects.toBeInstanceOf(AppError);
  });
});
