import { describe, expect, it } from "vitest";
import { annotatorRowsOf } from "./annotator-rows";
import { chartBinMinutes, fillBins, progressOf } from "./dashboard";

const cell = (
  batchId: number,
  judgments: number,
  sufficient: number,
  passages: number,
  extra: Partial<{ claimed: number; open: number; decided: number }> = {},
) => ({
  batchId,
  judgments,
  sufficient,
  passages,
  claimed: extra.claimed ?? 0,
  open: extra.open ?? 0,
  decided: extra.decided ?? 0,
});

describe("progressOf", () => {
  it("sums slots, finished and endorsed passages from the (judgments, sufficient) cells", () => {
    // R = 3, T = 2. 10 untouched passages (30 open), 4 with one judgment and a claim each
    // (4 claimed, 4 open), 5 finished with 2 sufficient, 1 decided early at 2 of 2 sufficient.
    const p = progressOf(
      [cell(1, 0, 0, 10, { open: 30 }), cell(1, 1, 0, 4, { claimed: 4, open: 4 }), cell(1, 3, 2, 5), cell(1, 2, 2, 1, { decided: 1 })],
      3,
      2,
    );
    expect(p).toMatchObject({
      passages: 20,
      slots: 60,
      filled: 4 + 15 + 2,
      claimed: 4,
      open: 34,
      finishedPassages: 6,
      endorsedPassages: 6,
    });
    expect(p.notNeeded).toBe(60 - 21 - 4 - 34);
  });

  it("leaves agreement undefined without pairable verdicts, and 1 for unanimous mixed passages", () => {
    expect(progressOf([cell(1, 1, 1, 3)], 3, 2)).toMatchObject({ alpha: null, kappa: null });
    const unanimous = progressOf([cell(1, 3, 3, 2), cell(1, 3, 0, 2)], 3, 2);
    expect(unanimous.alpha).toBeCloseTo(1, 12);
    expect(unanimous.kappa).toBeCloseTo(1, 12);
  });
});

describe("annotatorRowsOf", () => {
  it("turns tallies into judgments, agreement, median and the share under 2 s", () => {
    const rows = annotatorRowsOf(
      [
        {
          userId: 7,
          judgments: 4,
          compared: 3,
          agreed: 2,
          buckets: [
            { bucket: 1, count: 3 },
            { bucket: 10, count: 1 },
          ],
        },
      ], // 0.5–1 s ×3, 5–5.5 s ×1
      [
        { userId: 7, username: "ann", status: "paused", pauseReason: "gold_rule", goldJudged: 4, goldCorrect: 1 },
        { userId: 8, username: "bob", status: null, pauseReason: null, goldJudged: null, goldCorrect: null },
      ],
    );
    expect(rows[0]).toMatchObject({
      username: "ann",
      status: "paused",
      pauseReason: "gold_rule",
      judgments: 4,
      compared: 3,
      shareUnder2s: 0.75,
    });
    expect(rows[0]!.agreement).toBeCloseTo(2 / 3, 12);
    expect(rows[0]!.goldAccuracy).toBeCloseTo(1.5 / 5, 12);
    expect(rows[0]!.medianSeconds).toBeGreaterThanOrEqual(0.5);
    expect(rows[0]!.medianSeconds).toBeLessThan(1);
    expect(rows[1]).toMatchObject({
      username: "bob",
      status: "active",
      judgments: 0,
      agreement: null,
      medianSeconds: null,
      shareUnder2s: null,
      goldAccuracy: 0.5,
    });
  });
});

describe("chart bins", () => {
  it("picks the smallest bin that keeps the chart under 120 points", () => {
    expect(chartBinMinutes(1)).toBe(1);
    expect(chartBinMinutes(119)).toBe(1);
    expect(chartBinMinutes(120)).toBe(5);
    expect(chartBinMinutes(24 * 60)).toBe(15);
    expect(chartBinMinutes(29 * 24 * 60)).toBe(360);
    expect(chartBinMinutes(30 * 24 * 60)).toBe(720); // 43,200 / 360 = 120 points: one too many
  });

  it("fills the empty bins between the first and the last", () => {
    const at = (m: number) => new Date(Date.UTC(2026, 10, 29, 10, m));
    expect(
      fillBins(
        [
          { at: at(0), judgments: 2 },
          { at: at(15), judgments: 1 },
        ],
        5,
      ),
    ).toEqual([
      { at: at(0).toISOString(), judgments: 2 },
      { at: at(5).toISOString(), judgments: 0 },
      { at: at(10).toISOString(), judgments: 0 },
      { at: at(15).toISOString(), judgments: 1 },
    ]);
    expect(fillBins([], 5)).toEqual([]);
  });
});
