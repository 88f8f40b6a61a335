import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AppError, parseInput } from "./errors";
import { hasNul, NUL_MESSAGE, nulPaths } from "./nul";

describe("nulPaths", () => {
  test("names every string and key holding NUL, and nothing else", () => {
    expect(hasNul("a\u0000b")).toBe(true);
    expect(hasNul("a\\u0000b")).toBe(false);
    expect(nulPaths("x\u0000")).toEqual([[]]);
    expect(nulPaths({ a: "ok", b: ["ok", "n\u0000"], c: { "k\u0000": 1, d: { e: "\u0000" } } })).toEqual([
      ["b", 1],
      ["c", "k\u0000"],
      ["c", "d", "e"],
    ]);
    expect(nulPaths({ a: 1, b: null, c: true, d: new Date(0), e: ["\u0001"] })).toEqual([]);
  });

  test("walks a deeply nested value without overflowing the stack, and reports at most 20 paths", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nulPaths(deep)).toHaveLength(1);
    expect(nulPaths(Array.from({ length: 100 }, () => "\u0000"))).toHaveLength(20);
  });
});

describe("parseInput refuses NUL in whatever the schema lets through", () => {
  const schema = z.object({
    queryId: z.string(),
    span: z.object({ text: z.string() }).optional(),
    keys: z.record(z.string(), z.string()).optional(),
  });

  const problems = (input: unknown, what?: string) => {
    try {
      parseInput(schema, input, what);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const e = error as AppError;
      expect(e.status).toBe(422);
      return { message: e.message, problems: (e.details as { problems: unknown }).problems };
    }
    throw new Error("parsed");
  };

  test("a 422 naming the field, nested fields by their path", () => {
    expect(problems({ queryId: "q\u0000" })).toEqual({
      message: `Invalid request body: queryId: ${NUL_MESSAGE}`,
      problems: [{ field: "queryId", message: NUL_MESSAGE }],
    });
    expect(problems({ queryId: "q", span: { text: "\u0000" } }).problems).toEqual([{ field: "span.text", message: NUL_MESSAGE }]);
    expect(problems({ queryId: "q", keys: { "a\u0000": "b" } }).problems).toEqual([{ field: "keys.a\u0000", message: NUL_MESSAGE }]);
    expect(problems({ id: "\u0000" }, "path").message).toMatch(/^Invalid path: /);
  });

  test("the schema's own problems come first; text without NUL passes", () => {
    expect(problems({ queryId: 1 }).problems).toEqual([{ field: "queryId", message: expect.any(String) }]);
    expect(parseInput(schema, { queryId: "q\\u0000 é \u{1F600}" })).toEqual({ queryId: "q\\u0000 é \u{1F600}" });
  });
});
