import { randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { rowsOf } from "@/db/client";
import { batches, pages, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";
import { describeEachDatabase, unique } from "@/test/databases";
import { createCampaign } from "../campaigns";
import { importBatch, MAX_TASK_LINE_BYTES } from "./import-batch";
import { importKnowledge, MAX_KNOWLEDGE_LINE_BYTES } from "../../knowledge/import-knowledge";
import { createCampaignSchema } from "../settings.contract";

// The corpus of bad files and what each must produce: test/fixtures/bad-imports/cases.json.
const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/bad-imports");

const importerSchema = z.enum(["knowledge", "queries", "candidates"]);
type Importer = z.infer<typeof importerSchema>;

const casesFileSchema = z.object({
  about: z.array(z.string()),
  cases: z.array(
    z
      .object({
        file: z.string().min(1),
        importer: importerSchema,
        line: z.number().int().nonnegative(),
        field: z.string(),
        message: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
        problems: z
          .array(z.tuple([z.number().int().nonnegative(), z.string()]))
          .min(2)
          .optional(),
        absentPages: z.array(z.string()).optional(),
        knownBug: z.string().min(1).optional(),
        about: z.string(),
      })
      .strict(),
  ),
});

interface BadCase {
  name: string;
  importer: Importer;
  /** The file's bytes, placeholders already replaced. */
  source: (tokens: Tokens) => AsyncIterable<Uint8Array>;
  line: number;
  field: string;
  message: string[];
  /** Every expected problem [line, field], in order. */
  problems: [number, string][];
  absentPages: string[];
  /** A bug in lib/ makes this case fail for now: it runs with it.fails (remove knownBug once fixed). */
  knownBug?: string;
}

type Tokens = Record<string, string>;

function readFixture(name: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES, name));
}

/** Replaces __NAME__ placeholders byte-for-byte (latin1 keeps every non-ASCII and invalid byte as it is). */
function fill(bytes: Buffer, tokens: Tokens): Buffer {
  const text = bytes.toString("latin1").replace(/__([A-Z][A-Z0-9_]*?)__/g, (match, name: string) => {
    const value = tokens[name];
    if (value === undefined) throw new Error(`unknown placeholder ${match}`);
    return value;
  });
  return Buffer.from(text, "latin1");
}

/** A source yielding `bytes` in one chunk, or in chunks of `size` bytes. */
function sourceOf(bytes: Uint8Array, size = Math.max(1, bytes.length)): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  })();
}

/** `firstLine`, then a line opening with `open` and longer than `limit`, streamed in 1 MiB chunks (never held whole). */
function overLongSource(firstLine: string, open: string, limit: number): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield Buffer.from(firstLine + "\n" + open);
    const mib = Buffer.alloc(1024 * 1024, "a");
    for (let written = 0; written <= limit; written += mib.length) yield mib;
    yield Buffer.from('"}\n');
  })();
}

function knowledgeLine(id: string, title: string, text: string[]): string {
  return JSON.stringify({ _id: id, wikipedia_id: id, wikipedia_title: title, text });
}

/** Paragraph 1 of the first setup page: 24 code points, 27 UTF-16 units (three letters outside the BMP). */
const NON_BMP_PARAGRAPH = "Old Italic 𐌅𐌄𐌋 letters.\n";

/** The pages every case may reference as __PAGE__ and __PAGE2__ (cases.json describes them). */
function setupKnowledge(page: string, page2: string): Buffer {
  return Buffer.from(
    [
      knowledgeLine(page, "Velmora Test Light", [
        "Velmora Test Light\n",
        NON_BMP_PARAGRAPH,
        "Section::::History.\n",
        "It was first lit in 1871.\n",
      ]),
      knowledgeLine(page2, "Ana Test", ["Ana Test\n", "Ana Test designed lighthouses.\n", "She died in 1904.\n"]),
    ].join("\n") + "\n",
  );
}

const NEW_PAGES = ["NEW_PAGE", "NEW_PAGE2", "NEW_PAGE3", "NEW_PAGE4", "NEW_PAGE5"];

