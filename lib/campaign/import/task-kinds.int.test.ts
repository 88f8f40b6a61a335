import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { batches, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { describeEachDatabase, unique } from "@/test/databases";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaign } from "../campaigns";
import { listBatches } from "../batches";
import { createCampaignSchema } from "../settings.contract";
import { importBatch } from "./import-batch";

// The import per KILT task kind: what the answer-overlap filter compares (tokens of the answers, the
// page's title, nothing) and what the text retrieval queries with. Pages and lines are made here;
// the comments say, for each candidate, why it is kept or dropped.

/** A file of JSON lines, as an upload hands it over. */
function jsonl(fileName: string, lines: unknown[]) {
  const bytes = Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return {
    fileName,
    source: (async function* () {
      yield bytes;
    })(),
  };
}

const PAGES: [id: string, title: string, paragraphs: string[]][] = [
  ["paris", "Paris", ["Paris is the capital of France.", "It lies on the Seine."]],
  ["paris-tx", "Paris, Texas", ["Paris is a city in Lamar County, Texas."]],
  ["france", "France", ["France is a country; its capital is Paris."]],
  ["hugo", "Victor Hugo", ["Victor Hugo was born in Besançon in 1802.", "He wrote Les Misérables."]],
  ["besancon", "Besançon", ["Besancon is a city in eastern France."]],
];

/** A provenance item (a gold or candidate passage) of one paragraph. */
const at = (tag: string, page: string, paragraph: number) => ({
  wikipedia_id: `${tag}-${page}`,
  start_paragraph_id: paragraph,
  end_paragraph_id: paragraph,
});

