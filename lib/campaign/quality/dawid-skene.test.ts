import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  annotatorSkills,
  type DawidSkeneFit,
  EPS,
  fitDawidSkene,
  fitDawidSkeneTraced,
  fitOneCoinDawidSkene,
  majorityVote,
  type OneCoinFit,
  type Verdict,
  type Vote,
} from "./dawid-skene";

// The fixtures: synthetic campaigns and what crowd-kit's DawidSkene / OneCoinDawidSkene print for
// them (test/fixtures/aggregation/README.md).
const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/aggregation");
const SEEDS = fs
  .readdirSync(FIXTURES)
  .filter((d) => d.startsWith("seed-"))
  .sort();

interface Expected {
  p_sufficient: Record<string, number>;
  labels: Record<string, Verdict>;
  priors: Record<Verdict, number>;
  errors?: Record<string, Record<string, number>>;
  skills?: Record<string, number>;
}

function jsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function load(seed: string) {
  const dir = path.join(FIXTURES, seed);
  const votes = jsonl<Vote>(path.join(dir, "judgments.jsonl"));
  const gold = new Map(jsonl<{ passage: string; verdict: Verdict }>(path.join(dir, "gold.jsonl")).map((g) => [g.passage, g.verdict]));
  const expected = JSON.parse(fs.readFileSync(path.join(dir, "expected.json"), "utf8")) as Record<string, Expected> & {
    passages: number;
    annotators: number;
    judgments: number;
  };
  return { votes, gold, expected };
}

const TOL = 1e-6;

function expectClose(got: number | undefined, want: number, what: string) {
  expect(got, what).toBeTypeOf("number");
  expect(Math.abs(got! - want), `${what}: ${got} vs crowd-kit's ${want}`).toBeLessThanOrEqual(TOL);
}

/** Every figure common to both models: posteriors, labels and priors, with the same keys. */
function expectCommon(
  fit: { pSufficient: Map<string, number>; labels: Map<string, Verdict>; priors: Record<Verdict, number> },
  want: Expected,
  seed: string,
) {
  expect([...fit.pSufficient.keys()].sort()).toEqual(Object.keys(want.p_sufficient).sort());
  for (const [p, v] of Object.entries(want.p_sufficient)) expectClose(fit.pSufficient.get(p), v, `${seed} p_sufficient ${p}`);
  expect([...fit.labels.keys()].sort()).toEqual(Object.keys(want.labels).sort());
  for (const [p, v] of Object.entries(want.labels)) expect(fit.labels.get(p), `${seed} label ${p}`).toBe(v);
  expect(Object.keys(fit.priors).sort()).toEqual(Object.keys(want.priors).sort());
  for (const [c, v] of Object.entries(want.priors)) expectClose(fit.priors[c as Verdict], v, `${seed} prior ${c}`);
}

describe.each(SEEDS)("crowd-kit's figures on %s", (seed) => {
  const { votes, gold, expected } = load(seed);

  it("the fixture is whole (counts as its expected.json says)", () => {
    expect(votes.length).toBe(expected.judgments);
    expect(new Set(votes.map((v) => v.passage)).size).toBe(expected.passages);
    expect(new Set(votes.map((v) => v.annotator)).size).toBe(expected.annotators);
    expect(gold.size).toBeGreaterThan(0);
  });

  for (const [key, options] of [
    ["dawid_skene", {}],
    ["dawid_skene_with_gold", { gold }],
  ] as const) {
    it(`DawidSkene(n_iter=100, tol=1e-5)${key.endsWith("gold") ? " with the gold as true_labels" : ""}: every posterior, label, prior and error cell to 1e-6`, () => {
      const want = expected[key]!;
      const fit = fitDawidSkene(votes, options);
      expect(fit.model).toBe("dawid-skene");
      expectCommon(fit, want, `${seed} ${key}`);
      expect([...fit.errors.keys()].sort()).toEqual(Object.keys(want.errors!).sort());
      for (const [annotator, cells] of Object.entries(want.errors!)) {
        const mine = fit.errors.get(annotator)!;
        // A verdict the annotator never gave has no row, in crowd-kit and here.
        expect(Object.keys(mine).sort(), `${seed} ${key} ${annotator} cells`).toEqual(Object.keys(cells).sort());
        for (const [cell, v] of Object.entries(cells)) expectClose(mine[cell], v, `${seed} ${key} ${annotator} ${cell}`);
      }
    });
  }

  it("OneCoinDawidSkene(n_iter=100, tol=1e-5): every posterior, label, prior and skill to 1e-6", () => {
    const want = expected.one_coin_dawid_skene!;
    const fit = fitOneCoinDawidSkene(votes);
    expect(fit.model).toBe("one-coin");
    expectCommon(fit, want, `${seed} one_coin`);
    expect([...fit.skills.keys()].sort()).toEqual(Object.keys(want.skills!).sort());
    for (const [annotator, v] of Object.entries(want.skills!))
      expectClose(fit.skills.get(annotator), v, `${seed} one_coin skill ${annotator}`);
  });

  it("gold passages read 1e-10 or 1 - as crowd-kit's clipped posteriors - whatever their votes", () => {
    const fit = fitDawidSkene(votes, { gold });
    for (const [passage, verdict] of gold) {
      expect(fit.labels.get(passage)).toBe(verdict);
      expect(fit.pSufficient.get(passage)).toBe(verdict === "sufficient" ? 1 : EPS);
    }
  });
});

