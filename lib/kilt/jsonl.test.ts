import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FatalImportError, fieldPath, readLines, type ImportProblem, type JsonlLine, type ReadLinesOptions } from "./jsonl";

const FILE = "test.jsonl";

/** A source yielding `bytes` in chunks of `size` bytes (one chunk by default). */
function chunked(bytes: Uint8Array, size = Math.max(1, bytes.length)): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  })();
}

function fromChunks(chunks: Uint8Array[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* chunks;
  })();
}

async function collect(source: AsyncIterable<Uint8Array>, options: Partial<ReadLinesOptions> = {}): Promise<JsonlLine[]> {
  const lines: JsonlLine[] = [];
  for await (const line of readLines(source, { file: FILE, maxLineBytes: 1024, ...options })) lines.push(line);
  return lines;
}

/** Reads until the reader throws; returns the lines read before and the problem of the FatalImportError. */
async function collectUntilFatal(
  source: AsyncIterable<Uint8Array>,
  options: Partial<ReadLinesOptions> = {},
): Promise<{ lines: JsonlLine[]; problem: ImportProblem }> {
  const lines: JsonlLine[] = [];
  try {
    for await (const line of readLines(source, { file: FILE, maxLineBytes: 1024, ...options })) lines.push(line);
  } catch (error) {
    if (error instanceof FatalImportError) return { lines, problem: error.problem };
    throw error;
  }
  throw new Error(`read ${lines.length} lines without a FatalImportError`);
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
const BOM = [0xef, 0xbb, 0xbf];

/** A source that writes every chunk into one buffer it reuses (as some stream readers do). */
function reusing(data: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  return (async function* () {
    const shared = new Uint8Array(size);
    for (let i = 0; i < data.length; i += size) {
      const part = data.subarray(i, i + size);
      shared.set(part);
      yield shared.subarray(0, part.length);
    }
  })();
}

describe("readLines", () => {
  it("splits LF and CRLF lines, removing only the line ending", async () => {
    expect(await collect(chunked(bytes("a\nb\r\nc\r\n d \n")))).toEqual([
      { lineNumber: 1, text: "a" },
      { lineNumber: 2, text: "b" },
      { lineNumber: 3, text: "c" },
      { lineNumber: 4, text: " d " },
    ]);
    // A CR that is not part of the line ending stays in the text.
    expect(await collect(chunked(bytes("a\rb\n")))).toEqual([{ lineNumber: 1, text: "a\rb" }]);
  });

  it("reads a last line without a trailing newline", async () => {
    expect(await collect(chunked(bytes("a\nlast")))).toEqual([
      { lineNumber: 1, text: "a" },
      { lineNumber: 2, text: "last" },
    ]);
    expect(await collect(chunked(bytes("only\r")))).toEqual([{ lineNumber: 1, text: "only" }]);
  });

  it("yields nothing for an empty source or empty chunks", async () => {
    expect(await collect(chunked(bytes("")))).toEqual([]);
    expect(await collect(fromChunks([new Uint8Array(0), new Uint8Array(0)]))).toEqual([]);
    expect(await collect(fromChunks([bytes("x"), new Uint8Array(0), bytes("y\n")]))).toEqual([{ lineNumber: 1, text: "xy" }]);
  });

  it("removes a UTF-8 byte-order mark", async () => {
    expect(await collect(chunked(bytes(BOM, '{"a":1}\r\n')))).toEqual([{ lineNumber: 1, text: '{"a":1}' }]);
    // The decoder also drops a BOM that starts a later line (files concatenated from BOM files).
    expect(await collect(chunked(bytes(BOM, "a\n", BOM, "b\n")))).toEqual([
      { lineNumber: 1, text: "a" },
      { lineNumber: 2, text: "b" },
    ]);
    // Only at the start: a BOM inside a line is text.
    expect(await collect(chunked(bytes("a", BOM, "\n")))).toEqual([{ lineNumber: 1, text: "a\ufeff" }]);
    // Split across chunks, and a BOM alone on line 1 (a blank line).
    expect(await collect(chunked(bytes(BOM, "a\n"), 1))).toEqual([{ lineNumber: 1, text: "a" }]);
    expect(await collect(chunked(bytes(BOM, "\nb\n")))).toEqual([{ lineNumber: 2, text: "b" }]);
  });

  it("skips blank and whitespace-only lines but counts them in line numbers", async () => {
    expect(await collect(chunked(bytes("\n a\n\n  \n\t\r\n\r\nb\n\n")))).toEqual([
      { lineNumber: 2, text: " a" },
      { lineNumber: 7, text: "b" },
    ]);
  });

  it("gives the same lines whatever the chunk size, down to 1 byte", async () => {
    const text = bytes(BOM, '{"id":"1","input":"é 𐌅𐌄𐌋 ✓"}\r\n\n', "x".repeat(300), "\n", "Velmora 𐤀 Semitic\r\n", "tail é");
    const whole = await collect(chunked(text));
    expect(whole.map((l) => l.lineNumber)).toEqual([1, 3, 4, 5]);
    expect(whole[0]?.text).toBe('{"id":"1","input":"é 𐌅𐌄𐌋 ✓"}');
    expect(whole[3]?.text).toBe("tail é");
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await collect(chunked(text, size))).toEqual(whole);
  });

  it("joins a multi-byte UTF-8 character split across chunks at every byte", async () => {
    const text = bytes("a𐌅b\né\n");
    for (let cut = 1; cut < text.length; cut++) {
      expect(await collect(fromChunks([text.subarray(0, cut), text.subarray(cut)]))).toEqual([
        { lineNumber: 1, text: "a𐌅b" },
        { lineNumber: 2, text: "é" },
      ]);
    }
  });

  it("reads Uint8Array views into a larger buffer (byteOffset), not only Buffers", async () => {
    const backing = new Uint8Array(64).fill(0x21);
    backing.set(bytes("xx\nyy\nz"), 10);
    const source = fromChunks([new Uint8Array(backing.buffer, 10, 4), new Uint8Array(backing.buffer, 14, 3)]);
    expect(await collect(source)).toEqual([
      { lineNumber: 1, text: "xx" },
      { lineNumber: 2, text: "yy" },
      { lineNumber: 3, text: "z" },
    ]);
  });

  it("copes with a source that reuses one buffer for its chunks (plain, chunks of 2 bytes or more)", async () => {
    const text = bytes("alpha\r\nbeta gamma\n\ndelta é\nomega");
    for (const size of [2, 3, 8]) {
      expect((await collect(reusing(text, size))).map((l) => l.text)).toEqual(["alpha", "beta gamma", "delta é", "omega"]);
    }
  });

  // KNOWN BUGS (it.fails: change to it() once fixed). readLines copies pending bytes because "the
  // source may reuse its buffer", but maybeGunzip (1) concatenates a first chunk shorter than 2 bytes
  // only after pulling the next one, which has overwritten it, and (2) hands chunks to zlib through
  // Readable.from, which reads the source ahead while zlib still works on earlier chunks.
  it("copes with a reusing source in 1-byte chunks (reads 'ab' as 'bb')", async () => {
    expect((await collect(reusing(bytes("ab\ncd\n"), 1))).map((l) => l.text)).toEqual(["ab", "cd"]);
  });

  it("gunzips a reusing source ('is not a valid gzip file (invalid distance too far back)')", async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${"x".repeat(i % 40)}`).join("\n");
    expect(await collect(reusing(gzipSync(text), 64))).toHaveLength(200);
  });

  describe("invalid UTF-8", () => {
    const invalid: [string, number[]][] = [
      ["a lead byte without its continuation (C3 28)", [0xc3, 0x28]],
      ["a lone continuation byte (80)", [0x80]],
      ["an overlong encoding (C0 80)", [0xc0, 0x80]],
      ["an encoded surrogate (ED A0 80)", [0xed, 0xa0, 0x80]],
      ["a byte that never occurs (FF)", [0xff]],
    ];
    for (const [what, raw] of invalid) {
      it(`stops at ${what} with FatalImportError naming the file and line`, async () => {
        const { lines, problem } = await collectUntilFatal(chunked(bytes("ok\n\n", "bad ", raw, " line\n", "never read\n")));
        expect(lines).toEqual([{ lineNumber: 1, text: "ok" }]);
        expect(problem).toEqual({ file: FILE, line: 3, field: "", message: "is not valid UTF-8" });
      });
    }

    it("reports a character cut off at the end of the file, and in 1-byte chunks", async () => {
      const cut = bytes("fine\n", "end ", [0xf0, 0x90, 0x8c]);
      expect((await collectUntilFatal(chunked(cut))).problem.line).toBe(2);
      expect((await collectUntilFatal(chunked(cut, 1))).problem.line).toBe(2);
    });

    it("leaves the reader usable for the next file", async () => {
      await collectUntilFatal(chunked(bytes([0xc3])));
      expect(await collect(chunked(bytes("é\n")))).toEqual([{ lineNumber: 1, text: "é" }]);
    });

    it("FatalImportError's message names file, line and problem", () => {
      const error = new FatalImportError({ file: FILE, line: 3, field: "", message: "is not valid UTF-8" });
      expect(error.message).toBe(`${FILE} line 3: is not valid UTF-8`);
      expect(new FatalImportError({ file: FILE, line: 2, field: "id", message: "x" }).message).toBe(`${FILE} line 2, id: x`);
    });
  });

  describe("line length", () => {
    const maxLineBytes = 10;

    it("accepts a line of exactly maxLineBytes bytes, with LF or CRLF", async () => {
      const ten = "0123456789";
      expect(await collect(chunked(bytes(`${ten}\n${ten}\r\n${ten}`)), { maxLineBytes })).toEqual([
        { lineNumber: 1, text: ten },
        { lineNumber: 2, text: ten },
        { lineNumber: 3, text: ten },
      ]);
    });

    it("counts bytes, not characters", async () => {
      // 4 characters, 16 bytes.
      const { problem } = await collectUntilFatal(chunked(bytes("𐌅𐌄𐌋𐌅\n")), { maxLineBytes });
      expect(problem).toMatchObject({ line: 1, message: "is longer than the limit of 10 bytes" });
    });

    for (const size of [1, 4, 1000]) {
      it(`stops at an over-long line with FatalImportError and its line number (chunks of ${size})`, async () => {
        const { lines, problem } = await collectUntilFatal(chunked(bytes("short\n\n", "x".repeat(25), "\nnext\n"), size), { maxLineBytes });
        expect(lines).toEqual([{ lineNumber: 1, text: "short" }]);
        expect(problem).toEqual({ file: FILE, line: 3, field: "", message: "is longer than the limit of 10 bytes" });
      });
    }

    it("stops at an over-long first line and at an over-long last line without newline", async () => {
      expect((await collectUntilFatal(chunked(bytes("x".repeat(50))), { maxLineBytes })).problem.line).toBe(1);
      expect((await collectUntilFatal(chunked(bytes("ok\n", "y".repeat(50)), 3), { maxLineBytes })).problem.line).toBe(2);
    });

    it("does not buffer an endless line: it stops as soon as the limit is passed", async () => {
      let chunks = 0;
      const endless = (async function* () {
        const block = new Uint8Array(1024).fill(0x61);
        for (;;) {
          chunks++;
          yield block;
        }
      })();
      const { problem } = await collectUntilFatal(endless, { maxLineBytes: 10_000 });
      expect(problem.line).toBe(1);
      expect(chunks).toBeLessThanOrEqual(11);
    });

    // KNOWN BUG (it.fails: change to it() once fixed). The check is `> maxLineBytes + 1` to leave room
    // for a CR, so a line of maxLineBytes + 1 bytes ending in LF (or at the end of the file) passes.
    it("refuses a line of maxLineBytes + 1 bytes", async () => {
      const { problem } = await collectUntilFatal(chunked(bytes("01234567890\n")), { maxLineBytes });
      expect(problem.line).toBe(1);
    });
  });

  describe("gzip", () => {
    const text = '{"wikipedia_id":"1","text":["é 𐌅\\n"]}\r\n\n{"wikipedia_id":"2"}\n';

    it("gunzips a stream detected by its magic bytes, whole or in 1-byte chunks", async () => {
      const gz = gzipSync(text);
      expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
      const expected = [
        { lineNumber: 1, text: '{"wikipedia_id":"1","text":["é 𐌅\\n"]}' },
        { lineNumber: 3, text: '{"wikipedia_id":"2"}' },
      ];
      expect(await collect(chunked(gz))).toEqual(expected);
      expect(await collect(chunked(gz, 1))).toEqual(expected);
      expect(await collect(chunked(gz, 7))).toEqual(expected);
    });

    it("removes a byte-order mark inside a gzip file", async () => {
      expect(await collect(chunked(gzipSync(bytes(BOM, "a\nb"))))).toEqual([
        { lineNumber: 1, text: "a" },
        { lineNumber: 2, text: "b" },
      ]);
    });

    it("reads concatenated gzip members as one file", async () => {
      expect(await collect(chunked(Buffer.concat([gzipSync("a\nb"), gzipSync("c\n")])))).toEqual([
        { lineNumber: 1, text: "a" },
        { lineNumber: 2, text: "bc" },
      ]);
    });

    it("treats a file starting with 0x1f but not 0x8b as plain text", async () => {
      expect(await collect(chunked(bytes([0x1f], "abc\n")))).toEqual([{ lineNumber: 1, text: "\u001fabc" }]);
      expect(await collect(chunked(bytes([0x1f])))).toEqual([{ lineNumber: 1, text: "\u001f" }]);
    });

    it("stops a truncated gzip file with FatalImportError (line 0)", async () => {
      const gz = gzipSync(text.repeat(20));
      const { problem } = await collectUntilFatal(chunked(gz.subarray(0, gz.length - 12)));
      expect(problem).toMatchObject({ file: FILE, line: 0, field: "" });
      expect(problem.message).toMatch(/^is not a valid gzip file \(.+\)$/);
    });

    it("stops a gzip file whose checksum does not match", async () => {
      const gz = Buffer.from(gzipSync(text));
      gz[gz.length - 8] = gz[gz.length - 8]! ^ 0xff;
      expect((await collectUntilFatal(chunked(gz))).problem.message).toContain("is not a valid gzip file");
    });

    it("reports invalid UTF-8 inside a gzip file by line", async () => {
      const { problem } = await collectUntilFatal(chunked(gzipSync(bytes("ok\n", [0xc3, 0x28], "\n"))));
      expect(problem).toEqual({ file: FILE, line: 2, field: "", message: "is not valid UTF-8" });
    });
  });

  it("reports the bytes read so far through onBytes: the compressed size for gzip", async () => {
    const plain = bytes("a\nbb\nccc\n");
    let seen: number[] = [];
    await collect(chunked(plain, 4), { onBytes: (n) => seen.push(n) });
    expect(seen).toEqual([4, 8, 9]);

    const gz = gzipSync("x\n".repeat(1000));
    seen = [];
    const lines = await collect(chunked(gz, 16), { onBytes: (n) => seen.push(n) });
    expect(lines).toHaveLength(1000);
    expect(seen.at(-1)).toBe(gz.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});

describe("fieldPath", () => {
  it("names fields the way import problems do", () => {
    expect(fieldPath(["output", 0, "provenance", 1, "wikipedia_id"])).toBe("output[0].provenance[1].wikipedia_id");
    expect(fieldPath(["text", 3])).toBe("text[3]");
    expect(fieldPath(["id"])).toBe("id");
    expect(fieldPath([])).toBe("(line)");
  });
});