describeEachDatabase("the import per task kind", ({ db }) => {
  async function setUp() {
    const tag = unique("kinds");
    const knowledge = PAGES.map(([id, title, paragraphs]) => ({
      wikipedia_id: `${tag}-${id}`,
      wikipedia_title: title,
      text: [`${title}\n`, ...paragraphs.map((p) => `${p}\n`)],
    }));
    await importKnowledge(db(), system, jsonl("knowledge.jsonl", knowledge));
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("kinds") }));
    return { tag, campaign };
  }

  /** The batch's passages as "page paragraph origins", gold first. */
  async function stored(batchId: number, tag: string) {
    const rows = await db()
      .select({ page: passages.wikipediaId, start: passages.startParagraphId, isGold: passages.isGold, origins: passages.origins })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(eq(passages.batchId, batchId))
      .orderBy(asc(passages.wikipediaId), asc(passages.startParagraphId));
    return rows.map(
      (r) => `${r.page.replace(`${tag}-`, "")} ${r.start}${r.isGold ? " gold" : ""}: ${r.origins.map((o) => o.kind).join(", ")}`,
    );
  }

  it("entity linking keeps a candidate whose page bears one of the gold titles, whatever its words, and drops the others", async () => {
    const { tag, campaign } = await setUp();
    const line = {
      id: `${tag}-el1`,
      input: "The summit was held in [START_ENT] Paris [END_ENT] , the French capital .",
      output: [{ answer: "the paris", provenance: [{ ...at(tag, "paris", 1), title: "Paris" }] }],
    };
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: jsonl("el.jsonl", [line]),
      // paris-tx 1 and france 1 hold the word "Paris" (the token rule would keep them at any threshold) but
      // are other pages; paris 2 holds no answer word, but its page's title is the answer ("the paris",
      // normalised as KILT does: "paris"). The threshold 1 does not apply.
      candidates: jsonl("dpr.jsonl", [
        { id: line.id, output: [{ provenance: [at(tag, "paris-tx", 1), at(tag, "france", 1), at(tag, "paris", 2)] }] },
      ]),
      minAnswerOverlap: 1,
    });
    expect(result.task).toMatchObject({ kind: "entity-linking", detected: "entity-linking" });
    expect(await stored(result.batch.id, tag)).toEqual(["paris 1 gold: gold", "paris 2: retriever"]);
    expect(result.retrievers).toEqual([{ retriever: "dpr", read: 3, droppedByRank: 0, droppedByOverlap: 2, kept: 1, merged: 0 }]);
    expect(result.answerOverlap).toEqual({ threshold: 1, rule: "titles" });
  });

  it("fact checking drops no candidate for overlap (its answers are labels), and the report says the filter was off", async () => {
    const { tag, campaign } = await setUp();
    const line = {
      id: `${tag}-fc1`,
      input: "Paris is the capital of France.",
      output: [{ answer: "SUPPORTS", provenance: [at(tag, "paris", 1)] }],
    };
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: jsonl("claims.jsonl", [line]),
      // Neither holds the word "supports": the token rule would drop both.
      candidates: jsonl("dpr.jsonl", [{ id: line.id, output: [{ provenance: [at(tag, "hugo", 2), at(tag, "france", 1)] }] }]),
      minAnswerOverlap: 0.5,
    });
    expect(result.task.kind).toBe("fact-checking");
    expect(await stored(result.batch.id, tag)).toEqual(["france 1: retriever", "hugo 2: retriever", "paris 1 gold: gold"]);
    expect(result.retrievers).toEqual([{ retriever: "dpr", read: 2, droppedByRank: 0, droppedByOverlap: 0, kept: 2, merged: 0 }]);
    expect(result.answerOverlap).toEqual({ threshold: 0.5, rule: "off" });
  });

  it("slot filling keeps a candidate holding the object or one of its aliases (one output entry each), by the token rule", async () => {
    const { tag, campaign } = await setUp();
    const line = {
      id: `${tag}-sf1`,
      input: "Victor Hugo [SEP] place of birth",
      output: [{ answer: "Besançon", provenance: [at(tag, "hugo", 1)] }, { answer: "Besancon" }],
    };
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: jsonl("trex-dev-kilt.jsonl", [line]),
      // besancon 1 spells only the alias: kept by it. hugo 2 and france 1 hold neither: dropped.
      candidates: jsonl("dpr.jsonl", [
        { id: line.id, output: [{ provenance: [at(tag, "besancon", 1), at(tag, "hugo", 2), at(tag, "france", 1)] }] },
      ]),
      minAnswerOverlap: 1,
    });
    expect(result.task).toMatchObject({ kind: "slot-filling", dataset: "trex" });
    expect(await stored(result.batch.id, tag)).toEqual(["besancon 1: retriever", "hugo 1 gold: gold"]);
    expect(result.retrievers[0]).toMatchObject({ read: 3, droppedByOverlap: 2, kept: 1 });
    expect(result.answerOverlap).toEqual({ threshold: 1, rule: "tokens" });
    // The batch list shows the kind and the dataset.
    const listed = await listBatches(db(), system, campaign.id, { limit: 50 });
    expect(listed.rows.map((b) => [b.name, b.taskKind, b.dataset])).toEqual([["trex-dev-kilt.jsonl", "slot-filling", "trex"]]);
  });

  it("the text retrieval queries with what the input means for the kind, not with its markers", async () => {
    const { tag, campaign } = await setUp();
    const lines: [file: string, line: { id: string; input: string; output: { answer: string }[] }, query: string][] = [
      [
        "sf.jsonl",
        { id: `${tag}-sf`, input: "Victor Hugo [SEP] place of birth", output: [{ answer: "Besançon" }] },
        "Victor Hugo place of birth",
      ],
      [
        "el.jsonl",
        { id: `${tag}-el`, input: "Held in [START_ENT] Paris [END_ENT] , the capital .", output: [{ answer: "Paris" }] },
        "Held in Paris , the capital .",
      ],
      ["fc.jsonl", { id: `${tag}-fc`, input: "Paris is in France.", output: [{ answer: "REFUTES" }] }, "Paris is in France."],
      [
        "wow.jsonl",
        { id: `${tag}-wow`, input: "Hello\nI love Paris\nIt is the capital of France", output: [{ answer: "It is" }] },
        "I love Paris It is the capital of France",
      ],
      [
        "nq.jsonl",
        { id: `${tag}-qa`, input: "where was victor hugo born", output: [{ answer: "Besançon" }] },
        "where was victor hugo born",
      ],
    ];
    for (const [fileName, line, query] of lines) {
      const asked: string[] = [];
      const rankMany = async (_db: unknown, texts: string[], k: number) => {
        asked.push(...texts.map((text) => `${text} (k ${k})`));
        return texts.map(() => [{ wikipediaId: `${tag}-hugo`, paragraphId: 1, score: 1 }]);
      };
      const result = await importBatch(
        db(),
        system,
        { campaignId: campaign.id, queries: jsonl(fileName, [line]), retrieve: "text", retrieveTopK: 2 },
        { rankMany },
      );
      expect(asked, fileName).toEqual([`${query} (k 2)`]);
      expect(result.candidatePassages, fileName).toBe(1);
    }
    const kinds = await db()
      .select({ name: batches.name, kind: batches.taskKind })
      .from(batches)
      .where(eq(batches.campaignId, campaign.id));
    expect(kinds.map((b) => `${b.name} ${b.kind}`).sort()).toEqual([
      "el.jsonl entity-linking",
      "fc.jsonl fact-checking",
      "nq.jsonl qa",
      "sf.jsonl slot-filling",
      "wow.jsonl dialogue",
    ]);
  });
});
