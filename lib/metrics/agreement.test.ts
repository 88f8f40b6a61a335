import { describe, expect, it } from "vitest";
import { fleissKappa, krippendorffAlphaNominal, profilesFromReliabilityData, type UnitProfile, verdictProfiles } from "./agreement";

/**
 * Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability", Annenberg School for
 * Communication, University of Pennsylvania, section C ("Nominal data, any number of observers,
 * missing values"): 4 observers A–D, 12 units, values 1–5, "." = missing; alpha nominal = 0.743.
 * The same data is the `nmm` example of R's irr::kripp.alpha (man/kripp.alpha.Rd), given there as a
 * vector that R fills by column into a 4-row matrix, i.e. each group of four is one unit. One
 * difference: irr puts unit 12's lone value 3 on the third observer, the paper (and the other
 * reproductions of it) on observer B. A lone value is not pairable, so alpha is the same.
 */
const KRIPPENDORFF_2011_R_VECTOR = [
  1,
  1,
  null,
  1,
  2,
  2,
  3,
  2,
  3,
  3,
  3,
  3,
  3,
  3,
  3,
  3,
  2,
  2,
  2,
  2,
  1,
  2,
  3,
  4,
  4,
  4,
  4,
  4,
  1,
  1,
  2,
  1,
  2,
  2,
  2,
  2,
  null,
  5,
  5,
  5,
  null,
  null,
  1,
  1,
  null,
  null,
  3,
  null,
];
const KRIPPENDORFF_2011: (number | null)[][] = [
  //    1     2  3  4  5  6  7  8  9    10    11    12   (units)
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null], // observer A
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3], // observer B
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null], // observer C
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null], // observer D
];

/**
 * Fleiss, J. L. (1971). "Measuring nominal scale agreement among many raters", Psychological
 * Bulletin 76(5), as worked on Wikipedia's "Fleiss' kappa" page: 10 subjects, 14 raters each,
 * 5 categories; n_ij = raters who put subject i in category j. Published figures:
 * p_j = 0.143, 0.200, 0.279, 0.150, 0.229; P̄ = 0.378; P_e = 0.213; kappa = 0.210.
 */
const FLEISS_EXAMPLE: number[][] = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

const profiles = (rows: number[][]): UnitProfile[] => rows.map((counts) => ({ counts }));

/*
 * Hand-computed binary example, 3 units × 3 raters, categories [yes, no]:
 *   unit 1: yes yes yes → [3, 0]
 *   unit 2: no  no  no  → [0, 3]
 *   unit 3: yes yes no  → [2, 1]
 * Alpha: n_yes = 5, n_no = 4, n = 9. Disagreeing pairs per unit (m² − Σ n²)/(m − 1):
 *   0, 0, (9 − 5)/2 = 2, so Σ_{c≠k} o_ck = 2; Σ_{c≠k} n_c n_k = 2 · 5 · 4 = 40;
 *   alpha = 1 − 8 · 2 / 40 = 3/5.
 * Kappa: P_i = (Σ n² − 3)/6 = 1, 1, 1/3, so P̄ = 7/9; p = 5/9, 4/9, P_e = 41/81;
 *   kappa = (7/9 − 41/81)/(1 − 41/81) = (22/81)/(40/81) = 11/20.
 */
const HAND = profiles([
  [3, 0],
  [0, 3],
  [2, 1],
]);
/** Every unit agrees: both measures are 1. */
const PERFECT = profiles([
  [3, 0],
  [0, 3],
  [0, 2],
]);
/** Every value in one category: chance agreement is certain, so neither measure is defined. */
const ONE_CATEGORY = profiles([
  [3, 0],
  [2, 0],
]);
/** Weighted profiles, and the same units written out as that many copies. */
const WEIGHTED: UnitProfile[] = [{ counts: [2, 1], weight: 3 }, { counts: [3, 0] }, { counts: [0, 2], weight: 2 }];
const WEIGHTED_AS_COPIES = profiles([
  [2, 1],
  [2, 1],
  [2, 1],
  [3, 0],
  [0, 2],
  [0, 2],
]);

/**
 * The cases both measures meet alike, as tests of the describe it is called in: the hand-computed
 * example, 1 for perfect agreement, and null where the measure is undefined (no units at all, then
 * `undefinedFor`).
 */
function itMeetsTheCommonCases(
  measure: (units: UnitProfile[]) => number | null,
  hand: { label: string; value: number },
  undefinedFor: { label: string; units: UnitProfile[][] },
) {
  it(`matches the hand-computed binary example: ${hand.label}`, () => {
    expect(measure(HAND)).toBeCloseTo(hand.value, 12);
  });

  it("is 1 for perfect agreement", () => {
    expect(measure(PERFECT)).toBe(1);
  });

  it(`is null when undefined: ${undefinedFor.label}`, () => {
    for (const units of [[], ...undefinedFor.units]) expect(measure(units)).toBeNull();
  });
}

