import { describe, expect, it } from "vitest";
import {
  batchFields,
  describeProblem,
  importReducer,
  initialImportState,
  keptKnowledge,
  stepText,
  type ImportAction,
  type ImportState,
} from "./import-form-state";

const file = (name: string, bytes: number) => new File(["x".repeat(bytes)], name);
const run = (state: ImportState, ...actions: ImportAction[]) => actions.reduce(importReducer, state);
const chosen = run(initialImportState, {
  type: "edit",
  patch: { knowledge: file("k.jsonl", 100), queries: file("q.jsonl", 30), candidates: [file("dpr.jsonl", 12), file("bm25.jsonl", 8)] },
});

describe("importReducer", () => {
  it("starts with a knowledge step and a batch step sized from the files", () => {
    const s = run(chosen, { type: "start" });
    expect(s.busy).toBe(true);
    expect(s.steps.map((x) => [x.key, x.total, x.state])).toEqual([
      ["knowledge", 100, "waiting"],
      ["batch", 50, "waiting"],
    ]);
  });

  it("shows the server's text retrieval progress once the batch is uploaded, up to M of M", () => {
    let s = run(chosen, { type: "start" }, { type: "uploading", step: "batch" }, { type: "sent", step: "batch" });
    expect(stepText(s.steps[1]!)).toBe("Uploaded · checking lines…");
    s = run(s, { type: "ranking", step: "batch", progress: { step: "retrieve", done: 128, total: 1300 } });
    expect(s.steps[1]).toMatchObject({ state: "processing", loaded: 50 });
    expect(stepText(s.steps[1]!)).toBe("Uploaded · Text retrieval: ranked 128 of 1,300 questions");
    s = run(s, { type: "ranking", step: "batch", progress: { step: "retrieve", done: 1300, total: 1300 } });
    expect(stepText(s.steps[1]!)).toBe("Uploaded · Text retrieval: ranked 1,300 of 1,300 questions");
    expect(run(s, { type: "batchDone", result: {} as never }).steps[1]!.state).toBe("done");
  });

  it("has only the batch step without a knowledge source", () => {
    const s = run(initialImportState, { type: "edit", patch: { queries: file("q.jsonl", 7) } }, { type: "start" });
    expect(s.steps.map((x) => x.key)).toEqual(["batch"]);
  });

  it("tracks progress, then processing once every byte is sent, then done", () => {
    let s = run(
      chosen,
      { type: "start" },
      { type: "uploading", step: "knowledge" },
      { type: "progress", step: "knowledge", loaded: 40, total: 100 },
    );
    expect(s.steps[0]).toMatchObject({ loaded: 40, state: "uploading" });
    expect(stepText(s.steps[0]!)).toBe("40% · 40 bytes of 100 bytes");
    s = run(s, { type: "sent", step: "knowledge" });
    expect(s.steps[0]).toMatchObject({ loaded: 100, state: "processing" });
    s = run(s, { type: "knowledgeDone", result: { pages: 5 } as never });
    expect(s.steps[0]!.state).toBe("done");
    expect(s.steps[1]!.state).toBe("waiting");
  });

  it("keeps the knowledge source when only the batch failed", () => {
    const s = run(
      chosen,
      { type: "start" },
      { type: "knowledgeDone", result: { pages: 5 } as never },
      { type: "failed", step: "batch", message: "bad", problems: [{ file: "q.jsonl", line: 2, message: "is not valid JSON" }] },
      { type: "finished" },
    );
    expect(s.busy).toBe(false);
    expect(s.steps[1]!.state).toBe("failed");
    expect(keptKnowledge(s)).toEqual({ pages: 5 });
    expect(keptKnowledge(run(s, { type: "start" }))).toBeNull();
  });

  it("starts over from the defaults", () => {
    const s = run(chosen, { type: "edit", patch: { perRetriever: "9", retrieveText: true } }, { type: "start" }, { type: "reset" });
    expect(s).toEqual(initialImportState);
  });
});

