import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildProgram } from "../cli";
import { importFields, retrieverDefaultLines, retrieverLines, setLines, taskLines } from "./batches";

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

  it("sends --sets, --set-pages and --partial-evidence as their fields, and reports the sets and partial evidence", () => {
    expect(importFields({ ...base, sets: "pairs", setPages: 4, partialEvidence: "off" })).toEqual([
      { name: "sets", value: "pairs" },
      { name: "setPages", value: "4" },
      { name: "partialEvidence", value: "off" },
    ]);
    expect(setLines({ sets: 21, partialEvidence: true })).toEqual([
      "Evidence sets: 21 (judged together, counted in the passages). Partial evidence: on.",
    ]);
    expect(setLines({ sets: 0, partialEvidence: false })).toEqual(["Partial evidence: off."]);
    expect(setLines({})).toEqual([]);
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

  it("sends --task as the task field, and refuses a kind it does not know, naming the flag and the kinds", async () => {
    expect(importFields({ ...base, task: "slot-filling" })).toEqual([{ name: "task", value: "slot-filling" }]);
    const queries = path.resolve(import.meta.dirname, "batches.test.ts"); // any existing file: the parse fails before the upload
    const parse = (task: string) =>
      buildProgram({} as NodeJS.ProcessEnv).parseAsync([
        "node",
        "kps",
        "batch",
        "import",
        "--campaign",
        "1",
        "--queries",
        queries,
        "--task",
        task,
      ]);
    // Commander also writes the error to stderr: kept out of the test log (a NUL there makes grep read the log as binary).
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      for (const bad of ["QA", "fact_checking", "qa; drop table batches", "x".repeat(10_000), "qa\u0000"])
        await expect(parse(bad), bad.slice(0, 20)).rejects.toThrow(
          /--task <kind>.*Allowed choices are qa, fact-checking, slot-filling, entity-linking, dialogue/,
        );
    } finally {
      stderr.mockRestore();
    }
  });

  it("prints the task kind taken, its dataset and why, and what the answer-overlap filter did for it", () => {
    const task = {
      kind: "fact-checking" as const,
      detected: "fact-checking" as const,
      dataset: "fever",
      reason: "Detected fact checking: the file name names FEVER.",
    };
    expect(taskLines({ task, answerOverlap: null })).toEqual([
      "Task: fact checking (dataset fever). Detected fact checking: the file name names FEVER.",
    ]);
    expect(taskLines({ task, answerOverlap: { threshold: 0.1, rule: "off" } })[1]).toBe(
      "The answer-overlap filter (0.1) was off for fact checking: its answers are labels (SUPPORTS, REFUTES), not text, so no candidate was dropped for overlap.",
    );
    const linking = {
      kind: "entity-linking" as const,
      detected: "qa" as const,
      dataset: null,
      reason: "Imported as entity linking, as chosen.",
    };
    expect(taskLines({ task: linking, answerOverlap: { threshold: 0.5, rule: "titles" } })).toEqual([
      "Task: entity linking. Imported as entity linking, as chosen.",
      "The answer-overlap filter for entity linking kept a candidate when its page's title is one of the line's answers (Wikipedia titles, compared normalised); the threshold 0.5 does not apply.",
    ]);
  });
});