describe("profilesFromReliabilityData", () => {
  it("reads the R column-major vector as the paper's observer × unit table (but for unit 12)", () => {
    const fromR = [0, 1, 2, 3].map((observer) => Array.from({ length: 12 }, (_, unit) => KRIPPENDORFF_2011_R_VECTOR[unit * 4 + observer]!));
    expect(fromR.map((row) => row.slice(0, 11))).toEqual(KRIPPENDORFF_2011.map((row) => row.slice(0, 11)));
    expect(fromR.map((row) => row[11])).toEqual([null, null, 3, null]); // irr: third observer
    expect(KRIPPENDORFF_2011.map((row) => row[11])).toEqual([null, 3, null, null]); // paper: observer B
    expect(krippendorffAlphaNominal(profilesFromReliabilityData(fromR))).toBe(
      krippendorffAlphaNominal(profilesFromReliabilityData(KRIPPENDORFF_2011)),
    );
  });

  it("gives one profile per unit, counts in one category order for all units", () => {
    const units = profilesFromReliabilityData(KRIPPENDORFF_2011);
    expect(units).toHaveLength(12);
    // Categories in order of first appearance: 1, 2, 3, 4 (row A), then 5 (row B).
    expect(units[0]!.counts).toEqual([3, 0, 0, 0, 0]); // 1 1 . 1
    expect(units[5]!.counts).toEqual([1, 1, 1, 1, 0]); // 1 2 3 4
    expect(units[9]!.counts).toEqual([0, 0, 0, 0, 3]); // . 5 5 5
    expect(units[11]!.counts).toEqual([0, 0, 1, 0, 0]); // . 3 . .  (a lone value)
  });

  it("matches the paper's coincidence-matrix marginals n_c = 9, 13, 10, 5, 3 (n = 40)", () => {
    const pairable = profilesFromReliabilityData(KRIPPENDORFF_2011).filter((u) => u.counts.reduce((a, b) => a + b, 0) >= 2);
    const totals = [0, 1, 2, 3, 4].map((c) => pairable.reduce((s, u) => s + u.counts[c]!, 0));
    expect(totals).toEqual([9, 13, 10, 5, 3]);
  });

  it("treats short rows as missing values and strings as categories", () => {
    expect(profilesFromReliabilityData([["a", "b", "a"], ["a"], [null, "b"]])).toEqual([
      { counts: [2, 0] },
      { counts: [0, 2] },
      { counts: [1, 0] },
    ]);
    expect(profilesFromReliabilityData([])).toEqual([]);
  });
});

describe("krippendorffAlphaNominal", () => {
  it("reproduces Krippendorff (2011): alpha = 0.743", () => {
    const alpha = krippendorffAlphaNominal(profilesFromReliabilityData(KRIPPENDORFF_2011));
    // n = 40, Σ_{c≠k} o_ck = 2 + 4 + 2 = 8 (units 2, 6, 8), Σ_{c≠k} n_c n_k = 40² − 384 = 1216:
    // alpha = 1 − 39 · 8 / 1216 = 113/152 = 0.74342…
    expect(alpha).toBeCloseTo(0.743, 3);
    expect(alpha).toBeCloseTo(113 / 152, 12);
  });

  itMeetsTheCommonCases(
    krippendorffAlphaNominal,
    { label: "3/5", value: 3 / 5 },
    {
      label: "nothing pairable, or every value in one category",
      units: [
        profiles([
          [1, 0],
          [0, 1],
          [0, 0],
        ]),
        ONE_CATEGORY,
        [{ counts: [2, 1], weight: 0 }],
      ],
    },
  );

  it("ignores units with a single value", () => {
    const extra = [...HAND, { counts: [1, 0] }, { counts: [0, 1], weight: 100 }, { counts: [0, 0] }];
    expect(krippendorffAlphaNominal(extra)).toBeCloseTo(3 / 5, 12);
  });

  it("counts a weighted profile like that many copies", () => {
    expect(krippendorffAlphaNominal(WEIGHTED)).toBeCloseTo(krippendorffAlphaNominal(WEIGHTED_AS_COPIES)!, 12);
  });

  it("works with any number of categories, short count arrays meaning trailing zeros", () => {
    const ragged = profiles([[2], [0, 2], [0, 1, 1], [1, 0, 0, 1]]);
    const padded = profiles([
      [2, 0, 0, 0],
      [0, 2, 0, 0],
      [0, 1, 1, 0],
      [1, 0, 0, 1],
    ]);
    expect(krippendorffAlphaNominal(ragged)).toBe(krippendorffAlphaNominal(padded));
  });

  it("rejects impossible profiles", () => {
    expect(() => krippendorffAlphaNominal([{ counts: [-1, 3] }])).toThrow(RangeError);
    expect(() => krippendorffAlphaNominal([{ counts: [1.5, 3] }])).toThrow(RangeError);
    expect(() => krippendorffAlphaNominal([{ counts: [1, 3], weight: -2 }])).toThrow(RangeError);
  });
});

