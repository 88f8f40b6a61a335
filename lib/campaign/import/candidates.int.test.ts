import fs from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { createCampaign } from "../campaigns";
import { createCampaignSchema } from "../settings.contract";
import { importBatch, type BatchImportInput } from "./import-batch";
import { importKnowledge } from "../../knowledge/import-knowledge";
import { buildIndex, indexBuilt } from "@/lib/knowledge/index-build";
import { INDEX_NOT_BUILT } from "@/lib/knowledge/retrieve";

// The hand-checked fixture: test/fixtures/candidates-3/README.md tells what each candidate becomes and why.
const FIXTURE = path.resolve(import.meta.dirname, "../../../test/fixtures/candidates-3");

function file(name: string, tag: string, as = name) {
  const bytes = Buffer.from(fs.readFileSync(path.join(FIXTURE, name), "utf8").replaceAll("__T__", tag));
  return {
    fileName: as,
    source: (async function* () {
      yield bytes;
    })(),
  };
}

async function problemsOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("invalid");
  return ((error as AppError).details as { problems: { file?: string; line?: number; field: string; message: string }[] }).problems;
}

describeEachDatabase("candidates from several retrievers", ({ db }) => {
  async function setUp() {
    const tag = unique("c3");
    await importKnowledge(db(), system, file("knowledge.jsonl", tag));
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("candidates") }));
    return { tag, campaign };
  }

  /** Every stored passage of the batch as "question page start-end gold? origins", in a fixed order. */
  async function stored(batchId: number, tag: string) {
    const rows = await db()
      .select({
        q: queries.kiltId,
        page: passages.wikipediaId,
        start: passages.startParagraphId,
        end: passages.endParagraphId,
        isGold: passages.isGold,
        origins: passages.origins,
      })
      .from(passages)
      .innerJoin(queries, eq(queries.id, passages.queryId))
      .where(eq(passages.batchId, batchId))
      .orderBy(asc(queries.lineNumber), asc(passages.wikipediaId), asc(passages.startParagraphId), asc(passages.endParagraphId));
    const origin = (o: (typeof rows)[number]["origins"][number]) => (o.kind === "retriever" ? `${o.retriever}#${o.rank}` : o.kind);
    return rows.map(
      (r) =>
        `${r.q.replace(`${tag}-`, "")} ${r.page.replace(`${tag}-`, "")} ${r.start}-${r.end}${r.isGold ? " gold" : ""}: ${r.origins.map(origin).join(", ")}`,
    );
  }

  it("take the top K of each file, drop candidates sharing too little with every answer, merge by location with every origin", async () => {
    const { tag, campaign } = await setUp();
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: file("tasks.jsonl", tag),
      candidates: [file("dpr.jsonl", tag), file("tfidf.jsonl", tag), file("run-3.jsonl", tag)],
      perRetriever: 2,
      minAnswerOverlap: 0.1,
    });
    expect(await stored(result.batch.id, tag)).toEqual([
      "q1 light 3-3 gold: gold, dpr#1, bm25#1",
      "q1 light 3-4: bm25#2",
      "q2 ana 1-1: dpr#1, tfidf#1",
      "q2 ana 2-2 gold: gold",
      "q3 brenn 1-1: dpr#1, tfidf#1",
      "q3 brenn 2-2: dpr#2",
      "q3 brenn 3-3 gold: gold",
      "q4 code 1-1: dpr#1, bm25#2",
      "q4 code 2-2: bm25#1",
      "q4 code 3-3 gold: gold, dpr#2",
      "q5 code 2-2: bm25#1",
    ]);
    expect(result).toMatchObject({ queries: 5, passages: 11, goldPassages: 4, candidatePassages: 7, pages: 4 });
    expect(result.retrievers).toEqual([
      { retriever: "dpr", read: 9, droppedByRank: 1, droppedByOverlap: 3, kept: 6, merged: 5 },
      { retriever: "tfidf", read: 5, droppedByRank: 1, droppedByOverlap: 3, kept: 2, merged: 2 },
      { retriever: "bm25", read: 6, droppedByRank: 1, droppedByOverlap: 1, kept: 5, merged: 2 },
    ]);
  });

  it("without the overlap rule keep every candidate of the top K; topK is perRetriever's old name", async () => {
    const { tag, campaign } = await setUp();
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: file("tasks.jsonl", tag),
      candidates: file("dpr.jsonl", tag),
      topK: 1,
    });
    expect(await stored(result.batch.id, tag)).toEqual([
      "q1 light 3-3 gold: gold, dpr#1",
      "q2 ana 1-1: dpr#1",
      "q2 ana 2-2 gold: gold",
      "q3 brenn 1-1: dpr#1",
      "q3 brenn 3-3 gold: gold",
      "q4 code 1-1: dpr#1",
      "q4 code 3-3 gold: gold",
      "q5 code 1-1: dpr#1",
    ]);
    expect(result.retrievers).toEqual([{ retriever: "dpr", read: 5, droppedByRank: 5, droppedByOverlap: 0, kept: 5, merged: 1 }]);
  });

  it("refuse bad options, naming the field, and two files of one retriever name", async () => {
    const { tag, campaign } = await setUp();
    const attempt = (options: Partial<BatchImportInput>) =>
      problemsOf(
        importBatch(db(), system, {
          campaignId: campaign.id,
          queries: file("tasks.jsonl", tag),
          candidates: file("dpr.jsonl", tag),
          ...options,
        } as BatchImportInput),
      );
    for (const [options, field, message] of [
      [{ minAnswerOverlap: 1.5 }, "minAnswerOverlap", "must be between 0 and 1"],
      [{ minAnswerOverlap: -0.1 }, "minAnswerOverlap", "must be between 0 and 1"],
      [{ minAnswerOverlap: "much" }, "minAnswerOverlap", "must be a number between 0 and 1"],
      [{ perRetriever: 0 }, "perRetriever", "must be at least 1"],
      [{ perRetriever: 2.5 }, "perRetriever", "must be a whole number of candidates"],
      [{ topK: 0 }, "topK", "must be at least 1"],
      [{ topK: 3, perRetriever: 2 }, "topK", "is the old name of perRetriever: give one of them"],
      [{ retrieve: "bm25" }, "retrieve", 'must be "text" (rank the paragraphs of the text index), or left out'],
      [{ retrieveTopK: 3 }, "retrieveTopK", 'is the number of text-retrieval candidates: give it with retrieve "text"'],
      [{ retrieve: "text", retrieveTopK: 101 }, "retrieveTopK", "must be at most 100"],
    ] as const) {
      expect(await attempt(options as Partial<BatchImportInput>), JSON.stringify(options)).toEqual([{ field, message }]);
    }
    const twice = await attempt({ candidates: [file("dpr.jsonl", tag), file("dpr.jsonl", tag, "dpr.json")] });
    expect(twice).toEqual([
      {
        file: "dpr.json",
        line: 1,
        field: "(file)",
        message: "names the same retriever 'dpr' as dpr.jsonl: give each retriever's file its own name",
      },
    ]);
  });

  /** dpr.jsonl as a file of another name, its items naming `names[i]` on line i + 1 (undefined: no meta.retriever). */
  function named(tag: string, fileName: string, names: (string | undefined)[]) {
    const lines = fs
      .readFileSync(path.join(FIXTURE, "dpr.jsonl"), "utf8")
      .replaceAll("__T__", tag)
      .trim()
      .split("\n")
      .map((line, i) => {
        const v = JSON.parse(line) as { output: { provenance: { meta?: { retriever: string } }[] }[] };
        const name = names[i];
        if (name !== undefined) for (const item of v.output[0]!.provenance) item.meta = { retriever: name };
        return JSON.stringify(v);
      });
    const bytes = Buffer.from(lines.join("\n") + "\n");
    return {
      fileName,
      source: (async function* () {
        yield bytes;
      })(),
    };
  }

  it("count a line without meta.retriever as the retriever the file's other lines name, or the one given, and say so", async () => {
    const { tag, campaign } = await setUp();
    // Line 2 names none; the others say "dpr": one retriever, not "dpr" and "pilot-dpr".
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: file("tasks.jsonl", tag),
      candidates: named(tag, "pilot-dpr.jsonl", ["dpr", undefined, "dpr", "dpr", "dpr"]),
      perRetriever: 1,
    });
    expect(result.retrievers.map((r) => r.retriever)).toEqual(["dpr"]);
    expect(result.retrievers[0]).toMatchObject({ read: 5, kept: 5 });
    expect(result.retrieverDefaults).toEqual([{ file: "pilot-dpr.jsonl", lines: 1, retriever: "dpr" }]);
    expect(await stored(result.batch.id, tag)).toContain("q2 ana 1-1: dpr#1");

    // The retriever given for the lines without one wins; the lines that name one keep theirs.
    const given = await setUp();
    const withOption = await importBatch(db(), system, {
      campaignId: given.campaign.id,
      queries: file("tasks.jsonl", given.tag),
      candidates: named(given.tag, "pilot-dpr.jsonl", ["dpr", undefined, "dpr", undefined, "dpr"]),
      perRetriever: 1,
      retriever: "dpr-pilot",
    });
    expect(withOption.retrievers.map((r) => [r.retriever, r.read])).toEqual([
      ["dpr", 3],
      ["dpr-pilot", 2],
    ]);
    expect(withOption.retrieverDefaults).toEqual([{ file: "pilot-dpr.jsonl", lines: 2, retriever: "dpr-pilot" }]);

    // No line names one: the file's name, as before, and nothing to report.
    const plain = await setUp();
    const byName = await importBatch(db(), system, {
      campaignId: plain.campaign.id,
      queries: file("tasks.jsonl", plain.tag),
      candidates: file("dpr.jsonl", plain.tag, "pilot-dpr.jsonl"),
      perRetriever: 1,
    });
    expect(byName.retrievers.map((r) => r.retriever)).toEqual(["pilot-dpr"]);
    expect(byName.retrieverDefaults).toEqual([]);
  });

  it("refuse lines without meta.retriever when the others name several and none is given, naming the lines", async () => {
    const { tag, campaign } = await setUp();
    const problems = await problemsOf(
      importBatch(db(), system, {
        campaignId: campaign.id,
        queries: file("tasks.jsonl", tag),
        candidates: named(tag, "mixed.jsonl", ["dpr", undefined, "bm25", undefined, "dpr"]),
      }),
    );
    const message =
      "is missing, and the file's other lines name several retrievers (bm25, dpr): give each item its meta.retriever, or give the retriever of the lines without one (the Retriever field, kps batch import --retriever)";
    expect(problems).toEqual([
      { file: "mixed.jsonl", line: 2, field: "output[0].provenance.meta.retriever", message },
      { file: "mixed.jsonl", line: 4, field: "output[0].provenance.meta.retriever", message },
    ]);
    const twoFiles = await problemsOf(
      importBatch(db(), system, {
        campaignId: campaign.id,
        queries: file("tasks.jsonl", tag),
        candidates: [file("dpr.jsonl", tag), file("tfidf.jsonl", tag)],
        retriever: "dpr",
      }),
    );
    expect(twoFiles).toEqual([
      {
        field: "retriever",
        message:
          "is the retriever of one candidates file's items without meta.retriever: give it with one file, or give the items meta.retriever",
      },
    ]);
  });

  it("with retrieve text and no text index, refuse the import naming the field", async () => {
    const { tag, campaign } = await setUp();
    // A fresh PGlite has no index; on a PostgreSQL database an earlier run built it, so there the ranker
    // answers as rankParagraphsMany does without an index.
    const unbuilt = !(await indexBuilt(db()));
    const rankMany = unbuilt ? undefined : async () => Promise.reject(new AppError("conflict", INDEX_NOT_BUILT));
    const problems = await problemsOf(
      importBatch(db(), system, { campaignId: campaign.id, queries: file("tasks.jsonl", tag), retrieve: "text" }, { rankMany }),
    );
    expect(problems).toEqual([
      {
        field: "retrieve",
        message: "build the text index first: kps knowledge index (or Build the text index on the knowledge import page)",
      },
    ]);
  });

  it("with retrieve text, propose the best paragraphs of the index as candidates, merged with the files', filtered by overlap", async () => {
    const { tag, campaign } = await setUp();
    const word = `zq${tag.replace(/[^a-z]/g, "")}`; // a word only these pages hold, so the shared index ranks them first
    const page = {
      wikipedia_id: `${tag}-port`,
      wikipedia_title: `${word} harbour`,
      text: [
        `${word} harbour\n`,
        `The ${word} harbour opened in 1850 for fishing boats.\n`,
        `Its ${word} lighthouse was lit in 1871.\n`,
        "Section::::Today.\n",
        "Ferries leave every hour.\n",
      ],
    };
    const line = (v: unknown) => ({
      fileName: "x.jsonl",
      source: (async function* () {
        yield Buffer.from(JSON.stringify(v) + "\n");
      })(),
    });
    await importKnowledge(db(), system, line(page));
    await buildIndex(db(), system);
    const task = [
      { id: `${tag}-a`, input: `when was the ${word} lighthouse lit`, output: [{ answer: "1871" }] },
      { id: `${tag}-b`, input: `when did the ${word} harbour open for fishing boats`, output: [{ answer: "in 1850" }] },
      { id: `${tag}-c`, input: `how often do ${word} ferries leave`, output: [{ answer: "1904" }] },
    ];
    const tasks = {
      fileName: "t.jsonl",
      source: (async function* () {
        yield Buffer.from(task.map((t) => JSON.stringify(t)).join("\n") + "\n");
      })(),
    };
    const dpr = {
      ...line({ id: `${tag}-a`, output: [{ provenance: [{ wikipedia_id: `${tag}-port`, start_paragraph_id: 2, end_paragraph_id: 2 }] }] }),
      fileName: "dpr.jsonl",
    };
    const result = await importBatch(db(), system, {
      campaignId: campaign.id,
      queries: tasks,
      candidates: dpr,
      retrieve: "text",
      retrieveTopK: 1,
      minAnswerOverlap: 0.5,
    });
    const rows = await stored(result.batch.id, tag);
    // Hand-checked: the paragraph with the question's words ranks first (the word is on this page
    // only); c's (paragraph 4, "Ferries leave every hour.") lacks its answer and is dropped.
    expect(rows).toEqual(["a port 2-2: dpr#1, retrieval:text#1", "b port 1-1: retrieval:text#1"]);
    expect(result.retrievers).toEqual([
      { retriever: "dpr", read: 1, droppedByRank: 0, droppedByOverlap: 0, kept: 1, merged: 1 },
      { retriever: "retrieval:text", read: 3, droppedByRank: 0, droppedByOverlap: 1, kept: 2, merged: 1 },
    ]);
  });
});
