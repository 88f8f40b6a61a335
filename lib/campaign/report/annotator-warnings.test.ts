import { describe, expect, it } from "vitest";
import { annotatorWarnings } from "./annotator-detail";

const t = { warnFastShare: 0.5, warnMinAgreement: 0.6, warnMinJudgments: 20 };

describe("annotatorWarnings", () => {
  it("flags more than the share under 2 s once there are enough judgments", () => {
    expect(annotatorWarnings({ judgments: 20, shareUnder2s: 0.55, compared: 0, agreement: null }, t)).toEqual([
      { kind: "fast", shareUnder2s: 0.55 },
    ]);
    expect(annotatorWarnings({ judgments: 19, shareUnder2s: 1, compared: 0, agreement: null }, t)).toEqual([]);
    // At the threshold exactly: not above it.
    expect(annotatorWarnings({ judgments: 40, shareUnder2s: 0.5, compared: 0, agreement: null }, t)).toEqual([]);
  });

  it("flags agreement below the threshold once enough judgments were compared", () => {
    expect(annotatorWarnings({ judgments: 50, shareUnder2s: 0, compared: 20, agreement: 0.55 }, t)).toEqual([
      { kind: "agreement", agreement: 0.55 },
    ]);
    expect(annotatorWarnings({ judgments: 50, shareUnder2s: 0, compared: 19, agreement: 0 }, t)).toEqual([]);
    expect(annotatorWarnings({ judgments: 50, shareUnder2s: 0, compared: 30, agreement: 0.6 }, t)).toEqual([]);
  });

  it("gives both reasons", () => {
    expect(annotatorWarnings({ judgments: 30, shareUnder2s: 0.9, compared: 30, agreement: 0.1 }, t).map((w) => w.kind)).toEqual([
      "fast",
      "agreement",
    ]);
  });
});