describe("fleissKappa", () => {
  it("reproduces Fleiss (1971) via Wikipedia: P̄ = 0.378, P_e = 0.213, kappa = 0.210", () => {
    // The intermediate figures, straight from the table, check its reconstruction.
    expect(FLEISS_EXAMPLE.every((row) => row.reduce((a, b) => a + b, 0) === 14)).toBe(true);
    const columnTotals = [0, 1, 2, 3, 4].map((j) => FLEISS_EXAMPLE.reduce((s, row) => s + row[j]!, 0));
    expect(columnTotals).toEqual([20, 28, 39, 21, 32]);
    const p = columnTotals.map((t) => t / 140);
    [0.143, 0.2, 0.279, 0.15, 0.229].forEach((published, j) => expect(p[j]).toBeCloseTo(published, 3));
    const pI = FLEISS_EXAMPLE.map((row) => (row.reduce((s, n) => s + n * n, 0) - 14) / (14 * 13));
    const pBar = pI.reduce((a, b) => a + b, 0) / pI.length;
    const pE = p.reduce((s, x) => s + x * x, 0);
    expect(pBar).toBeCloseTo(0.378, 3);
    expect(pE).toBeCloseTo(0.213, 3);

    const kappa = fleissKappa(profiles(FLEISS_EXAMPLE));
    expect(kappa).toBeCloseTo(0.21, 3);
    expect(kappa).toBeCloseTo((pBar - pE) / (1 - pE), 12);
  });

  itMeetsTheCommonCases(
    fleissKappa,
    { label: "11/20", value: 11 / 20 },
    {
      label: "no unit with two raters, or P_e = 1",
      units: [
        profiles([
          [1, 0],
          [0, 1],
        ]),
        ONE_CATEGORY,
      ],
    },
  );

  it("ignores units with a single rater and counts weights as copies", () => {
    expect(fleissKappa([...HAND, { counts: [0, 1], weight: 50 }])).toBeCloseTo(11 / 20, 12);
    expect(fleissKappa(WEIGHTED)).toBeCloseTo(fleissKappa(WEIGHTED_AS_COPIES)!, 12);
  });

  it("handles a varying number of raters per unit", () => {
    // P_i: [2,0] → 1, [1,1] → 0, [3,0] → 1; P̄ = 2/3. Assignments: 6 vs 1 → P_e = 37/49.
    // kappa = (2/3 − 37/49)/(12/49) = (98 − 111)/147 · 49/12 = −13/36.
    expect(
      fleissKappa(
        profiles([
          [2, 0],
          [1, 1],
          [3, 0],
        ]),
      ),
    ).toBeCloseTo(-13 / 36, 12);
  });
});

describe("verdictProfiles", () => {
  const cells = [
    { judgments: 3, sufficient: 3, passages: 2 },
    { judgments: 3, sufficient: 2, passages: 1 },
    { judgments: 3, sufficient: 0, passages: 1 },
    { judgments: 2, sufficient: 1, passages: 1 },
    { judgments: 1, sufficient: 1, passages: 5 },
  ];

  it("maps each cell to [sufficient, insufficient] weighted by passages", () => {
    expect(verdictProfiles(cells)).toEqual([
      { counts: [3, 0], weight: 2 },
      { counts: [2, 1], weight: 1 },
      { counts: [0, 3], weight: 1 },
      { counts: [1, 1], weight: 1 },
      { counts: [1, 0], weight: 5 },
    ]);
  });

  it("round-trips: the tally gives the same agreement as the judgments one by one", () => {
    // Expand every passage into a column of verdicts, raters as rows, null where fewer judged.
    const columns: (string | null)[][] = [];
    for (const c of cells) {
      for (let p = 0; p < c.passages; p++) {
        columns.push([0, 1, 2].map((r) => (r < c.sufficient ? "sufficient" : r < c.judgments ? "insufficient" : null)));
      }
    }
    const matrix = [0, 1, 2].map((r) => columns.map((col) => col[r]!));
    const expanded = profilesFromReliabilityData(matrix);
    expect(krippendorffAlphaNominal(verdictProfiles(cells))).toBeCloseTo(krippendorffAlphaNominal(expanded)!, 12);
    expect(fleissKappa(verdictProfiles(cells))).toBeCloseTo(fleissKappa(expanded)!, 12);
  });

  it("rejects impossible cells", () => {
    expect(() => verdictProfiles([{ judgments: 2, sufficient: 3, passages: 1 }])).toThrow(RangeError);
    expect(() => verdictProfiles([{ judgments: 2, sufficient: -1, passages: 1 }])).toThrow(RangeError);
    expect(() => verdictProfiles([{ judgments: 2, sufficient: 1, passages: -1 }])).toThrow(RangeError);
  });
});
