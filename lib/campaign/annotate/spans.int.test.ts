import { expect, it } from "vitest";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { makeAnnotator } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { nextTask } from "./assignment";
import type { Task } from "./judging.contract";
import { changeBatchStatus } from "../batches";
import { createCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { submitJudgment } from "./judgments";
import { createCampaignSchema } from "../settings.contract";

const paragraphs = [
  "Scripts\n",
  "Old Italic 𐌅𐌄𐌋 and emoji 🏛️ come before the Acade\u0301mie of Saint-Re\u0301my.\n",
  "白凪月橋は美しい橋です。The bridge is 412 m long.\n",
  "בעברית: שלום עולם, and back to English at the end.\n",
];

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

/** Code-point offsets of `needle` in paragraph `p`. */
function at(p: number, needle: string): { paragraph: number; start: number; end: number } {
  const text = paragraphs[p]!;
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`'${needle}' not in paragraph ${p}`);
  const start = Array.from(text.slice(0, i)).length;
  return { paragraph: p, start, end: start + Array.from(needle).length };
}

describeEachDatabase("spans in code points", ({ db }) => {
  async function task(): Promise<{
    task: Task;
    submit: (span: {
      startParagraphId: number;
      startCharacter: number;
      endParagraphId: number;
      endCharacter: number;
      text: string;
    }) => Promise<string>;
  }> {
    const pageId = unique("page");
    await importKnowledge(db(), system, {
      fileName: "k.jsonl",
      source: source(JSON.stringify({ wikipedia_id: pageId, wikipedia_title: "Scripts", text: paragraphs })),
    });
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("spans") }));
    const line = {
      id: unique("q"),
      input: "how long is the bridge",
      output: [{ provenance: [{ wikipedia_id: pageId, start_paragraph_id: 1, end_paragraph_id: 3 }] }],
    };
    const { batch } = await importBatch(db(), system, {
      campaignId: campaign.id,
      topK: 4,
      queries: { fileName: "q.jsonl", source: source(JSON.stringify(line)) },
    });
    await changeBatchStatus(db(), system, batch.id, "launch");
    const a = await makeAnnotator(db());
    const t = (await nextTask(db(), a, { campaignId: campaign.id }))!;
    return {
      task: t,
      submit: async (span) => {
        try {
          await submitJudgment(db(), a, t.claim.handle, {
            verdict: "sufficient",
            span,
            unreadable: false,
            durationMs: 10,
            idempotencyKey: unique("key"),
          });
          return "ok";
        } catch (error) {
          if (error instanceof AppError) return `${error.status}`;
          throw error;
        }
      },
    };
  }

  it("serves the passage's paragraphs verbatim with their sections", async () => {
    const { task: t } = await task();
    expect(t.passage.paragraphs.map((p) => p.text)).toEqual(paragraphs.slice(1));
    expect(t.passage.paragraphs.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(t.passage.paragraphs[0]!.section).toBe("Section::::Abstract.");
  });

  it("accepts exact code-point spans over non-BMP, combining marks, CJK, right-to-left text and across paragraphs", async () => {
    const cases = [at(1, "𐌅𐌄𐌋"), at(1, "Acade\u0301mie"), at(2, "白凪月橋"), at(3, "שלום עולם")];
    for (const c of cases) {
      const { submit } = await task();
      const span = {
        startParagraphId: c.paragraph,
        startCharacter: c.start,
        endParagraphId: c.paragraph,
        endCharacter: c.end,
        text: Array.from(paragraphs[c.paragraph]!).slice(c.start, c.end).join(""),
      };
      expect(await submit(span)).toBe("ok");
    }
    // From "Saint-Re\u0301my." in paragraph 1 across paragraph 2 into "בעברית" in paragraph 3.
    const from = at(1, "Saint");
    const to = at(3, "בעברית");
    const location = { startParagraphId: 1, startCharacter: from.start, endParagraphId: 3, endCharacter: to.end };
    const text = sliceLocation(paragraphs, location)!;
    expect(text.startsWith("Saint-Re\u0301my.\n白凪月橋")).toBe(true);
    expect(text.endsWith("412 m long.\nבעברית")).toBe(true);
    const { submit } = await task();
    expect(await submit({ ...location, text })).toBe("ok");
  });

  it("refuses UTF-16 offsets, a trimmed text, and a span that splits a surrogate pair", async () => {
    const c = at(1, "Acade\u0301mie");
    const utf16 = paragraphs[1]!.indexOf("Acade\u0301mie");
    const { submit } = await task();
    expect(
      await submit({ startParagraphId: 1, startCharacter: utf16, endParagraphId: 1, endCharacter: utf16 + 9, text: "Acade\u0301mie" }),
    ).toBe("422");
    expect(await submit({ startParagraphId: 1, startCharacter: c.start, endParagraphId: 1, endCharacter: c.end, text: "Académie" })).toBe(
      "422",
    ); // precomposed é
    const bmp = at(1, "𐌅");
    expect(
      await submit({ startParagraphId: 1, startCharacter: bmp.start, endParagraphId: 1, endCharacter: bmp.start + 1, text: "\ud800" }),
    ).toBe("422");
    expect(
      await submit({ startParagraphId: 1, startCharacter: c.start, endParagraphId: 1, endCharacter: c.end, text: "Acade\u0301mie" }),
    ).toBe("ok");
  });
});