const fileCases: BadCase[] = casesFileSchema
  .parse(JSON.parse(fs.readFileSync(path.join(FIXTURES, "cases.json"), "utf8")))
  .cases.map((c) => ({
    name: c.file,
    importer: c.importer,
    source: (tokens) => sourceOf(fill(readFixture(c.file), tokens)),
    line: c.line,
    field: c.field,
    message: typeof c.message === "string" ? [c.message] : c.message,
    problems: c.problems ?? [[c.line, c.field]],
    absentPages: c.absentPages ?? [],
    knownBug: c.knownBug,
  }));

const validKnowledge = (tokens: Tokens) => fill(readFixture("valid/knowledge.jsonl"), tokens);

/** A case whose bytes are made here: its one problem is on `line` (0: the file as a whole) and names no field. */
function generatedCase(name: string, importer: Importer, line: number, message: string[], source: BadCase["source"]): BadCase {
  return { name, importer, source, line, field: "", message, problems: [[line, ""]], absentPages: [] };
}

/** A good first line, then a line 2 over `limit` bytes; `lines` gives the first line and the opening of line 2. */
function overLongCase(name: string, importer: Importer, limit: number, lines: (tokens: Tokens) => [string, string]): BadCase {
  return generatedCase(name, importer, 2, [`is longer than the limit of ${limit} bytes`], (tokens) =>
    overLongSource(...lines(tokens), limit),
  );
}

// Cases whose bytes are made here: broken gzip, and lines over the length limits.
const generatedCases: BadCase[] = [
  generatedCase(
    "knowledge-truncated.jsonl.gz (a gzip file cut in half)",
    "knowledge",
    0,
    ["is not a valid gzip file", "unexpected end of file"],
    (tokens) => {
      const gz = gzipSync(validKnowledge(tokens));
      return sourceOf(gz.subarray(0, gz.length >> 1));
    },
  ),
  generatedCase(
    "knowledge-bad-crc.jsonl.gz (a gzip file whose CRC does not match)",
    "knowledge",
    0,
    ["is not a valid gzip file"],
    (tokens) => {
      const gz = Buffer.from(gzipSync(validKnowledge(tokens)));
      gz[gz.length - 8] = gz[gz.length - 8]! ^ 0xff; // first byte of the CRC-32 trailer
      return sourceOf(gz);
    },
  ),
  overLongCase(
    `queries-line-too-long.jsonl (line 2 over MAX_TASK_LINE_BYTES = ${MAX_TASK_LINE_BYTES})`,
    "queries",
    MAX_TASK_LINE_BYTES,
    (tokens) => [`{"id":"${tokens.QID}","input":"a short question","output":[{"answer":"x"}]}`, `{"id":"${tokens.QID2}","input":"`],
  ),
  overLongCase(`candidates-line-too-long.jsonl (line 2 over MAX_TASK_LINE_BYTES)`, "candidates", MAX_TASK_LINE_BYTES, (tokens) => [
    `{"id":"${tokens.QID}","output":[{"provenance":[{"wikipedia_id":"${tokens.PAGE}"}]}]}`,
    `{"id":"${tokens.QID2}","x":"`,
  ]),
  overLongCase(
    `knowledge-line-too-long.jsonl (line 2 over MAX_KNOWLEDGE_LINE_BYTES = ${MAX_KNOWLEDGE_LINE_BYTES})`,
    "knowledge",
    MAX_KNOWLEDGE_LINE_BYTES,
    (tokens) => [
      knowledgeLine(tokens.NEW_PAGE!, "Fine", ["Fine\n", "Fine.\n"]),
      `{"wikipedia_id":"${tokens.NEW_PAGE2}","wikipedia_title":"Huge","text":["`,
    ],
  ),
];

const problemSchema = z.object({ file: z.string(), line: z.number(), field: z.string(), message: z.string() });
const detailsSchema = z.object({ problems: z.array(problemSchema).min(1) });

