import { describe, expect, it } from "vitest";
import { linesResponse, primed } from "./downloads";

async function* from<T>(items: T[], failAfter?: number): AsyncGenerator<T> {
  for (const [i, item] of items.entries()) {
    if (i === failAfter) throw new Error("the database went away");
    yield item;
  }
}

describe("linesResponse", () => {
  it("gathers string lines and passes byte chunks on unchanged, in order", async () => {
    const bytes = Buffer.from('{"b":"\\\\ \u2028 😀"}\n', "utf8");
    const body = await linesResponse(from<string | Uint8Array>(["a\n", bytes, "c\n"]), "x.jsonl").arrayBuffer();
    expect(Buffer.from(body).equals(Buffer.concat([Buffer.from("a\n"), bytes, Buffer.from("c\n")]))).toBe(true);
  });

  it("errors the body when the lines fail mid-stream, for strings and for bytes alike", async () => {
    for (const items of [
      ["a\n", "b\n"],
      [Buffer.from("a\n"), Buffer.from("b\n")],
    ] as (string | Uint8Array)[][]) {
      const response = linesResponse(await primed(from(items, 1)), "x.jsonl");
      const silence = console.error;
      console.error = () => {};
      try {
        await expect(response.arrayBuffer()).rejects.toThrow();
      } finally {
        console.error = silence;
      }
    }
  });
});