// 40 small random campaigns (some with one annotator, one verdict only, or a passage judged once)
// and crowd-kit's figures for them: test/fixtures/aggregation/small-cases/make.py.
describe("crowd-kit's figures on 40 small random campaigns", () => {
  type Case = { votes: [string, string, Verdict][]; gold?: Record<string, Verdict> } & Record<
    "dawid_skene" | "one_coin_dawid_skene",
    Expected
  > & { dawid_skene_with_gold?: Expected };
  const cases = JSON.parse(fs.readFileSync(path.join(FIXTURES, "small-cases/cases.json"), "utf8")) as Record<string, Case>;

  it.each(Object.keys(cases))("%s: every posterior, label, prior, error cell and skill to 1e-6, with crowd-kit's keys", (name) => {
    const c = cases[name]!;
    const votes = c.votes.map(([passage, annotator, verdict]) => ({ passage, annotator, verdict }));
    const runs: [string, Expected, DawidSkeneFit | OneCoinFit][] = [
      ["dawid_skene", c.dawid_skene, fitDawidSkene(votes)],
      ["one_coin_dawid_skene", c.one_coin_dawid_skene, fitOneCoinDawidSkene(votes)],
    ];
    if (c.gold)
      runs.push(["dawid_skene_with_gold", c.dawid_skene_with_gold!, fitDawidSkene(votes, { gold: new Map(Object.entries(c.gold)) })]);
    for (const [key, want, fit] of runs) {
      const what = `${name} ${key}`;
      // With one verdict among the votes crowd-kit has one class: no posterior or prior of the other.
      const classes = Object.keys(want.priors);
      for (const [p, l] of Object.entries(want.labels)) expect(fit.labels.get(p), `${what} label ${p}`).toBe(l);
      expect(fit.labels.size).toBe(Object.keys(want.labels).length);
      if (classes.includes("sufficient"))
        for (const [p, x] of Object.entries(want.p_sufficient)) expectClose(fit.pSufficient.get(p), x, `${what} p ${p}`);
      else for (const p of fit.pSufficient.keys()) expect(fit.pSufficient.get(p)).toBe(0);
      for (const verdict of ["sufficient", "insufficient"] as const)
        expectClose(fit.priors[verdict], want.priors[verdict] ?? 0, `${what} prior ${verdict}`);
      if (fit.model === "one-coin") {
        expect([...fit.skills.keys()].sort()).toEqual(Object.keys(want.skills!).sort());
        for (const [a, x] of Object.entries(want.skills!)) expectClose(fit.skills.get(a), x, `${what} skill ${a}`);
      } else {
        expect([...fit.errors.keys()].sort()).toEqual(Object.keys(want.errors!).sort());
        for (const [a, cells] of Object.entries(want.errors!)) {
          expect(Object.keys(fit.errors.get(a)!).sort(), `${what} ${a} cells`).toEqual(Object.keys(cells).sort());
          for (const [cell, x] of Object.entries(cells)) expectClose(fit.errors.get(a)![cell], x, `${what} ${a} ${cell}`);
        }
      }
    }
  });
});

