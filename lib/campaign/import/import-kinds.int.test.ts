import fs from "node:fs";
import path from "node:path";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { batches, pages, passages, queries, type TaskKind } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { answerTokens, normalizeAnswer } from "@/lib/kilt/answer-overlap";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { taskLineSchema } from "@/lib/kilt/schemas";
import { describeEachDatabase, unique } from "@/test/databases";
import { source } from "@/test/kilt-lines";
import { createCampaign } from "../campaigns";
import { createCampaignSchema } from "../settings.contract";
import { claimContentTokens } from "./decoy-rules";
import { importBatch } from "./import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";

// KILT's five tasks at import: the team's fixtures (test/fixtures/kinds/README.md), one per dataset
// shape, detected and stored with their kind and dataset, their provenance made gold; and hostile
// lines for each kind refused on their line, with nothing stored.

const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/kinds");
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file));

interface Fixture {
  file: string;
  kind: TaskKind;
  dataset: string;
  reason: string;
  /** Per provenance item, in file order: the text its code-point offsets slice, or null (page-level). */
  evidence: (string | null)[];
}

const fixtures: Fixture[] = [
  {
    file: "fever-dev-kilt.jsonl",
    kind: "fact-checking",
    dataset: "fever",
    reason: "Detected fact checking: the file name fever-dev-kilt.jsonl names FEVER, a fact checking dataset.",
    evidence: [
      "The tower was first lit on 3 March 1871.",
      "It was designed by the engineer Ana Ferrand.",
      "She trained in Lisbon and returned to Velmora in 1858",
      "Ana Ferrand (1829–1904) was a Velmoran civil engineer who built lighthouses and harbour walls.",
      "The last resident keeper left in 1964",
    ],
  },
  {
    file: "trex-dev-kilt.jsonl",
    kind: "slot-filling",
    dataset: "trex",
    reason: "Detected slot filling: the file name trex-dev-kilt.jsonl names T-REx, a slot filling dataset.",
    evidence: ["crosses the River Tamsin", "The bridge was designed by Lise Okonkwo", "She died in Port Alder in 1941."],
  },
  {
    file: "structured_zeroshot-dev-kilt.jsonl",
    kind: "slot-filling",
    dataset: "structured_zeroshot",
    reason: "Detected slot filling: the file name structured_zeroshot-dev-kilt.jsonl names Zero Shot RE, a slot filling dataset.",
    evidence: ["She studied at the Royal Technical School of Velmora.", "Lise Okonkwo (born 1868)", "was a Velmoran civil engineer"],
  },
  {
    file: "aidayago2-dev-kilt.jsonl",
    kind: "entity-linking",
    dataset: "aidayago2",
    reason: "Detected entity linking: the file name aidayago2-dev-kilt.jsonl names AIDA CoNLL-YAGO, an entity linking dataset.",
    evidence: [null, null, null],
  },
  {
    file: "wow-dev-kilt.jsonl",
    kind: "dialogue",
    dataset: "wow",
    reason: "Detected dialogue: the file name wow-dev-kilt.jsonl names Wizard of Wikipedia, a dialogue dataset.",
    evidence: [
      "founded in 1923 by the glazier Marta Kestrel",
      "paints its glass with iron oxide enamel and fires each panel twice in a wood-fired kiln",
      "Its best-known window fills the west wall of the harbour chapel",
      "shows the herring fleet at sea",
    ],
  },
  {
    file: "nq-dev-kilt.jsonl",
    kind: "qa",
    dataset: "nq",
    reason: "Detected open-domain QA: the file name nq-dev-kilt.jsonl names Natural Questions, an open-domain QA dataset.",
    evidence: [
      "The tower was first lit on 3 March 1871.",
      "runs 14 kilometres along the coast of Velmora",
      "It was designed by the engineer Ana Ferrand.",
      "Ana Ferrand (1829–1904) was a Velmoran civil engineer who built lighthouses and harbour walls.",
    ],
  },
  {
    file: "eli5-dev-kilt.jsonl",
    kind: "qa",
    dataset: "eli5",
    reason: "Detected open-domain QA: the file name eli5-dev-kilt.jsonl names ELI5, an open-domain QA dataset.",
    evidence: [
      "The cold water chills the air from below until it reaches its dew point, and the water vapour condenses into droplets small enough to hang in the air.",
      "sounded fog horns because a beam of light does not carry far through the droplets",
    ],
  },
];

