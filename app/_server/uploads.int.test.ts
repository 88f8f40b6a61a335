import { describe, expect, it } from "vitest";
import { anonymous, system, type Actor } from "@/lib/auth/actor";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch, type BatchPart } from "@/lib/campaign/import/import-batch";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { batchUploadParts, knowledgeUploadParts } from "./uploads";

const annotator: Actor = { kind: "user", id: 1, username: "someone", role: "annotator", via: "session" };
const MiB = 1024 * 1024;

type FormPart = { name: string; value: string } | { name: string; fileName: string; chunks: () => Iterable<Buffer> };

/**
 * A multipart request whose body is produced only as the server pulls it (the way a socket delivers
 * an upload), and how many bytes have been pulled so far.
 */
function streamedRequest(url: string, parts: FormPart[], headers: Record<string, string> = {}) {
  const boundary = `----test${unique("b")}`;
  function* bytes(): Generator<Buffer> {
    for (const p of parts) {
      const disposition = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
      if ("value" in p) yield Buffer.from(`${disposition}\r\n\r\n${p.value}\r\n`);
      else {
        yield Buffer.from(`${disposition}; filename="${p.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
        yield* p.chunks();
        yield Buffer.from("\r\n");
      }
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  const source = bytes();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = source.next();
        if (next.done) return controller.close();
        pulled += next.value.length;
        controller.enqueue(new Uint8Array(next.value));
      },
    },
    { highWaterMark: 0 },
  );
  const req = new Request(url, {
    method: "POST",
    body,
    duplex: "half",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, ...headers },
  } as RequestInit);
  return { req, pulled: () => pulled };
}

const lines = (values: unknown[]) => () => [Buffer.from(values.map((v) => JSON.stringify(v)).join("\n") + "\n")];

/** `count` task lines of about 1 KiB each, in chunks of 64 lines. */
function* manyTaskLines(count: number): Generator<Buffer> {
  const filler = "x".repeat(1000);
  for (let i = 0; i < count; i += 64) {
    const chunk: string[] = [];
    for (let j = i; j < Math.min(count, i + 64); j++)
      chunk.push(JSON.stringify({ id: `q${j}`, input: `question ${j} ${filler}`, output: [{ answer: "a" }] }));
    yield Buffer.from(chunk.join("\n") + "\n");
  }
}

async function text(source: AsyncIterable<Uint8Array>): Promise<string> {
  let out = "";
  for await (const chunk of source) out += Buffer.from(chunk).toString();
  return out;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe("upload parts", () => {
  it("stream a large queries file: its first lines arrive while most of the body is unsent", async () => {
    const { req, pulled } = streamedRequest("http://x/api/campaigns/1/batches", [
      { name: "queries", fileName: "queries.jsonl", chunks: () => manyTaskLines(16 * 1024) },
      { name: "candidates", fileName: "candidates.jsonl", chunks: lines([{ id: "q1", output: [{ provenance: [] }] }]) },
      { name: "topK", value: "2" },
      { name: "name", value: "fields last, as the CLI sends them" },
    ]);
    const seen: string[] = [];
    for await (const part of batchUploadParts(req, 64 * MiB)) {
      if (part.kind === "queries") {
        // Read one chunk and stop: the rest is drained when the next part is pulled.
        for await (const chunk of part.file.source) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(pulled()).toBeLessThan(1 * MiB);
          break;
        }
        seen.push(part.file.fileName);
      } else if (part.kind === "candidates") {
        expect(pulled()).toBeGreaterThan(16 * MiB);
        seen.push(`${part.file.fileName}: ${(await text(part.file.source)).trim()}`);
      } else if (part.kind === "options") seen.push(JSON.stringify(part.options));
    }
    expect(seen).toEqual([
      "queries.jsonl",
      'candidates.jsonl: {"id":"q1","output":[{"provenance":[]}]}',
      // topK is the old name of perRetriever
      JSON.stringify({ name: "fields last, as the CLI sends them", perRetriever: 2 }),
    ]);
  });

  it("read nothing before the first part is pulled, and keep the upload limit (413)", async () => {
    const { req, pulled } = streamedRequest("http://x/api/knowledge", [
      { name: "file", fileName: "k.jsonl", chunks: () => manyTaskLines(2048) },
    ]);
    const parts = knowledgeUploadParts(req, 1 * MiB);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled()).toBe(0);
    const readAll = async () => {
      for await (const part of parts) await text(part.file.source);
    };
    expect(await codeOf(readAll())).toBe("too_large");
  });

  it("refuse a second queries file and an unexpected one", async () => {
    const twice = streamedRequest("http://x/", [
      { name: "queries", fileName: "a.jsonl", chunks: lines([]) },
      { name: "queries", fileName: "b.jsonl", chunks: lines([]) },
    ]);
    const drain = async (parts: AsyncIterable<BatchPart>) => {
      for await (const part of parts) if (part.kind !== "options") await text(part.file.source);
    };
    await expect(drain(batchUploadParts(twice.req, MiB))).rejects.toThrow("Send one 'queries' file.");
    const other = streamedRequest("http://x/", [{ name: "knowledge", fileName: "k.jsonl", chunks: lines([]) }]);
    await expect(drain(batchUploadParts(other.req, MiB))).rejects.toThrow("Unexpected file part 'knowledge'");
  });
});

describe("batch upload fields", () => {
  const XSS = `<img src=x onerror="window.__xss=1">`;
  const SQL = `'); DROP TABLE passages; --`;
  async function optionsOf(fields: { name: string; value: string }[], candidates = 1) {
    const files = Array.from({ length: candidates }, (_, i) => ({ name: "candidates", fileName: `r${i}.jsonl`, chunks: lines([]) }));
    const { req } = streamedRequest("http://x/", [{ name: "queries", fileName: "q.jsonl", chunks: lines([]) }, ...files, ...fields]);
    const seen: unknown[] = [];
    for await (const part of batchUploadParts(req, MiB)) {
      if (part.kind === "options") seen.push(part.options);
      else await text(part.file.source);
    }
    return seen[0];
  }
  async function refusal(fields: { name: string; value: string }[]) {
    const error = await optionsOf(fields).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, JSON.stringify(fields)).toBeInstanceOf(AppError);
    return ((error as AppError).details as { problems: { field: string; message: string }[] }).problems;
  }

  it("take several candidates files and every option, empty fields left out", async () => {
    expect(
      await optionsOf(
        [
          { name: "perRetriever", value: " 2 " },
          { name: "minAnswerOverlap", value: ".1" },
          { name: "retrieve", value: "text" },
          { name: "retrieveTopK", value: "3" },
          { name: "name", value: "" },
        ],
        3,
      ),
    ).toEqual({
      name: undefined,
      perRetriever: 2,
      minAnswerOverlap: 0.1,
      retrieve: "text",
      retrieveTopK: 3,
    });
    expect(
      await optionsOf([
        { name: "topK", value: "5" },
        { name: "minAnswerOverlap", value: "" },
      ]),
    ).toMatchObject({ perRetriever: 5, minAnswerOverlap: undefined, retrieve: undefined });
  });

  it("refuse hostile values, naming the field", async () => {
    for (const [name, value, message] of [
      ["perRetriever", "0", "must be at least 1"],
      ["perRetriever", "0x10", "must be a whole number of candidates"],
      ["perRetriever", "1e3", "must be a whole number of candidates"],
      ["perRetriever", "Infinity", "must be a whole number of candidates"],
      ["perRetriever", "٤", "must be a whole number of candidates"],
      ["perRetriever", SQL, "must be a whole number of candidates"],
      ["topK", "101", "must be at most 100"],
      ["minAnswerOverlap", "1.0001", "must be between 0 and 1"],
      ["minAnswerOverlap", "-0.5", "must be between 0 and 1"],
      ["minAnswerOverlap", "NaN", "must be a number between 0 and 1"],
      ["minAnswerOverlap", XSS, "must be a number between 0 and 1"],
      ["retrieve", "TEXT", 'must be "text" (rank the paragraphs of the text index), or left out'],
      ["retrieve", XSS, 'must be "text" (rank the paragraphs of the text index), or left out'],
    ] as const) {
      expect(await refusal([{ name, value }]), `${name}=${value}`).toEqual([{ field: name, message }]);
    }
    expect((await refusal([{ name: "name", value: "x".repeat(201) }]))[0]!.field).toBe("name");
  });

  it("take mapEvidence and minBleu (0.5 by default), and refuse bad ones, naming the field", async () => {
    expect(await optionsOf([{ name: "mapEvidence", value: "on" }])).toMatchObject({ mapEvidence: true, minBleu: 0.5 });
    expect(
      await optionsOf([
        { name: "mapEvidence", value: " ON " },
        { name: "minBleu", value: ".75" },
      ]),
    ).toMatchObject({ minBleu: 0.75 });
    for (const [fields, field, message] of [
      [
        [{ name: "mapEvidence", value: "yes" }],
        "mapEvidence",
        'must be "on" or "off" (or left out: off; on locates the provenance items given as text)',
      ],
      [
        [
          { name: "mapEvidence", value: "on" },
          { name: "minBleu", value: "1.5" },
        ],
        "minBleu",
        "must be between 0 and 1",
      ],
      [
        [
          { name: "mapEvidence", value: "on" },
          { name: "minBleu", value: XSS },
        ],
        "minBleu",
        "must be a number between 0 and 1",
      ],
      [[{ name: "minBleu", value: "0.5" }], "minBleu", "is the least BLEU of a kept item given as text: give it with mapEvidence on"],
    ] as const) {
      expect(await refusal([...fields]), JSON.stringify(fields)).toEqual([{ field, message }]);
    }
  });

  it("take one redirects file, and refuse a second", async () => {
    const parts = (n: number) =>
      streamedRequest("http://x/", [
        { name: "queries", fileName: "q.jsonl", chunks: lines([]) },
        ...Array.from({ length: n }, (_, i) => ({ name: "redirects", fileName: `r${i}.tsv`, chunks: lines([]) })),
        { name: "mapEvidence", value: "on" },
      ]).req;
    const kinds: string[] = [];
    for await (const part of batchUploadParts(parts(1), MiB)) {
      kinds.push(part.kind);
      if (part.kind !== "options") await text(part.file.source);
    }
    expect(kinds).toEqual(["queries", "redirects", "options"]);
    const drain = async () => {
      for await (const part of batchUploadParts(parts(2), MiB)) if (part.kind !== "options") await text(part.file.source);
    };
    await expect(drain()).rejects.toThrow("Send one 'redirects' file.");
  });

  it("refuse more than 20 candidates files", async () => {
    const error = await optionsOf([], 21).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as AppError).message).toBe("Send at most 20 'candidates' files.");
  });
});

