import { describe, expect, it } from "vitest";
import type { SearchResult } from "@/components/api/knowledge";
import { givenNote } from "./ask-search";

const result = (wikipediaId: string, paragraphId: number | null): SearchResult => ({
  wikipediaId,
  title: "T",
  paragraphId,
  section: "",
  titleSegments: [],
  snippet: [],
});

describe("search results against the passages already given", () => {
  const given = [
    { wikipediaId: "7", startParagraphId: 2, endParagraphId: 3 },
    { wikipediaId: "7", startParagraphId: 5, endParagraphId: 5 },
    { wikipediaId: "9", startParagraphId: 1, endParagraphId: 1 },
  ];

  it("marks a text hit inside a given passage, and a page that holds given passages", () => {
    expect(givenNote(result("7", 3), given)).toBe("Already a passage of this question");
    expect(givenNote(result("7", 5), given)).toBe("Already a passage of this question");
    expect(givenNote(result("7", 4), given)).toBe("2 passages of this page were already given to you");
    expect(givenNote(result("7", null), given)).toBe("2 passages of this page were already given to you");
    expect(givenNote(result("9", null), given)).toBe("1 passage of this page was already given to you");
  });

  it("says nothing about a page with no given passage", () => {
    expect(givenNote(result("8", 1), given)).toBeNull();
    expect(givenNote(result("7", 3), [])).toBeNull();
  });
});
