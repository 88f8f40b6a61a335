import { describe, expect, it } from "vitest";
import { importFields, retrieverDefaultLines, retrieverLines } from "./batches";

const base = { campaign: "1", queries: "q.jsonl", candidates: [] };

describe("kps batch import", () => {
  it("sends --top-k as perRetriever, its old meaning, unless --retrieve text makes it the text-retrieval count", () => {
    expect(importFields({ ...base, topK: 3 })).toEqual([{ name: "perRetriever", value: "3" }]);
    expect(importFields({ ...base, retrieve: "text", topK: 4 })).toEqual([
      { name: "retrieve", value: "text" },
      { name: "retrieveTopK", value: "4" },
    ]);
    expect(importFields({ ...base, perRetriever: 2, topK: 5, retrieve: "text", minAnswerOverlap: 0.1, name: "b" })).toEqual([
      { name: "perRetriever", value: "2" },
      { name: "minAnswerOverlap", value: "0.1" },
      { name: "retrieve", value: "text" },
      { name: "retrieveTopK", value: "5" },
      { name: "name", value: "b" },
    ]);
    expect(importFields(base)).toEqual([]);
    expect(importFields({ ...base, retriever: "dpr" })).toEqual([{ name: "retriever", value: "dpr" }]);
  });

  it("prints a line per retriever", () => {
    expect(retrieverLines([{ retriever: "dpr", read: 9, droppedByRank: 1, droppedByOverlap: 3, kept: 6, merged: 5 }])).toEqual([
      "  dpr: 9 read (top K), 1 below the top K, 3 dropped by the answer overlap, 6 kept (5 merged with another origin)",
    ]);
  });

  it("says which retriever the lines without meta.retriever were counted as", () => {
    expect(
      retrieverDefaultLines([
        { file: "pilot-dpr.jsonl", lines: 1, retriever: "dpr" },
        { file: "bm25.jsonl", lines: 3, retriever: "bm25-v2" },
      ]),
    ).toEqual([
      "1 line of pilot-dpr.jsonl had no meta.retriever; it was counted as dpr.",
      "3 lines of bm25.jsonl had no meta.retriever; they were counted as bm25-v2.",
    ]);
  });
});