describeEachDatabase("uploads", ({ db }) => {
  it("are refused before their body is read when the caller may not import, or the campaign does not exist", async () => {
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("uploads") }));
    const batch = () =>
      streamedRequest(`http://x/api/campaigns/${campaign.id}/batches`, [
        { name: "queries", fileName: "q.jsonl", chunks: () => manyTaskLines(256) },
      ]);
    for (const [actor, campaignId, code] of [
      [anonymous, campaign.id, "unauthorized"],
      [annotator, campaign.id, "forbidden"],
      [system, -1, "not_found"],
    ] as const) {
      const { req, pulled } = batch();
      expect(await codeOf(importBatch(db(), actor, { campaignId, parts: batchUploadParts(req, 64 * MiB) }))).toBe(code);
      expect(pulled()).toBe(0);
    }
    for (const [actor, code] of [
      [anonymous, "unauthorized"],
      [annotator, "forbidden"],
    ] as const) {
      const { req, pulled } = streamedRequest("http://x/api/knowledge", [
        { name: "file", fileName: "k.jsonl", chunks: () => manyTaskLines(256) },
      ]);
      expect(await codeOf(importKnowledge(db(), actor, { parts: knowledgeUploadParts(req, 64 * MiB) }))).toBe(code);
      expect(pulled()).toBe(0);
    }
    // A declared size over the limit is refused as unauthorized, not as too large, to a caller who may not import.
    const big = streamedRequest("http://x/api/knowledge", [{ name: "file", fileName: "k.jsonl", chunks: lines([]) }], {
      "content-length": String(10 * MiB),
    });
    expect(await codeOf(importKnowledge(db(), anonymous, { parts: knowledgeUploadParts(big.req, MiB) }))).toBe("unauthorized");
  });

  it("import the pages references cite, then a batch whose fields come before or after its files", async () => {
    const [cited, other] = [unique("page"), unique("page")];
    const page = (id: string) => ({ wikipedia_id: id, wikipedia_title: id, text: [`${id}\n`, "One paragraph.\n", "Another paragraph.\n"] });
    const [q1, q2] = [unique("q"), unique("q")];
    const task = (id: string) => ({
      id,
      input: "what does it say",
      output: [{ answer: "a", provenance: [{ wikipedia_id: cited, start_paragraph_id: 1, end_paragraph_id: 1 }] }],
    });
    const ranking = (id: string) => ({
      id,
      output: [{ provenance: [1, 2].map((p) => ({ wikipedia_id: cited, start_paragraph_id: p, end_paragraph_id: p })) }],
    });

    const knowledge = streamedRequest("http://x/api/knowledge", [
      { name: "references", fileName: "q.jsonl", chunks: lines([task(q1)]) },
      { name: "file", fileName: "k.jsonl", chunks: lines([page(cited), page(other)]) },
    ]);
    const pages = await importKnowledge(db(), system, { parts: knowledgeUploadParts(knowledge.req, MiB) });
    expect(pages).toMatchObject({ file: "k.jsonl", lines: 2, pages: 1, skipped: 1 });

    for (const [id, fieldsFirst] of [
      [q1, true],
      [q2, false],
    ] as const) {
      const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("uploads") }));
      const fields = [
        { name: "topK", value: "1" },
        { name: "name", value: `fields ${fieldsFirst ? "first" : "last"}` },
      ];
      const files = [
        { name: "queries", fileName: "q.jsonl", chunks: lines([task(id)]) },
        { name: "candidates", fileName: "c.jsonl", chunks: lines([ranking(id)]) },
      ];
      const { req } = streamedRequest("http://x/", fieldsFirst ? [...fields, ...files] : [...files, ...fields]);
      const result = await importBatch(db(), system, { campaignId: campaign.id, parts: batchUploadParts(req, MiB) });
      expect(result).toMatchObject({
        batch: { name: `fields ${fieldsFirst ? "first" : "last"}` },
        queries: 1,
        passages: 1,
        goldPassages: 1,
        pages: 1,
      });
    }
  });
});
