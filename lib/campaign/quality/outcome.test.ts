import { describe, expect, it } from "vitest";
import { agreesWithOutcome, closesEarly, isDisputed, isEndorsed, isFinished, missesGold, passageOutcome, questionOutcome } from "./outcome";

describe("outcome rules", () => {
  it("endorses at T sufficient counted judgments, finishes at R or when closed early, disputes mixed verdicts", () => {
    expect([isEndorsed(1, 2), isEndorsed(2, 2), isEndorsed(3, 2)]).toEqual([false, true, true]);
    expect([
      isFinished({ judgmentCount: 2, isDecided: false }, 3),
      isFinished({ judgmentCount: 3, isDecided: false }, 3),
      isFinished({ judgmentCount: 1, isDecided: true }, 3),
    ]).toEqual([false, true, true]);
    expect([
      isDisputed({ judgmentCount: 3, sufficientCount: 0 }),
      isDisputed({ judgmentCount: 3, sufficientCount: 1 }),
      isDisputed({ judgmentCount: 3, sufficientCount: 3 }),
    ]).toEqual([false, true, false]);
  });

  it("closes a passage early only with early stop on and once the outcome cannot change", () => {
    const on = { judgmentsPerPassage: 5, endorsementThreshold: 3, earlyStop: true };
    expect(closesEarly(on, { judgmentCount: 3, sufficientCount: 3 })).toBe(true); // endorsed already
    expect(closesEarly(on, { judgmentCount: 3, sufficientCount: 2 })).toBe(false); // 2 open slots could still endorse
    expect(closesEarly(on, { judgmentCount: 2, sufficientCount: 0 })).toBe(false); // 3 open slots: exactly T still possible
    expect(closesEarly(on, { judgmentCount: 3, sufficientCount: 0 })).toBe(true); // 2 open slots cannot reach T
    expect(closesEarly({ ...on, earlyStop: false }, { judgmentCount: 3, sufficientCount: 3 })).toBe(false);
  });

  it("misses gold when a sufficient gold passage finishes unendorsed; agreement only once finished", () => {
    const gold = { isGold: true, expectedVerdict: "sufficient" as const };
    expect([missesGold(gold, true, false), missesGold(gold, false, false), missesGold(gold, true, true)]).toEqual([true, false, false]);
    expect(missesGold({ isGold: false, expectedVerdict: null }, true, false)).toBe(false);
    expect([
      agreesWithOutcome("sufficient", true, true),
      agreesWithOutcome("insufficient", true, true),
      agreesWithOutcome("sufficient", false, true),
    ]).toEqual([true, false, null]);
    expect(
      passageOutcome(
        { ...gold, judgmentCount: 3, sufficientCount: 1, isDecided: false },
        { judgmentsPerPassage: 3, endorsementThreshold: 2 },
      ),
    ).toEqual({
      finished: true,
      endorsed: false,
      disputed: true,
      missesGold: true,
    });
  });

  it("places a question: unanswerable, answered, finished without an endorsed passage, or open", () => {
    expect(questionOutcome({ passages: 2, finished: 2, endorsed: 1, unanswerable: true })).toBe("unanswerable");
    expect(questionOutcome({ passages: 2, finished: 1, endorsed: 1, unanswerable: false })).toBe("answered");
    expect(questionOutcome({ passages: 2, finished: 2, endorsed: 0, unanswerable: false })).toBe("none-endorsed");
    expect(questionOutcome({ passages: 2, finished: 1, endorsed: 0, unanswerable: false })).toBe("open");
    expect(questionOutcome({ passages: 0, finished: 0, endorsed: 0, unanswerable: false })).toBe("open");
  });
});