/** Awaits `promise` and returns what it threw; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the import succeeded but should have been refused");
}

describe("the bad-imports corpus", () => {
  it("lists every file in cases.json, once", () => {
    const listed = fileCases.map((c) => c.name);
    const stored = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl"));
    expect([...listed].sort()).toEqual([...stored].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });
});

describeEachDatabase("import of bad files", ({ db, kind }) => {
  let page = "";
  let page2 = "";

  beforeAll(async () => {
    page = unique("page");
    page2 = unique("page");
    const result = await importKnowledge(db(), system, {
      fileName: "setup-knowledge.jsonl",
      source: sourceOf(setupKnowledge(page, page2)),
    });
    expect(result).toMatchObject({ lines: 2, pages: 2, inserted: 2, updated: 0, skipped: 0 });
  });

  /** Fresh values for every placeholder; __PAGE__ and __PAGE2__ are the imported setup pages. */
  function freshTokens(): Tokens {
    const tokens: Tokens = { PAGE: page, PAGE2: page2, NUM_QID: String(randomInt(1, 2 ** 47)) };
    for (const name of NEW_PAGES) tokens[name] = unique("page");
    for (const name of ["QID", "QID2", "QID3", "QID4"]) tokens[name] = unique("q");
    return tokens;
  }

  async function newCampaign(): Promise<number> {
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("c") }));
    return campaign.id;
  }

  async function countOf(table: typeof pages | typeof queries | typeof passages | typeof batches, where?: SQL): Promise<number> {
    const [row] = await db().select({ n: count() }).from(table).where(where);
    return row?.n ?? 0;
  }

  /**
   * What an import could have stored. The campaign's own rows and the named pages on every database;
   * on PGlite (a private database per test file, tests in sequence) also the whole tables and any
   * staging table left behind. The shared PostgreSQL server sees other suites' writes meanwhile.
   */
  async function snapshot(campaignId: number, pageIds: string[]) {
    const own = {
      batches: await countOf(batches, eq(batches.campaignId, campaignId)),
      queries: await countOf(queries, eq(queries.campaignId, campaignId)),
      passages: await countOf(passages, eq(passages.campaignId, campaignId)),
      pages: pageIds.length ? await countOf(pages, inArray(pages.wikipediaId, pageIds)) : 0,
    };
    if (kind !== "pglite") return { own };
    const [staging] = rowsOf<{ n: number }>(
      await db().execute(sql`select count(*)::int as n from pg_tables where tablename like 'kps_stage_%'`),
    );
    const all = {
      batches: await countOf(batches),
      queries: await countOf(queries),
      passages: await countOf(passages),
      pages: await countOf(pages),
      stagingTables: staging?.n ?? -1,
    };
    return { own, all };
  }

  function runImport(importer: Importer, campaignId: number, fileName: string, source: AsyncIterable<Uint8Array>, tokens: Tokens) {
    switch (importer) {
      case "knowledge":
        return importKnowledge(db(), system, { fileName, source });
      case "queries":
        return importBatch(db(), system, { campaignId, topK: 4, queries: { fileName, source } });
      case "candidates":
        return importBatch(db(), system, {
          campaignId,
          topK: 4,
          queries: { fileName: "queries.jsonl", source: sourceOf(fill(readFixture("valid/queries.jsonl"), tokens)) },
          candidates: { fileName, source },
        });
    }
  }

  it("the setup page has a paragraph whose UTF-16 length exceeds its code-point length", async () => {
    expect(NON_BMP_PARAGRAPH.length).toBe(27);
    expect(Array.from(NON_BMP_PARAGRAPH)).toHaveLength(24);
    const [stored] = await db().select().from(pages).where(eq(pages.wikipediaId, page));
    expect(stored?.paragraphs[1]).toBe(NON_BMP_PARAGRAPH);
  });

  for (const c of [...fileCases, ...generatedCases]) {
    const test = c.knownBug ? it.fails : it;
    test(`${c.knownBug ? "KNOWN BUG: " : ""}refuses ${c.name} (${c.importer}): line ${c.line}, ${c.field || "no field"}; stores nothing`, async () => {
      const tokens = freshTokens();
      const campaignId = await newCampaign();
      const watched = [...NEW_PAGES.map((n) => tokens[n]!), ...c.absentPages];
      const before = await snapshot(campaignId, watched);
      expect(before.own).toEqual({ batches: 0, queries: 0, passages: 0, pages: 0 });

      const fileName = c.name.split(" ")[0]!;
      const error = await rejectionOf(runImport(c.importer, campaignId, fileName, c.source(tokens), tokens));
      if (!(error instanceof AppError)) throw error;
      expect(error.code).toBe("invalid");
      expect(error.status).toBe(422);
      expect(error.message).toMatch(/^Nothing was imported\. /);

      const { problems } = detailsSchema.parse(error.details);
      const first = problems[0]!;
      expect({ file: first.file, line: first.line, field: first.field }).toEqual({ file: fileName, line: c.line, field: c.field });
      for (const part of c.message) expect(first.message).toContain(part);
      expect(error.message).toContain(first.message);
      expect(problems.map((p) => [p.line, p.field])).toEqual(c.problems);
      expect(problems.every((p) => p.file === fileName)).toBe(true);
      if (problems.length > 1) expect(error.message).toContain(`(and ${problems.length - 1} more problem`);

      expect(await snapshot(campaignId, watched)).toEqual(before);
    });
  }

  it("control: the companion files import as they are", async () => {
    const tokens = freshTokens();
    const campaignId = await newCampaign();
    const result = await runImport(
      "candidates",
      campaignId,
      "candidates.jsonl",
      sourceOf(fill(readFixture("valid/candidates.jsonl"), tokens)),
      tokens,
    );
    expect(result).toMatchObject({ queries: 2, passages: 4, goldPassages: 2, candidatePassages: 2, pages: 2 });
    const stored = await db().select().from(queries).where(eq(queries.campaignId, campaignId)).orderBy(asc(queries.lineNumber));
    expect(stored.map((q) => [q.kiltId, q.lineNumber])).toEqual([
      [tokens.QID, 1],
      [tokens.QID2, 2],
    ]);

    const knowledge = await importKnowledge(db(), system, { fileName: "knowledge.jsonl", source: sourceOf(validKnowledge(tokens)) });
    expect(knowledge).toMatchObject({ lines: 2, inserted: 2, updated: 0 });
  });

  /** The valid queries file, turned into variants by `transform` on its text. */
  async function importQueriesVariant(transform: (text: string) => Buffer, chunkSize?: number) {
    const tokens = freshTokens();
    const campaignId = await newCampaign();
    const bytes = transform(fill(readFixture("valid/queries.jsonl"), tokens).toString("utf8"));
    const result = await importBatch(db(), system, {
      campaignId,
      topK: 4,
      queries: { fileName: "queries.jsonl", source: sourceOf(bytes, chunkSize) },
    });
    const stored = await db().select().from(queries).where(eq(queries.campaignId, campaignId)).orderBy(asc(queries.lineNumber));
    return { tokens, result, stored };
  }

  async function importKnowledgeVariant(transform: (text: string) => Buffer, chunkSize?: number) {
    const tokens = freshTokens();
    const bytes = transform(validKnowledge(tokens).toString("utf8"));
    const result = await importKnowledge(db(), system, { fileName: "knowledge.jsonl", source: sourceOf(bytes, chunkSize) });
    const stored = await db()
      .select()
      .from(pages)
      .where(inArray(pages.wikipediaId, [tokens.NEW_PAGE!, tokens.NEW_PAGE2!]))
      .orderBy(asc(pages.title));
    return { tokens, bytes, result, stored };
  }

  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

  it("accepts a UTF-8 byte-order mark (queries and knowledge), and stores no trace of it", async () => {
    const q = await importQueriesVariant((text) => Buffer.concat([BOM, Buffer.from(text)]));
    expect(q.result).toMatchObject({ queries: 2, goldPassages: 2, passages: 2, pages: 2 });
    expect(q.stored.map((s) => s.kiltId)).toEqual([q.tokens.QID, q.tokens.QID2]);
    expect(q.stored[0]?.originalLine.startsWith('{"id":')).toBe(true);

    const k = await importKnowledgeVariant((text) => Buffer.concat([BOM, Buffer.from(text)]));
    expect(k.result).toMatchObject({ lines: 2, pages: 2, inserted: 2, updated: 0, skipped: 0, bytes: k.bytes.length });
    expect(k.stored.map((p) => p.title)).toEqual(["Good Page", "Second Good Page"]);
  });

  it("accepts CRLF line endings, and stores original lines without the CR", async () => {
    const q = await importQueriesVariant((text) => Buffer.from(text.replaceAll("\n", "\r\n")));
    expect(q.result).toMatchObject({ queries: 2, goldPassages: 2 });
    expect(q.stored.map((s) => s.lineNumber)).toEqual([1, 2]);
    for (const s of q.stored) expect(s.originalLine).not.toMatch(/\r/);

    const k = await importKnowledgeVariant((text) => Buffer.from(text.replaceAll("\n", "\r\n")));
    expect(k.result).toMatchObject({ lines: 2, inserted: 2 });
    expect(k.stored[0]?.paragraphs).toEqual(["Good Page\n", "A fine paragraph.\n"]);
  });

  it("accepts a gzip knowledge file (whole, and in 1-byte chunks) and counts its compressed bytes", async () => {
    const whole = await importKnowledgeVariant((text) => gzipSync(text));
    expect(whole.bytes[0]).toBe(0x1f);
    expect(whole.result).toMatchObject({ lines: 2, pages: 2, inserted: 2, updated: 0, bytes: whole.bytes.length });
    expect(whole.stored.map((p) => p.paragraphs.length)).toEqual([2, 2]);

    const trickle = await importKnowledgeVariant((text) => gzipSync(text), 1);
    expect(trickle.result).toMatchObject({ lines: 2, inserted: 2, bytes: trickle.bytes.length });
  });

  it("accepts a gzip queries file", async () => {
    const q = await importQueriesVariant((text) => gzipSync(text));
    expect(q.result).toMatchObject({ queries: 2, goldPassages: 2 });
  });

  it("accepts blank lines between records and counts them in line numbers", async () => {
    const spaced = (text: string) => Buffer.from("\n" + text.trimEnd().split("\n").join("\n\n  \n\t\n") + "\n\n\n");
    const q = await importQueriesVariant(spaced);
    expect(q.result).toMatchObject({ queries: 2 });
    expect(q.stored.map((s) => [s.kiltId, s.lineNumber])).toEqual([
      [q.tokens.QID, 2],
      [q.tokens.QID2, 6],
    ]);

    const k = await importKnowledgeVariant(spaced);
    expect(k.result).toMatchObject({ lines: 2, pages: 2, inserted: 2 });
  });

  it("accepts an end offset equal to the paragraph's code-point length (end exclusive)", async () => {
    const tokens = freshTokens();
    const campaignId = await newCampaign();
    const line = JSON.stringify({
      id: tokens.QID,
      input: "which letters",
      output: [
        {
          answer: "letters",
          provenance: [{ wikipedia_id: page, start_paragraph_id: 1, start_character: 15, end_paragraph_id: 1, end_character: 24 }],
        },
      ],
    });
    const result = await importBatch(db(), system, {
      campaignId,
      topK: 4,
      queries: { fileName: "queries.jsonl", source: sourceOf(Buffer.from(line)) },
    });
    expect(result).toMatchObject({ queries: 1, goldPassages: 1 });
    const [gold] = await db()
      .select()
      .from(passages)
      .where(and(eq(passages.campaignId, campaignId), eq(passages.isGold, true)));
    expect(gold).toMatchObject({ expectedStartCharacter: 15, expectedEndCharacter: 24 });
    const text = sliceLocation(["Velmora Test Light\n", NON_BMP_PARAGRAPH], {
      startParagraphId: 1,
      startCharacter: 15,
      endParagraphId: 1,
      endCharacter: 24,
    });
    expect(text).toBe("letters.\n");
  });
});