const v = (passage: string, annotator: string, verdict: Verdict): Vote => ({ passage, annotator, verdict });
/** Votes passage by passage, in the order written: `{ p1: { a: "sufficient" } }` is a's vote on p1. */
const votesOn = (byPassage: Record<string, Record<string, Verdict>>): Vote[] =>
  Object.entries(byPassage).flatMap(([passage, verdicts]) =>
    Object.entries(verdicts).map(([annotator, verdict]) => v(passage, annotator, verdict)),
  );

// Small cases worked by hand (and confirmed against crowd-kit's code run on them).
describe("hand-checked cases", () => {
  it("unanimous votes: one class, posterior 1, no cell for the verdict nobody gave", () => {
    const votes = votesOn({ p1: { a: "sufficient", b: "sufficient", c: "sufficient" }, p2: { a: "sufficient", b: "sufficient" } });
    const ds = fitDawidSkene(votes);
    expect([...ds.pSufficient]).toEqual([
      ["p1", 1],
      ["p2", 1],
    ]);
    expect([...ds.labels.values()]).toEqual(["sufficient", "sufficient"]);
    expect(ds.priors).toEqual({ sufficient: 1, insufficient: 0 });
    expect(Object.fromEntries(ds.errors)).toEqual({
      a: { "sufficient|sufficient": 1 },
      b: { "sufficient|sufficient": 1 },
      c: { "sufficient|sufficient": 1 },
    });
    const oc = fitOneCoinDawidSkene(votes);
    expect([...oc.pSufficient.values()]).toEqual([1, 1]);
    expect(Object.fromEntries(oc.skills)).toEqual({ a: 1, b: 1, c: 1 });
  });

  it("one annotator: their word, up to crowd-kit's EPS (errors 1/(1+EPS) and EPS/(1+EPS))", () => {
    const votes = [v("p1", "a", "sufficient"), v("p2", "a", "insufficient")];
    const ds = fitDawidSkene(votes);
    // Majority vote starts at one-hot; the M-step clips the empty cells to EPS, and each column sums to 1 + EPS.
    expect(ds.pSufficient.get("p1")).toBeCloseTo(1 / (1 + EPS), 15);
    expect(ds.pSufficient.get("p2")).toBe(EPS);
    expect(ds.priors.sufficient).toBeCloseTo(0.5, 12);
    expect(ds.errors.get("a")!["sufficient|sufficient"]).toBeCloseTo(1 - EPS, 15);
    expect(ds.errors.get("a")!["sufficient|insufficient"]).toBeCloseTo(EPS, 20);
    expect([...ds.labels.values()]).toEqual(["sufficient", "insufficient"]);
    const oc = fitOneCoinDawidSkene(votes);
    expect(oc.skills.get("a")).toBeCloseTo(1 - EPS, 15);
  });

  it("a tie goes to 'insufficient' (crowd-kit's first column), while the posterior stays 0.5", () => {
    const fit = fitDawidSkene([v("p1", "a", "sufficient"), v("p1", "b", "insufficient")]);
    expect(fit.pSufficient.get("p1")).toBe(0.5);
    expect(fit.labels.get("p1")).toBe("insufficient");
    expect(fitOneCoinDawidSkene([v("p1", "a", "sufficient"), v("p1", "b", "insufficient")]).skills).toEqual(
      new Map([
        ["a", 0.5],
        ["b", 0.5],
      ]),
    );
  });

  // Two careful annotators and a contrarian: c's one dissent on p1 is the only disagreement.
  const three = votesOn({
    p1: { a: "sufficient", b: "sufficient", c: "insufficient" },
    p2: { a: "sufficient", b: "sufficient", c: "sufficient" },
    p3: { a: "insufficient", b: "insufficient", c: "insufficient" },
  });

  it("without gold the majority wins p1, and c gets the blame: P(c says insufficient | sufficient) = 1/2", () => {
    const fit = fitDawidSkene(three);
    expect(fit.labels.get("p1")).toBe("sufficient");
    expect(fit.errors.get("c")!["insufficient|sufficient"]).toBeCloseTo(0.5, 9);
    expect(fit.errors.get("a")!["sufficient|sufficient"]).toBeCloseTo(1, 9);
    expect(fit.priors.sufficient).toBeCloseTo(2 / 3, 12);
    expect(fitOneCoinDawidSkene(three).skills.get("c")).toBeCloseTo(2 / 3, 12);
  });

  it("gold clamps a passage against its majority, and the blame moves to a and b", () => {
    const fit = fitDawidSkene(three, {
      gold: new Map([
        ["p1", "insufficient"],
        ["not-voted", "sufficient"],
      ]),
    });
    expect(fit.labels.get("p1")).toBe("insufficient");
    expect(fit.pSufficient.get("p1")).toBe(EPS);
    expect(fit.pSufficient.has("not-voted")).toBe(false);
    // Now a and b called an insufficient passage sufficient once in two, and c was right every time.
    expect(fit.errors.get("a")!["sufficient|insufficient"]).toBeCloseTo(0.5, 9);
    expect(fit.errors.get("c")!["insufficient|insufficient"]).toBeCloseTo(1, 9);
    expect(fit.priors.insufficient).toBeCloseTo(2 / 3, 9);
    // crowd-kit's own figure for this case (its code run on it): 0.999999999975.
    expect(fit.pSufficient.get("p2")).toBeCloseTo(0.999999999975, 12);
    const oc = fitOneCoinDawidSkene(three, { gold: new Map([["p1", "insufficient"]]) });
    expect(oc.labels.get("p1")).toBe("insufficient");
    expect(oc.skills.get("c")!).toBeGreaterThan(oc.skills.get("a")!);
  });

  it("gold naming a verdict nobody gave adds it as a class with no votes", () => {
    const fit = fitDawidSkene([v("p1", "a", "sufficient"), v("p2", "a", "sufficient"), v("p3", "a", "sufficient")], {
      gold: new Map([["p1", "insufficient"]]),
    });
    expect(fit.labels.get("p1")).toBe("insufficient");
    expect(fit.priors.insufficient + fit.priors.sufficient).toBeCloseTo(1, 12);
    expect(Object.keys(fit.errors.get("a")!).sort()).toEqual(["sufficient|insufficient", "sufficient|sufficient"]);
  });

  it("nIter 0 leaves the majority-vote start; the trace counts iterations and stops by tol", () => {
    const start = fitDawidSkene(three, { nIter: 0 });
    expect([...start.pSufficient.values()]).toEqual([2 / 3, 1, 0]);
    expect([...majorityVote(three).pSufficient.values()]).toEqual([2 / 3, 1, 0]);
    const { trace } = fitDawidSkeneTraced(three);
    expect(trace.iterations).toBeGreaterThan(1);
    expect(trace.iterations).toBeLessThan(100);
    const last = trace.lossHistory.at(-1)! - trace.lossHistory.at(-2)!;
    expect(last).toBeLessThan(1e-5);
    expect(fitDawidSkeneTraced(three, { nIter: 1 }).trace.iterations).toBe(1);
  });

  it("no votes: empty maps and zero priors", () => {
    const fit = fitDawidSkene([]);
    expect(fit.pSufficient.size).toBe(0);
    expect(fit.errors.size).toBe(0);
    expect(fit.priors).toEqual({ sufficient: 0, insufficient: 0 });
    expect(fitOneCoinDawidSkene([]).skills.size).toBe(0);
  });

  it("refuses a verdict outside the two (a caller that skipped its parse)", () => {
    expect(() => fitDawidSkene([{ passage: "p", annotator: "a", verdict: "maybe" as Verdict }])).toThrow(/vote 1: verdict/);
  });
});

describe("annotatorSkills", () => {
  it("ranks careful annotators above an always-sufficient one, who scores the prior of 'sufficient'", () => {
    const votes: Vote[] = [];
    const truth = ["sufficient", "insufficient", "insufficient", "sufficient", "insufficient", "insufficient"] as const;
    truth.forEach((t, i) => {
      votes.push(v(`p${i}`, "careful-1", t), v(`p${i}`, "careful-2", t), v(`p${i}`, "bot", "sufficient"));
    });
    const ds = fitDawidSkene(votes);
    const skills = annotatorSkills(ds);
    expect([...skills.keys()]).toEqual(["careful-1", "careful-2", "bot"]);
    expect(skills.get("bot")).toBeCloseTo(ds.priors.sufficient, 12);
    expect(ds.priors.sufficient).toBeCloseTo(1 / 3, 6);
    const oc = annotatorSkills(fitOneCoinDawidSkene(votes));
    expect([...oc.keys()].at(-1)).toBe("bot");
    expect(oc.get("careful-1")).toBeCloseTo(1, 6);
  });
});