describe("batchFields", () => {
  it("sends mapEvidence and minBleu only when evidence given as text is to be located, and counts the redirects file in the batch's bytes", () => {
    const draft = initialImportState.draft;
    expect(batchFields({ ...draft, minBleu: "0.7" })).toEqual([["perRetriever", "4"]]);
    expect(batchFields({ ...draft, mapEvidence: true, minBleu: " 0.7 " })).toEqual([
      ["perRetriever", "4"],
      ["mapEvidence", "on"],
      ["minBleu", "0.7"],
    ]);
    const withRedirects = { ...draft, queries: file("q.jsonl", 10), redirects: file("r.tsv", 5) };
    expect(run({ ...initialImportState, draft: withRedirects }, { type: "start" }).steps[0]!.total).toBe(10);
    expect(run({ ...initialImportState, draft: { ...withRedirects, mapEvidence: true } }, { type: "start" }).steps[0]!.total).toBe(15);
    expect(describeProblem({ field: "minBleu", message: "must be between 0 and 1" })).toBe("Minimum BLEU: must be between 0 and 1");
  });

  it("sends the options the coordinator set, and the text-retrieval count only with text retrieval", () => {
    const draft = initialImportState.draft;
    expect(batchFields(draft)).toEqual([["perRetriever", "4"]]);
    expect(batchFields({ ...draft, retrieveTopK: "6", minAnswerOverlap: " 0.1 ", name: " b " })).toEqual([
      ["perRetriever", "4"],
      ["minAnswerOverlap", "0.1"],
      ["name", "b"],
    ]);
    expect(batchFields({ ...draft, retrieveText: true, retrieveTopK: "6" })).toEqual([
      ["perRetriever", "4"],
      ["retrieve", "text"],
      ["retrieveTopK", "6"],
    ]);
  });

  it("sends the task only when the coordinator chose one over detection", () => {
    const draft = initialImportState.draft;
    expect(draft.task).toBe("");
    expect(batchFields(draft).map(([name]) => name)).not.toContain("task");
    expect(batchFields({ ...draft, task: "entity-linking" })).toEqual([
      ["perRetriever", "4"],
      ["task", "entity-linking"],
    ]);
    expect(describeProblem({ field: "task", message: "must be one of qa, …" })).toBe("Task: must be one of qa, …");
  });

  it("sends the evidence-set options: pages only with pairs, partial evidence only when chosen", () => {
    const draft = initialImportState.draft;
    expect([draft.sets, draft.setPages, draft.partialEvidence]).toEqual(["", "3", ""]);
    expect(batchFields({ ...draft, setPages: "5" })).toEqual([["perRetriever", "4"]]);
    expect(batchFields({ ...draft, sets: "pairs", setPages: " 4 ", partialEvidence: "off" })).toEqual([
      ["perRetriever", "4"],
      ["sets", "pairs"],
      ["setPages", "4"],
      ["partialEvidence", "off"],
    ]);
    expect(describeProblem({ field: "setPages", message: "must be at most 6" })).toBe("Pages paired per question: must be at most 6");
  });

  it("sends the retriever of unnamed lines only with one candidates file", () => {
    const file = new File(["{}"], "pilot-dpr.jsonl");
    const draft = { ...initialImportState.draft, retriever: " dpr " };
    expect(batchFields({ ...draft, candidates: [file] })).toEqual([
      ["perRetriever", "4"],
      ["retriever", "dpr"],
    ]);
    expect(batchFields({ ...draft, candidates: [file, file] })).toEqual([["perRetriever", "4"]]);
  });
});

describe("describeProblem", () => {
  it("names the file, line and field, or the form field's label", () => {
    expect(describeProblem({ file: "q.jsonl", line: 3, field: "input", message: "must not be empty" })).toBe(
      "q.jsonl line 3, input: must not be empty",
    );
    expect(describeProblem({ file: "q.jsonl", line: 2, field: "(line)", message: "is not valid JSON" })).toBe(
      "q.jsonl line 2: is not valid JSON",
    );
    expect(describeProblem({ field: "topK", message: "must be at most 100" })).toBe("Top-k candidates per retriever: must be at most 100");
    expect(describeProblem({ field: "minAnswerOverlap", message: "must be between 0 and 1" })).toBe(
      "Minimum answer overlap: must be between 0 and 1",
    );
  });
});
