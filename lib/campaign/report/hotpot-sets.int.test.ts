// Multi-hop questions end to end, on the HotpotQA-shaped fixture (test/fixtures/hotpot): pairs of a
// question's top candidate pages become candidate sets at import, three annotators judge them, the
// pair of question 7 (each passage alone insufficient) is endorsed together, the KILT export holds it
// as one output entry of two provenance items, and the app's scorer gives it KILT's R-precision:
// 1 for a guess ranking both pages first, 0.5 for one ranking only one of them first.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system } from "@/lib/auth/actor";
import type { Task, TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import type { JsonlLine } from "@/lib/kilt/jsonl";
import { scoreFiles } from "@/lib/kilt/score/score-files";
import { makeAnnotators } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { HOTPOT_Q7, makeHotpotCampaign } from "@/test/hotpot-fixture";
import { judgeByPlan, type Plan } from "@/test/set-campaign";
import { exportKilt } from "./export-kilt";

const Q7_PAGES = HOTPOT_Q7.members.map((m) => m.wikipediaId);

/** The span of `phrase` in a passage's first paragraph (code points); the phrase must be there. */
function phraseIn(p: TaskPassage, phrase: string) {
  const para = p.paragraphs[0]!;
  const at = para.text.indexOf(phrase);
  if (at < 0) throw new Error(`"${phrase}" is not in ${p.title}`);
  const start = Array.from(para.text.slice(0, at)).length;
  return {
    startParagraphId: para.id,
    startCharacter: start,
    endParagraphId: para.id,
    endCharacter: start + Array.from(phrase).length,
    text: phrase,
  };
}

const isQ7Pair = (t: Task) =>
  t.query.id === HOTPOT_Q7.kiltId && JSON.stringify(t.members?.map((m) => m.wikipediaId)) === JSON.stringify(Q7_PAGES);

/**
 * A careful annotator: question 7's pair sufficient together, with "Marlowe Ferry" highlighted in
 * Aldric Venn's paragraph (where he was born) and "River Tessel" in Marlowe Ferry's (the river
 * there); every gold set sufficient with the first words of each member; everything else,
 * question 7's two passages alone included, insufficient.
 */
function careful(t: Task): Plan {
  if (isQ7Pair(t))
    return { verdict: "sufficient", spans: [phraseIn(t.members![0]!, "Marlowe Ferry"), phraseIn(t.members![1]!, "River Tessel")] };
  return { verdict: "insufficient" };
}

function linesOf(file: string, texts: string[]) {
  return {
    file,
    lines: (async function* (): AsyncGenerator<JsonlLine> {
      for (const [i, text] of texts.entries()) yield { lineNumber: i + 1, text };
    })(),
  };
}

/** A guess line for question 7 ranking these pages (page-level provenance). */
const guessOf = (pages: string[]) =>
  JSON.stringify({ id: HOTPOT_Q7.kiltId, input: "", output: [{ provenance: pages.map((wikipedia_id) => ({ wikipedia_id })) }] });

describeEachDatabase(
  "a HotpotQA-shaped campaign: pairs imported, judged by three, endorsed together, exported and scored as KILT",
  ({ db }) => {
    it("endorses question 7's pair together while each passage alone is insufficient; exports it as one entry of two items; scores 1 and 0.5", async () => {
      const { campaignId, batchId, result } = await makeHotpotCampaign(db(), {
        sets: "pairs",
        withoutGold: [HOTPOT_Q7.kiltId],
        settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
      });
      expect(result.sets).toBeGreaterThanOrEqual(7 * 3); // three pairs of the top three pages per question
      const q7 = await q7Passages(db(), batchId);
      expect(q7.pair).toBeDefined();
      expect(q7.singles.map((s) => s.wikipedia_id).sort()).toEqual(expect.arrayContaining(Q7_PAGES));

      for (const a of await makeAnnotators(db(), 3)) await judgeByPlan(db(), a, campaignId, careful);

      const after = await q7Passages(db(), batchId);
      expect(after.pair).toMatchObject({ judgment_count: 3, sufficient_count: 3 });
      for (const page of Q7_PAGES)
        expect(
          after.singles.find((s) => s.wikipedia_id === page),
          `${page} alone`,
        ).toMatchObject({ judgment_count: 3, sufficient_count: 0 });

      const lines: string[] = [];
      for await (const line of exportKilt(db(), system, campaignId, { location: "span" }, () => {})) lines.push(String(line));
      const text = lines.join("");
      const exported = text
        .split("\n")
        .filter(Boolean)
        .map(
          (l) =>
            JSON.parse(l) as {
              id: string;
              output: { provenance?: { wikipedia_id: string; start_character?: number; end_character?: number }[] }[];
            },
        );
      const line = exported.find((l) => l.id === HOTPOT_Q7.kiltId)!;
      const entries = line.output.filter((o) => o.provenance?.length);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.provenance!.map((p) => p.wikipedia_id)).toEqual(Q7_PAGES);
      // Each item at the highlight the three annotators gave in that member.
      const paragraphOne = await paragraphsOne(db(), Q7_PAGES);
      expect(
        entries[0]!.provenance!.map((p) => Array.from(paragraphOne[p.wikipedia_id]!).slice(p.start_character, p.end_character).join("")),
      ).toEqual(["Marlowe Ferry", "River Tessel"]);

      const gold = text.split("\n").filter((l) => l.includes(`"${HOTPOT_Q7.kiltId}"`));
      const rprec = async (pages: string[]) => {
        const scored = await scoreFiles({
          gold: linesOf("export.jsonl", gold),
          guess: linesOf("guess.jsonl", [guessOf(pages)]),
          ks: [1, 2],
          levels: ["page"],
        });
        if (!scored.ok) throw new Error(JSON.stringify(scored.problems));
        return scored.result.page!.Rprec;
      };
      expect(await rprec([Q7_PAGES[0]!, Q7_PAGES[1]!, "9300011"])).toBe(1);
      expect(await rprec([Q7_PAGES[0]!, "9300011", Q7_PAGES[1]!])).toBe(0.5);
    });
  },
);

interface PassageCounts {
  wikipedia_id: string;
  set_key: string;
  judgment_count: number;
  sufficient_count: number;
}

/** Question 7's pair (its set_key) and its single passages, with their counters. */
async function q7Passages(db: Db, batchId: number) {
  const rows = rowsOf<PassageCounts>(
    await db.execute(sql`select p.wikipedia_id, p.set_key, p.judgment_count::int as judgment_count, p.sufficient_count::int as sufficient_count
      from passages p join queries q on q.id = p.query_id
      where q.batch_id = ${batchId} and q.kilt_id = ${HOTPOT_Q7.kiltId} and p.start_paragraph_id = 1`),
  );
  return {
    pair: rows.find((r) => r.wikipedia_id === Q7_PAGES[0] && r.set_key === HOTPOT_Q7.setKey),
    singles: rows.filter((r) => r.set_key === ""),
  };
}

/** Paragraph 1 of each page (the second element of the 1-based array), by wikipedia id. */
async function paragraphsOne(db: Db, ids: string[]): Promise<Record<string, string>> {
  const rows = rowsOf<{ wikipedia_id: string; text: string }>(
    await db.execute(
      sql`select wikipedia_id, paragraphs[2] as text from pages where wikipedia_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    ),
  );
  return Object.fromEntries(rows.map((r) => [r.wikipedia_id, r.text]));
}
