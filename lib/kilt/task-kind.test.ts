import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { taskLineSchema, type TaskLine } from "./schemas";
import {
  datasetOfFileName,
  detectTaskKind,
  headlineMetric,
  KILT_DATASETS,
  mentionOf,
  MENTION_CONTEXT_WORDS,
  retrievalQueryOf,
  RETRIEVAL_CONTEXT_WORDS,
  slotOf,
  taskDisplayOf,
  taskLineProblem,
  TASK_KINDS,
  type TaskKind,
  type TaskLineFacts,
} from "./task-kind";

// The team's KILT-shaped task files, one per dataset shape, and unnamed files: test/fixtures/kinds/README.md.
const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/kinds");

function linesOf(file: string): TaskLine[] {
  return fs
    .readFileSync(path.join(FIXTURES, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => taskLineSchema.parse(JSON.parse(l)));
}

/** What the import hands detection: the input, the answers in order without repeats, the meta. */
function factsOf(file: string): TaskLineFacts[] {
  return linesOf(file).map((l) => ({
    input: l.input,
    answers: [...new Set(l.output.flatMap((o) => (o.answer === undefined ? [] : [o.answer])))],
    meta: l.meta,
  }));
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

const NAMED: { file: string; kind: TaskKind; dataset: string; name: string; aKind: string }[] = [
  { file: "fever-dev-kilt.jsonl", kind: "fact-checking", dataset: "fever", name: "FEVER", aKind: "a fact checking" },
  { file: "trex-dev-kilt.jsonl", kind: "slot-filling", dataset: "trex", name: "T-REx", aKind: "a slot filling" },
  {
    file: "structured_zeroshot-dev-kilt.jsonl",
    kind: "slot-filling",
    dataset: "structured_zeroshot",
    name: "Zero Shot RE",
    aKind: "a slot filling",
  },
  { file: "aidayago2-dev-kilt.jsonl", kind: "entity-linking", dataset: "aidayago2", name: "AIDA CoNLL-YAGO", aKind: "an entity linking" },
  { file: "wow-dev-kilt.jsonl", kind: "dialogue", dataset: "wow", name: "Wizard of Wikipedia", aKind: "a dialogue" },
  { file: "nq-dev-kilt.jsonl", kind: "qa", dataset: "nq", name: "Natural Questions", aKind: "an open-domain QA" },
  { file: "eli5-dev-kilt.jsonl", kind: "qa", dataset: "eli5", name: "ELI5", aKind: "an open-domain QA" },
];

describe("detectTaskKind on the fixtures", () => {
  for (const f of NAMED) {
    it(`${f.file}: ${f.kind}, dataset ${f.dataset}, by its name`, () => {
      expect(detectTaskKind(f.file, factsOf(f.file))).toEqual({
        kind: f.kind,
        dataset: f.dataset,
        reason: `the file name ${f.file} names ${f.name}, ${f.aKind} dataset`,
      });
    });
  }

  it("every fixture line reads as its own kind (no line problem)", () => {
    for (const f of NAMED) for (const line of factsOf(f.file)) expect(taskLineProblem(f.kind, line), `${f.file}: ${line.input}`).toBeNull();
  });

  // The same lines under a name that says nothing: the lines decide, with no dataset.
  const unnamed: [string, TaskKind, string][] = [
    ["fever-dev-kilt.jsonl", "fact-checking", "every line's answers (4) are SUPPORTS or REFUTES"],
    ["trex-dev-kilt.jsonl", "slot-filling", 'every line (3) reads "subject [SEP] relation"'],
    ["structured_zeroshot-dev-kilt.jsonl", "slot-filling", 'every line (3) reads "subject [SEP] relation"'],
    ["aidayago2-dev-kilt.jsonl", "entity-linking", "every line (3) marks a mention with [START_ENT] … [END_ENT]"],
    ["wow-dev-kilt.jsonl", "dialogue", "3 of 4 lines hold a conversation of several turns, one per line"],
    ["nq-dev-kilt.jsonl", "qa", "no line looks like another KILT task: QA"],
    ["eli5-dev-kilt.jsonl", "qa", "no line looks like another KILT task: QA"],
  ];
  for (const [file, kind, reason] of unnamed) {
    it(`the lines of ${file} as upload.jsonl: ${kind}, no dataset`, () => {
      expect(detectTaskKind("upload.jsonl", factsOf(file))).toEqual({ kind, dataset: null, reason });
    });
  }
});

describe("detectTaskKind on unnamed and ambiguous files", () => {
  it('questions.jsonl: one question holds "[SEP]"; the file stays QA and says why', () => {
    expect(detectTaskKind("questions.jsonl", factsOf("unnamed/questions.jsonl"))).toEqual({
      kind: "qa",
      dataset: null,
      reason: 'only 1 of 3 lines read "subject [SEP] relation", not all: QA',
    });
  });

  it("claims.jsonl: every answer is SUPPORTS or REFUTES, so fact checking by its labels", () => {
    expect(detectTaskKind("claims.jsonl", factsOf("unnamed/claims.jsonl"))).toEqual({
      kind: "fact-checking",
      dataset: null,
      reason: "every line's answers (4) are SUPPORTS or REFUTES",
    });
  });

  it("data.jsonl: most inputs hold several turns, so dialogue", () => {
    expect(detectTaskKind("data.jsonl", factsOf("unnamed/data.jsonl"))).toEqual({
      kind: "dialogue",
      dataset: null,
      reason: "2 of 3 lines hold a conversation of several turns, one per line",
    });
  });

  it("mixed.jsonl: one line of each marker is QA, and the reason names each partial count", () => {
    expect(detectTaskKind("mixed.jsonl", factsOf("unnamed/mixed.jsonl"))).toEqual({
      kind: "qa",
      dataset: null,
      reason:
        'only 1 of 4 lines mark a mention, 1 of 4 lines read "subject [SEP] relation", 1 of 4 lines have SUPPORTS/REFUTES answers, not all: QA',
    });
  });

  it("a dataset named in every line's meta decides; named on some lines only, the lines decide", () => {
    const slots = factsOf("trex-dev-kilt.jsonl");
    const named = slots.map((l) => ({ ...l, meta: { dataset: "zsRE" } }));
    expect(detectTaskKind("upload.jsonl", named)).toEqual({
      kind: "slot-filling",
      dataset: "structured_zeroshot",
      reason: "every line's meta names Zero Shot RE, a slot filling dataset",
    });
    const some = slots.map((l, i) => (i === 0 ? { ...l, meta: { task: "fever" } } : l));
    expect(detectTaskKind("upload.jsonl", some)).toMatchObject({ kind: "slot-filling", dataset: null });
  });

  it("the file name wins over the lines; an empty file is QA", () => {
    expect(detectTaskKind("nq-dev-kilt.jsonl", factsOf("unnamed/claims.jsonl"))).toMatchObject({ kind: "qa", dataset: "nq" });
    expect(detectTaskKind("upload.jsonl", [])).toEqual({ kind: "qa", dataset: null, reason: "the file holds no lines; QA by default" });
  });

  it("reads KILT's file names, and no dataset into ordinary words", () => {
    const cases: [string, string | null][] = [
      ["fever-dev-kilt.jsonl", "fever"],
      ["structured_zeroshot-dev-kilt.jsonl", "structured_zeroshot"],
      ["triviaqa-dev_id-kilt.jsonl", "triviaqa"],
      ["fever-test_without_answers-kilt.jsonl", "fever"],
      ["uploads/wned-dev-kilt.jsonl.gz", "wned"],
      ["C:\\data\\cweb-dev-kilt.jsonl", "cweb"],
      ["HotpotQA-dev-kilt.jsonl", "hotpotqa"],
      ["eli5_dev.jsonl", "eli5"],
      ["claims.jsonl", null],
      ["data.jsonl", null],
      ["snowfall-dev.jsonl", null],
      ["unknowns.jsonl", null],
    ];
    for (const [name, dataset] of cases) expect(datasetOfFileName(name), name).toBe(dataset);
  });
});

describe("slotOf and mentionOf", () => {
  it("slotOf splits one [SEP] with text on both sides, trimmed", () => {
    expect(slotOf("  Lise Okonkwo [SEP]   place of death ")).toEqual({ subject: "Lise Okonkwo", relation: "place of death" });
    expect(slotOf("Lise Okonkwo place of death")).toBeNull();
    expect(slotOf("a [SEP] b [SEP] c")).toBeNull();
    expect(slotOf("Lise Okonkwo [SEP] ")).toBeNull();
    expect(slotOf(" [SEP] place of death")).toBeNull();
  });

  it("mentionOf trims the mention and its two sides", () => {
    expect(mentionOf("  left words  [START_ENT]   PORT ALDER   [END_ENT]  right words ")).toEqual({
      before: "left words",
      mention: "PORT ALDER",
      after: "right words",
    });
    expect(mentionOf("[START_ENT] Alder [END_ENT]")).toEqual({ before: "", mention: "Alder", after: "" });
  });

  it("mentionOf refuses no markers, one marker, reversed markers, two mentions and an empty mention", () => {
    for (const input of [
      "no markers here",
      "a [START_ENT] mention without an end",
      "a mention without a start [END_ENT] b",
      "a [END_ENT] reversed [START_ENT] b",
      "[START_ENT] one [END_ENT] and [START_ENT] two [END_ENT]",
      "[START_ENT] one [END_ENT] [END_ENT]",
      "a [START_ENT]   [END_ENT] b",
    ])
      expect(mentionOf(input), input).toBeNull();
  });
});

describe("taskDisplayOf and retrievalQueryOf", () => {
  const first = (file: string) => linesOf(file)[0]!.input;

  it("fact checking shows the claim and queries with it", () => {
    const claim = first("fever-dev-kilt.jsonl");
    expect(taskDisplayOf("fact-checking", claim)).toEqual({ kind: "fact-checking", claim });
    expect(retrievalQueryOf("fact-checking", claim)).toBe(claim);
  });

  it("slot filling shows subject and relation and queries with both; a line without [SEP] shows as a question", () => {
    for (const file of ["trex-dev-kilt.jsonl", "structured_zeroshot-dev-kilt.jsonl"]) {
      const input = first(file);
      const [subject, relation] = input.split(" [SEP] ");
      expect(taskDisplayOf("slot-filling", input)).toEqual({ kind: "slot-filling", subject, relation });
      expect(retrievalQueryOf("slot-filling", input)).toBe(`${subject} ${relation}`);
    }
    expect(taskDisplayOf("slot-filling", "no separator")).toEqual({ kind: "qa", question: "no separator" });
    expect(retrievalQueryOf("slot-filling", "no separator")).toBe("no separator");
  });

  it(`entity linking keeps ${MENTION_CONTEXT_WORDS} words each side of the mention, and says which side it trimmed`, () => {
    const lines = linesOf("aidayago2-dev-kilt.jsonl");
    const meta = (i: number) => lines[i]!.meta as { left_context: string; mention: string; right_context: string };
    const dateline = taskDisplayOf("entity-linking", lines[0]!.input);
    expect(dateline).toEqual({
      kind: "entity-linking",
      before: meta(0).left_context,
      mention: "PORT ALDER",
      after: words(meta(0).right_context).slice(0, MENTION_CONTEXT_WORDS).join(" "),
      trimmedBefore: false,
      trimmedAfter: true,
    });
    const late = taskDisplayOf("entity-linking", lines[2]!.input);
    expect(words(meta(2).left_context).length).toBeGreaterThan(MENTION_CONTEXT_WORDS);
    expect(words(meta(2).right_context).length).toBeGreaterThan(MENTION_CONTEXT_WORDS);
    expect(late).toEqual({
      kind: "entity-linking",
      before: words(meta(2).left_context).slice(-MENTION_CONTEXT_WORDS).join(" "),
      mention: "Alder",
      after: words(meta(2).right_context).slice(0, MENTION_CONTEXT_WORDS).join(" "),
      trimmedBefore: true,
      trimmedAfter: true,
    });
    expect(retrievalQueryOf("entity-linking", lines[2]!.input)).toBe(
      [
        ...words(meta(2).left_context).slice(-RETRIEVAL_CONTEXT_WORDS),
        "Alder",
        ...words(meta(2).right_context).slice(0, RETRIEVAL_CONTEXT_WORDS),
      ].join(" "),
    );
    expect(retrievalQueryOf("entity-linking", "[START_ENT] Alder [END_ENT]")).toBe("Alder");
    expect(taskDisplayOf("entity-linking", "no markers")).toEqual({ kind: "qa", question: "no markers" });
  });

  it("dialogue shows its turns, the last one speaker A's, so the reply to ground is B's; it queries with the last two turns", () => {
    const input = linesOf("wow-dev-kilt.jsonl")[3]!.input;
    const turns = input.split("\n");
    expect(taskDisplayOf("dialogue", input)).toEqual({
      kind: "dialogue",
      turns: turns.map((text, i) => ({ speaker: i % 2 === 0 ? "A" : "B", text })),
    });
    expect(retrievalQueryOf("dialogue", input)).toBe(`${turns[3]} ${turns[4]}`);
    expect(taskDisplayOf("dialogue", "  one turn  ")).toEqual({ kind: "dialogue", turns: [{ speaker: "A", text: "one turn" }] });
    expect(taskDisplayOf("dialogue", "first\n \nsecond\n")).toEqual({
      kind: "dialogue",
      turns: [
        { speaker: "B", text: "first" },
        { speaker: "A", text: "second" },
      ],
    });
  });

  it("QA shows the question and queries with it, whatever markers it holds", () => {
    for (const file of ["nq-dev-kilt.jsonl", "eli5-dev-kilt.jsonl", "unnamed/questions.jsonl"]) {
      for (const { input } of linesOf(file)) {
        expect(taskDisplayOf("qa", input)).toEqual({ kind: "qa", question: input });
        expect(retrievalQueryOf("qa", input)).toBe(input);
      }
    }
  });
});

describe("headlineMetric", () => {
  it("leads with each KILT dataset's own metric", () => {
    const expected: Record<string, string> = {
      fever: "accuracy",
      trex: "accuracy",
      structured_zeroshot: "accuracy",
      aidayago2: "accuracy",
      wned: "accuracy",
      cweb: "accuracy",
      nq: "em",
      hotpotqa: "em",
      triviaqa: "em",
      eli5: "rougel",
      wow: "f1",
    };
    expect(Object.keys(KILT_DATASETS).sort()).toEqual(Object.keys(expected).sort());
    for (const [dataset, info] of Object.entries(KILT_DATASETS))
      expect(headlineMetric(info.kind, dataset), dataset).toBe(expected[dataset]);
  });

  it("falls back to the kind's metric without a dataset, with an unknown one, or one of another kind", () => {
    const byKind: Record<TaskKind, string> = {
      qa: "em",
      "fact-checking": "accuracy",
      "slot-filling": "accuracy",
      "entity-linking": "accuracy",
      dialogue: "f1",
    };
    for (const kind of TASK_KINDS) {
      expect(headlineMetric(kind, null)).toBe(byKind[kind]);
      expect(headlineMetric(kind, "squad")).toBe(byKind[kind]);
    }
    expect(headlineMetric("qa", "fever")).toBe("em"); // a FEVER file imported as QA
    expect(headlineMetric("qa", "eli5")).toBe("rougel");
    expect(headlineMetric("dialogue", "eli5")).toBe("f1");
  });
});

describe("taskLineProblem", () => {
  const line = (input: string, answers: string[] = []): TaskLineFacts => ({ input, answers });

  it("fact checking takes only SUPPORTS and REFUTES, in capitals; a line without answers passes (a test file)", () => {
    expect(taskLineProblem("fact-checking", line("claim", ["SUPPORTS", "REFUTES"]))).toBeNull();
    expect(taskLineProblem("fact-checking", line("claim"))).toBeNull();
    for (const bad of ["NOT ENOUGH INFO", "supports", "Refutes", "SUPPORTS "]) {
      const problem = taskLineProblem("fact-checking", line("claim", ["SUPPORTS", bad]));
      expect(problem, bad).toEqual({
        field: "output",
        message: `has the label '${bad}'; fact checking takes KILT's labels SUPPORTS and REFUTES`,
      });
    }
  });

  it("slot filling needs one [SEP] with text on both sides", () => {
    expect(taskLineProblem("slot-filling", line("Harrow Quay Bridge [SEP] crosses"))).toBeNull();
    for (const bad of ["Harrow Quay Bridge crosses", "a [SEP] b [SEP] c", "Harrow Quay Bridge [SEP]  "])
      expect(taskLineProblem("slot-filling", line(bad))?.field, bad).toBe("input");
  });

  it("entity linking needs one marked mention", () => {
    expect(taskLineProblem("entity-linking", line("at [START_ENT] Port Alder [END_ENT] today"))).toBeNull();
    expect(taskLineProblem("entity-linking", line("no markers"))).toEqual({
      field: "input",
      message: "must mark one mention as [START_ENT] mention [END_ENT] for entity linking",
    });
    expect(taskLineProblem("entity-linking", line("[START_ENT] a [END_ENT] [START_ENT] b [END_ENT]"))?.field).toBe("input");
  });

  it("dialogue refuses an empty turn and names it", () => {
    expect(taskLineProblem("dialogue", line("one turn"))).toBeNull();
    expect(taskLineProblem("dialogue", line("hi\n\nthere"))).toEqual({
      field: "input",
      message: "turn 2 of 3 is empty; a dialogue's turns are its non-empty lines",
    });
    expect(taskLineProblem("dialogue", line("hi\nthere\n  "))?.message).toContain("turn 3 of 3 is empty");
  });

  it("QA takes any line", () => {
    for (const input of ["a [SEP] b [SEP] c", "[START_ENT] x", "hi\n\nthere"])
      expect(taskLineProblem("qa", line(input, ["maybe"]))).toBeNull();
  });
});
