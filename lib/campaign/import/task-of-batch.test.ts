import { describe, expect, it } from "vitest";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { MAX_PROBLEMS, Problems } from "./import-problems";
import type { ParsedQuery } from "./read-batch-files";
import { taskOfBatch } from "./task-of-batch";

const file = (fileName: string) => ({ fileName, source: (async function* () {})() });

function parsed(inputs: string[], answers: string[][] = [], meta: unknown[] = []): ParsedQuery[] {
  return inputs.map((input, i) => ({
    kiltId: `q${i + 1}`,
    input,
    answers: answers[i] ?? ["x"],
    originalLine: "{}",
    lineNumber: i + 1,
    gold: [],
    meta: meta[i],
  }));
}

function run(fileName: string, lines: ParsedQuery[], chosen?: TaskKind) {
  const problems = new Problems();
  return { task: taskOfBatch(file(fileName), lines, chosen, problems), problems: problems.list };
}

const slots = ["Harrow Quay Bridge [SEP] crosses", "Lise Okonkwo [SEP] place of death"];

describe("taskOfBatch", () => {
  it("detects without a task option, and says so", () => {
    expect(run("trex-dev-kilt.jsonl", parsed(slots)).task).toEqual({
      kind: "slot-filling",
      detected: "slot-filling",
      dataset: "trex",
      reason: "Detected slot filling: the file name trex-dev-kilt.jsonl names T-REx, a slot filling dataset.",
    });
  });

  it("a task option equal to detection changes nothing but the reason's last sentence", () => {
    const cases: [string, ParsedQuery[], TaskKind][] = [
      ["trex-dev-kilt.jsonl", parsed(slots), "slot-filling"],
      ["upload.jsonl", parsed(slots, [], [{ dataset: "trex" }, { dataset: "trex" }]), "slot-filling"],
      // Only the first line names a dataset: detection keeps none, and so does the same choice.
      ["upload.jsonl", parsed(slots, [], [{ dataset: "trex" }]), "slot-filling"],
      ["upload.jsonl", parsed(["who built it"], [], [{ dataset: "nq" }]), "qa"],
    ];
    for (const [name, lines, kind] of cases) {
      const detected = run(name, lines).task;
      const chosen = run(name, lines, kind).task;
      expect(detected.kind).toBe(kind);
      expect(chosen, name).toEqual({ ...detected, reason: `${detected.reason} Confirmed by the import's task option.` });
    }
  });

  it("a task option over detection keeps no dataset of another kind, and says what detection said", () => {
    const { task, problems } = run("fever-dev-kilt.jsonl", parsed(["A claim."], [["SUPPORTS"]]), "qa");
    expect(task).toEqual({
      kind: "qa",
      detected: "fact-checking",
      dataset: null,
      reason:
        "Imported as open-domain QA, as chosen; detection said fact checking (the file name fever-dev-kilt.jsonl names FEVER, a fact checking dataset).",
    });
    expect(problems).toEqual([]);
  });

  it("checks every line for the kind taken, each problem on its line of its file", () => {
    const { problems } = run("upload.jsonl", parsed(["who built it", ...slots, "when was it lit"]), "slot-filling");
    expect(problems.map((p) => [p.file, p.line, p.field])).toEqual([
      ["upload.jsonl", 1, "input"],
      ["upload.jsonl", 4, "input"],
    ]);
  });

  it(`stops at ${MAX_PROBLEMS} problems`, () => {
    const lines = parsed(
      Array.from({ length: MAX_PROBLEMS + 50 }, (_, i) => `claim ${i}`),
      Array(MAX_PROBLEMS + 50).fill(["NOT ENOUGH INFO"]),
    );
    const { task, problems } = run("fever-dev-kilt.jsonl", lines);
    expect(task.kind).toBe("fact-checking");
    expect(problems).toHaveLength(MAX_PROBLEMS);
    expect(problems.at(-1)).toMatchObject({ line: MAX_PROBLEMS, field: "output" });
  });
});