/** The gold a task file's provenance should make, in file order (the import's rule: no paragraph ids → paragraph 1). */
function expectedGold(file: string) {
  const lines = read(file)
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => taskLineSchema.parse(JSON.parse(l)));
  return lines.flatMap((line) =>
    line.output.flatMap((o) =>
      (o.provenance ?? []).map((p) => ({
        kiltId: line.id,
        wikipediaId: p.wikipedia_id,
        start: p.start_paragraph_id ?? 1,
        end: p.end_paragraph_id ?? p.start_paragraph_id ?? 1,
        span:
          p.start_character === undefined
            ? null
            : [p.start_paragraph_id!, p.start_character, p.end_paragraph_id!, p.end_character!].join(":"),
      })),
    ),
  );
}

const problemSchema = z.object({ file: z.string(), line: z.number(), field: z.string(), message: z.string() });
const detailsSchema = z.object({ problems: z.array(problemSchema).min(1) });

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the import succeeded but should have been refused");
}

const KNOWLEDGE_PAGES = ["9100001", "9100002", "9100003", "9100004", "9100005", "9100006", "9100007", "9100008", "9100009"];

describeEachDatabase("import of KILT task kinds", ({ db }) => {
  beforeAll(async () => {
    // Fixed page ids: on the shared server the pages may be there from an earlier run (then unchanged).
    const result = await importKnowledge(db(), system, { fileName: "knowledge.jsonl", source: source(read("knowledge.jsonl")) });
    expect(result).toMatchObject({ lines: 9, skipped: 0 });
    expect(result.inserted + result.updated + result.unchanged).toBe(9);
    // The source's size, for sizing a text index: content paragraphs and the bytes of all paragraphs.
    const texts = read("knowledge.jsonl")
      .toString("utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { text: string[] }).text);
    const content = texts.flatMap((t) => t.slice(1)).filter((p) => !p.startsWith("Section::::") && p.trim() !== "");
    expect(result.paragraphs).toBe(content.length);
    expect(result.textBytes).toBe(texts.flat().reduce((n, p) => n + Buffer.byteLength(p), 0));
  });

  async function newCampaign(): Promise<number> {
    return (await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("kinds") }))).id;
  }

  function importFile(campaignId: number, file: string, fileName = path.basename(file), task?: TaskKind) {
    return importBatch(db(), system, { campaignId, topK: 4, task, queries: { fileName, source: source(read(file)) } });
  }

  async function storedBatch(batchId: number) {
    const [row] = await db()
      .select({ taskKind: batches.taskKind, dataset: batches.dataset, reason: batches.taskKindReason })
      .from(batches)
      .where(eq(batches.id, batchId));
    return row;
  }

  async function storedCounts(campaignId: number) {
    const n = async (table: typeof batches | typeof queries | typeof passages) =>
      (await db().select({ n: count() }).from(table).where(eq(table.campaignId, campaignId)))[0]?.n;
    return { batches: await n(batches), queries: await n(queries), passages: await n(passages) };
  }

  it("the knowledge file holds every page the fixtures cite, title paragraph first, every paragraph ending in a newline", async () => {
    const stored = await db().select().from(pages).where(inArray(pages.wikipediaId, KNOWLEDGE_PAGES)).orderBy(asc(pages.wikipediaId));
    expect(stored.map((p) => p.wikipediaId)).toEqual(KNOWLEDGE_PAGES);
    for (const p of stored) {
      expect(p.paragraphs[0]).toBe(`${p.title}\n`);
      expect(p.paragraphs.every((t) => t.endsWith("\n"))).toBe(true);
    }
    const cited = new Set(fixtures.flatMap((f) => expectedGold(f.file).map((g) => g.wikipediaId)));
    expect([...cited].every((id) => KNOWLEDGE_PAGES.includes(id))).toBe(true);
  });

  for (const f of fixtures) {
    it(`${f.file}: detected as ${f.kind} (${f.dataset}), stored so, its provenance made gold at the right code points`, async () => {
      const campaignId = await newCampaign();
      const expected = expectedGold(f.file);
      expect(expected).toHaveLength(f.evidence.length);
      const result = await importFile(campaignId, f.file);
      expect(result.task).toEqual({ kind: f.kind, detected: f.kind, dataset: f.dataset, reason: f.reason });
      expect(await storedBatch(result.batch.id)).toEqual({ taskKind: f.kind, dataset: f.dataset, reason: f.reason });
      expect(result).toMatchObject({ goldPassages: expected.length, decoys: 0, candidatePassages: 0 });

      const gold = await db()
        .select({ kiltId: queries.kiltId, passage: passages, paragraphs: pages.paragraphs })
        .from(passages)
        .innerJoin(queries, eq(queries.id, passages.queryId))
        .innerJoin(pages, eq(pages.wikipediaId, passages.wikipediaId))
        .where(and(eq(passages.batchId, result.batch.id), eq(passages.isGold, true)))
        .orderBy(asc(queries.lineNumber), asc(passages.id));
      const key = (g: { kiltId: string; wikipediaId: string; start: number }) => `${g.kiltId} ${g.wikipediaId} ${g.start}`;
      const byKey = new Map(gold.map((g) => [key({ kiltId: g.kiltId, ...g.passage, start: g.passage.startParagraphId }), g]));
      expect(byKey.size).toBe(expected.length);
      expected.forEach((e, i) => {
        const row = byKey.get(key(e));
        expect(row, key(e)).toBeDefined();
        const p = row!.passage;
        expect({ end: p.endParagraphId, verdict: p.expectedVerdict }).toEqual({ end: e.end, verdict: "sufficient" });
        const span =
          p.expectedStartCharacter === null
            ? null
            : [p.expectedStartParagraphId, p.expectedStartCharacter, p.expectedEndParagraphId, p.expectedEndCharacter].join(":");
        expect(span).toBe(e.span);
        const evidence = f.evidence[i];
        if (evidence === null) {
          // Page-level provenance (entity linking): the page's lead passage, paragraph 1, the first after the title.
          expect([p.startParagraphId, p.endParagraphId]).toEqual([1, 1]);
          expect(row!.paragraphs[1]).not.toMatch(/^Section::::/);
        } else {
          const loc = {
            startParagraphId: p.expectedStartParagraphId!,
            startCharacter: p.expectedStartCharacter!,
            endParagraphId: p.expectedEndParagraphId!,
            endCharacter: p.expectedEndCharacter!,
          };
          expect(sliceLocation(row!.paragraphs, loc)).toBe(evidence);
        }
      });
    });
  }

  it("makes decoys for every kind, each by its kind's rule: fact checking shares no content word of the claim, entity linking is another page's lead", async () => {
    const importDecoys = async (file: string) => {
      const campaignId = (await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("decoys"), decoysPer100: 50 }))).id;
      const result = await importFile(campaignId, file);
      const rows = await db()
        .select({ kiltId: queries.kiltId, input: queries.input, answers: queries.answers, passage: passages })
        .from(passages)
        .innerJoin(queries, eq(queries.id, passages.queryId))
        .where(eq(passages.campaignId, campaignId));
      const decoys = rows.filter((r) => r.passage.isDecoy);
      expect(decoys).toHaveLength(result.decoys);
      for (const d of decoys)
        expect(d.passage).toMatchObject({ isGold: true, expectedVerdict: "insufficient", origins: [{ kind: "decoy" }] });
      return { decoys, rows };
    };
    const pageRows = await db().select().from(pages).where(inArray(pages.wikipediaId, KNOWLEDGE_PAGES));
    const pageOf = (id: string) => pageRows.find((p) => p.wikipediaId === id)!;

    // Fact checking: a paragraph of one of the claim's pages without any of the claim's content words.
    const fever = await importDecoys("fever-dev-kilt.jsonl");
    expect(fever.decoys.length).toBeGreaterThanOrEqual(2);
    for (const d of fever.decoys) {
      const words = claimContentTokens(d.input);
      expect(words.size).toBeGreaterThan(0);
      expect(words.has("was") || words.has("the")).toBe(false);
      const text = pageOf(d.passage.wikipediaId).paragraphs[d.passage.startParagraphId]!;
      expect(
        [...answerTokens(text)].filter((t) => words.has(t)),
        `${d.kiltId}: ${text}`,
      ).toEqual([]);
      const own = fever.rows.filter((r) => r.kiltId === d.kiltId && !r.passage.isDecoy).map((r) => r.passage.wikipediaId);
      expect(own).toContain(d.passage.wikipediaId);
    }

    // Entity linking: the lead of a page another mention uses, whose title is not this mention's answer.
    const aida = await importDecoys("aidayago2-dev-kilt.jsonl");
    expect(aida.decoys.length).toBeGreaterThanOrEqual(2);
    for (const d of aida.decoys) {
      expect(d.passage).toMatchObject({ startParagraphId: 1, endParagraphId: 1 });
      const title = pageOf(d.passage.wikipediaId).title;
      expect(d.answers.map(normalizeAnswer)).not.toContain(normalizeAnswer(title));
      const own = aida.rows.filter((r) => r.kiltId === d.kiltId && !r.passage.isDecoy).map((r) => r.passage.wikipediaId);
      expect(own).not.toContain(d.passage.wikipediaId);
      const others = aida.rows.filter((r) => r.kiltId !== d.kiltId && !r.passage.isDecoy).map((r) => r.passage.wikipediaId);
      expect(others).toContain(d.passage.wikipediaId);
    }

    // QA and slot filling as before: paragraphs without an answer token.
    for (const file of ["nq-dev-kilt.jsonl", "trex-dev-kilt.jsonl"]) {
      const { decoys } = await importDecoys(file);
      expect(decoys.length, file).toBeGreaterThan(0);
      for (const d of decoys) {
        const tokens = new Set(d.answers.flatMap((a) => [...answerTokens(a)]));
        const text = pageOf(d.passage.wikipediaId).paragraphs[d.passage.startParagraphId]!;
        expect(
          [...answerTokens(text)].filter((t) => tokens.has(t)),
          `${file} ${d.kiltId}`,
        ).toEqual([]);
      }
    }
  });

  it("stores numeric KILT ids (FEVER's) as strings, and every answer alias of slot filling", async () => {
    const campaignId = await newCampaign();
    await importFile(campaignId, "fever-dev-kilt.jsonl");
    await importFile(campaignId, "trex-dev-kilt.jsonl");
    const rows = await db().select().from(queries).where(eq(queries.campaignId, campaignId)).orderBy(asc(queries.id));
    expect(rows.slice(0, 4).map((q) => q.kiltId)).toEqual(["910001", "910002", "910003", "910004"]);
    expect(rows[4]).toMatchObject({ input: "Harrow Quay Bridge [SEP] crosses", answers: ["River Tamsin", "Tamsin", "Tamsin River"] });
  });

  it("the task option overrides detection: a FEVER file imported as QA is stored as QA, without FEVER, and says so", async () => {
    const campaignId = await newCampaign();
    const result = await importFile(campaignId, "fever-dev-kilt.jsonl", undefined, "qa");
    const reason =
      "Imported as open-domain QA, as chosen; detection said fact checking (the file name fever-dev-kilt.jsonl names FEVER, a fact checking dataset).";
    expect(result.task).toEqual({ kind: "qa", detected: "fact-checking", dataset: null, reason });
    expect(await storedBatch(result.batch.id)).toEqual({ taskKind: "qa", dataset: null, reason });

    const confirmed = await importFile(await newCampaign(), "fever-dev-kilt.jsonl", undefined, "fact-checking");
    expect(confirmed.task).toMatchObject({ kind: "fact-checking", detected: "fact-checking", dataset: "fever" });
    expect(confirmed.task.reason).toMatch(/^Detected fact checking: .*\. Confirmed by the import's task option\.$/);
  });

  it("unnamed files are detected by their lines and stored so, with no dataset", async () => {
    const cases: [string, TaskKind, string][] = [
      ["unnamed/claims.jsonl", "fact-checking", "Detected fact checking: every line's answers (4) are SUPPORTS or REFUTES."],
      ["unnamed/data.jsonl", "dialogue", "Detected dialogue: 2 of 3 lines hold a conversation of several turns, one per line."],
      ["unnamed/questions.jsonl", "qa", 'Detected open-domain QA: only 1 of 3 lines read "subject [SEP] relation", not all: QA.'],
    ];
    for (const [file, kind, reason] of cases) {
      const result = await importFile(await newCampaign(), file);
      expect(await storedBatch(result.batch.id), file).toEqual({ taskKind: kind, dataset: null, reason });
    }
  });

  const hostile: { file: string; task?: TaskKind; problems: [number, string, string][] }[] = [
    {
      file: "hostile/fever-labels-kilt.jsonl",
      problems: [
        [2, "output", "has the label 'NOT ENOUGH INFO'; fact checking takes KILT's labels SUPPORTS and REFUTES"],
        [3, "output", "has the label 'supports'"],
      ],
    },
    { file: "hostile/aidayago2-no-markers-kilt.jsonl", problems: [[2, "input", "must mark one mention as [START_ENT] mention [END_ENT]"]] },
    { file: "hostile/aidayago2-two-mentions-kilt.jsonl", problems: [[2, "input", "must mark one mention"]] },
    { file: "hostile/wow-empty-turn-kilt.jsonl", problems: [[2, "input", "turn 2 of 3 is empty"]] },
    {
      file: "hostile/trex-no-sep-kilt.jsonl",
      problems: [
        [2, "input", 'must read "subject [SEP] relation"'],
        [3, "input", "one [SEP], text on both sides"],
      ],
    },
    {
      file: "unnamed/questions.jsonl",
      task: "slot-filling",
      problems: [
        [1, "input", "for slot filling"],
        [3, "input", "for slot filling"],
      ],
    },
  ];
  for (const h of hostile) {
    const name = path.basename(h.file);
    it(`refuses ${name}${h.task ? ` as ${h.task}` : ""}: ${h.problems.map(([l, f]) => `line ${l} ${f}`).join(", ")}; stores nothing`, async () => {
      const campaignId = await newCampaign();
      const error = await rejectionOf(importFile(campaignId, h.file, name, h.task));
      expect({ code: error.code, status: error.status }).toEqual({ code: "invalid", status: 422 });
      const [line, field, message] = h.problems[0]!;
      expect(error.message).toMatch(new RegExp(`^Nothing was imported\\. ${name.replaceAll(".", "\\.")} line ${line}, ${field}: `));
      expect(error.message).toContain(message);
      const { problems } = detailsSchema.parse(error.details);
      expect(problems.map((p) => [p.file, p.line, p.field])).toEqual(h.problems.map(([l, f]) => [name, l, f]));
      h.problems.forEach(([, , part], i) => expect(problems[i]!.message).toContain(part));
      expect(await storedCounts(campaignId)).toEqual({ batches: 0, queries: 0, passages: 0 });
    });
  }

  it("the same hostile lines import when the task option takes them as QA", async () => {
    const result = await importFile(await newCampaign(), "hostile/fever-labels-kilt.jsonl", undefined, "qa");
    expect(result).toMatchObject({ queries: 3, task: { kind: "qa", detected: "fact-checking", dataset: null } });
  });
});
