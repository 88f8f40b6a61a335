import { describe, expect, it } from "vitest";
import { pageParamsSchema, searchOptionsSchema } from "./schemas";

describe("knowledge search options", () => {
  it("defaults to title mode and 20 results, and refuses what is out of bounds", () => {
    expect(searchOptionsSchema.parse({ q: " élo " })).toEqual({ q: "élo", mode: "title", limit: 20 });
    for (const bad of [
      { q: "" },
      { q: "   " },
      { q: "x".repeat(201) },
      { q: "a", mode: "fuzzy" },
      { q: "a", limit: "0" },
      { q: "a", limit: "51" },
      { q: "a", limit: "2.5" },
      { q: "a\u0000" },
    ]) {
      expect(searchOptionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(pageParamsSchema.safeParse({ wikipediaId: "../x" }).success).toBe(true);
    expect(pageParamsSchema.safeParse({ wikipediaId: "a\u0000" }).success).toBe(false);
  });
});
