import { describe, expect, it } from "vitest";
import { ScoreAccumulator } from "./accumulate";
import { downstreamOfQuestion } from "./downstream";
import { rankingMetrics } from "./retrieval";
import { gold, guess } from "@/test/kilt-records";

// KILT's evaluators on the lines of two more tasks: entity linking, whose provenance is page-level
// (`{wikipedia_id, title}`, no paragraph ids: kilt/datasets/entity_linking.py), and fact checking,
// whose answers are labels (SUPPORTS, REFUTES) and whose evidence may take several passages.

const ks = [1, 5];

describe("entity linking: page-level provenance without paragraph ids", () => {
  const el = gold({
    id: "el-1",
    input: "The match was played in [START_ENT] Paris [END_ENT] on Sunday.",
    output: [{ answer: "Paris", provenance: [{ wikipedia_id: "22989", title: "Paris" }] }],
  });

  it("ranks by wikipedia_id: a guess ranking the endorsed page first has R-precision 1", () => {
    const first = guess({ id: "el-1", output: [{ answer: "Paris", provenance: [{ wikipedia_id: "22989" }, { wikipedia_id: "7" }] }] });
    const page = rankingMetrics(el, first, ks, "page");
    expect(page).toMatchObject({ Rprec: 1, "precision@1": 1, "recall@5": 1, "success_rate@5": 1 });
    // The guess's items may carry paragraph ids; the page level reads only wikipedia_id.
    const withParagraphs = guess({
      id: "el-1",
      output: [{ provenance: [{ wikipedia_id: 22989, start_paragraph_id: 4, end_paragraph_id: 4 }] }],
    });
    expect(rankingMetrics(el, withParagraphs, ks, "page").Rprec).toBe(1);
  });

  it("gives R-precision 0 to a guess ranking another page first, and nothing at paragraph level (the gold has no paragraph ids)", () => {
    const second = guess({ id: "el-1", output: [{ provenance: [{ wikipedia_id: "7" }, { wikipedia_id: "22989" }] }] });
    expect(rankingMetrics(el, second, ks, "page")).toMatchObject({ Rprec: 0, "precision@1": 0, "recall@5": 1 });
    const first = guess({ id: "el-1", output: [{ provenance: [{ wikipedia_id: "22989", start_paragraph_id: 1, end_paragraph_id: 1 }] }] });
    // KILT's _get_ids_list skips an item that lacks a rank key: the gold has no paragraph-level id.
    expect(rankingMetrics(el, first, ks, "paragraph")).toMatchObject({ Rprec: 0, "precision@1": 0 });
  });

  it("scores the linked title as accuracy, and KILT-accuracy only with the page ranked first", () => {
    const right = guess({ id: "el-1", output: [{ answer: "Paris", provenance: [{ wikipedia_id: "22989" }] }] });
    const wrongPage = guess({ id: "el-1", output: [{ answer: "Paris", provenance: [{ wikipedia_id: "7" }] }] });
    expect(downstreamOfQuestion(el, right)).toMatchObject({ accuracy: 1, em: 1, provenanceRight: true });
    expect(downstreamOfQuestion(el, wrongPage)).toMatchObject({ accuracy: 1, provenanceRight: false });
    const acc = new ScoreAccumulator({ ks, levels: ["page"], downstream: true });
    acc.add(el, right);
    acc.add(el, wrongPage);
    const result = acc.result();
    expect(result.downstream!.downstream.accuracy).toBe(1);
    expect(result.downstream!.kilt["KILT-accuracy"]).toBe(0.5);
    expect(result.page!.Rprec).toBe(0.5);
  });
});

describe("fact checking: a label as the answer, evidence sets of several passages", () => {
  const fc = gold({
    id: "fc-1",
    input: "Velmora lighthouse was first lit in 1871.",
    output: [
      { answer: "SUPPORTS", provenance: [{ wikipedia_id: "61", start_paragraph_id: 2, end_paragraph_id: 2 }] },
      {
        answer: "SUPPORTS",
        provenance: [
          { wikipedia_id: "62", start_paragraph_id: 1, end_paragraph_id: 1 },
          { wikipedia_id: "63", start_paragraph_id: 3, end_paragraph_id: 3 },
        ],
      },
    ],
  });

  it("gives R-precision 1 for either evidence set ranked first, and a complete set only when all its pages are in", () => {
    const one = guess({
      id: "fc-1",
      output: [{ answer: "SUPPORTS", provenance: [{ wikipedia_id: "61", start_paragraph_id: 2, end_paragraph_id: 2 }] }],
    });
    expect(rankingMetrics(fc, one, ks, "page")).toMatchObject({ Rprec: 1, "precision@1": 1 });
    expect(rankingMetrics(fc, one, ks, "paragraph")).toMatchObject({ Rprec: 1, "precision@1": 1 });
    const half = guess({ id: "fc-1", output: [{ provenance: [{ wikipedia_id: "62" }, { wikipedia_id: "9" }] }] });
    // Rprec: best over outputs of |guess[:R] ∩ gold| / R = 1/2 for the two-page set; no set complete in the top 5.
    expect(rankingMetrics(fc, half, ks, "page")).toMatchObject({ Rprec: 0.5, "success_rate@5": 0 });
  });

  it("scores the label exactly: SUPPORTS is right, REFUTES is wrong, the KILT variant needs the evidence first", () => {
    const right = guess({ id: "fc-1", output: [{ answer: "SUPPORTS", provenance: [{ wikipedia_id: "61" }] }] });
    const wrong = guess({ id: "fc-1", output: [{ answer: "REFUTES", provenance: [{ wikipedia_id: "61" }] }] });
    const lucky = guess({ id: "fc-1", output: [{ answer: "SUPPORTS", provenance: [{ wikipedia_id: "9" }] }] });
    expect(downstreamOfQuestion(fc, right)).toMatchObject({ accuracy: 1, provenanceRight: true });
    expect(downstreamOfQuestion(fc, wrong)).toMatchObject({ accuracy: 0, em: 0, provenanceRight: true });
    expect(downstreamOfQuestion(fc, lucky)).toMatchObject({ accuracy: 1, provenanceRight: false });
    // Accuracy is exact (after strip): a lowercase label is not KILT's label.
    expect(downstreamOfQuestion(fc, guess({ id: "fc-1", output: [{ answer: "supports" }] })).accuracy).toBe(0);
  });
});
