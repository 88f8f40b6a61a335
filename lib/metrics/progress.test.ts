import { describe, expect, it } from "vitest";
import { describeOutlook, finishOutlook, formatDuration, MIN_JUDGMENTS_TO_PROJECT, projectFinish } from "./progress";

describe("projectFinish", () => {
  it("projects from the rate in the window", () => {
    // 30 judgments in 15 min = 120/h; 600 slots left = 5 h.
    expect(projectFinish({ remainingSlots: 600, judgmentsInWindow: 30, windowMinutes: 15 })).toEqual({ perHour: 120, secondsLeft: 18_000 });
  });

  it("rounds the time left up to a whole second", () => {
    // 7 per minute: one slot takes 60/7 = 8.57 s → 9 s.
    expect(projectFinish({ remainingSlots: 1, judgmentsInWindow: 7, windowMinutes: 1 })).toEqual({ perHour: 420, secondsLeft: 9 });
  });

  it("is 0 when nothing remains, whatever the rate", () => {
    expect(projectFinish({ remainingSlots: 0, judgmentsInWindow: 0, windowMinutes: 60 })).toEqual({ perHour: 0, secondsLeft: 0 });
    expect(projectFinish({ remainingSlots: 0, judgmentsInWindow: 12, windowMinutes: 60 })).toEqual({ perHour: 12, secondsLeft: 0 });
  });

  it("is null when something remains and nobody is judging", () => {
    expect(projectFinish({ remainingSlots: 5, judgmentsInWindow: 0, windowMinutes: 60 })).toEqual({ perHour: 0, secondsLeft: null });
  });

  it("rejects a window that is not positive and negative counts", () => {
    expect(() => projectFinish({ remainingSlots: 5, judgmentsInWindow: 1, windowMinutes: 0 })).toThrow(RangeError);
    expect(() => projectFinish({ remainingSlots: -1, judgmentsInWindow: 1, windowMinutes: 10 })).toThrow(RangeError);
    expect(() => projectFinish({ remainingSlots: 1, judgmentsInWindow: -1, windowMinutes: 10 })).toThrow(RangeError);
  });
});

describe("formatDuration", () => {
  it.each([
    [
      "seconds under a minute",
      [
        [0, "0 s"],
        [45, "45 s"],
        [59.4, "59 s"],
      ],
    ],
    [
      "minutes under an hour",
      [
        [59.6, "1 min"],
        [89, "1 min"],
        [720, "12 min"],
      ],
    ],
    [
      "hours and minutes under a day",
      [
        [3_599, "1 h"],
        [3_600, "1 h"],
        [5_400, "1 h 30 min"],
        [12_000, "3 h 20 min"],
      ],
    ],
    [
      "days and hours beyond",
      [
        [86_399, "1 d"],
        [172_800, "2 d"],
        [187_200, "2 d 4 h"],
      ],
    ],
  ] as const)("shows %s", (_, cases) => {
    for (const [seconds, text] of cases) expect(formatDuration(seconds)).toBe(text);
  });

  it("rejects negative and non-finite input", () => {
    expect(() => formatDuration(-1)).toThrow(RangeError);
    expect(() => formatDuration(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("finishOutlook", () => {
  const window = { windowMinutes: 60 };
  it("never says done for an empty campaign", () => {
    expect(finishOutlook({ ...window, slots: 0, remainingSlots: 0, judgmentsInWindow: 0 })).toEqual({ kind: "empty" });
    expect(describeOutlook({ kind: "empty" })).toBe("no passages yet");
  });

  it("says done when slots exist and none remains, whatever the pace", () => {
    expect(finishOutlook({ ...window, slots: 30, remainingSlots: 0, judgmentsInWindow: 0 })).toEqual({ kind: "done" });
  });

  it(`projects only when the window holds at least ${MIN_JUDGMENTS_TO_PROJECT} judgments`, () => {
    const few = finishOutlook({ ...window, slots: 300, remainingSlots: 100, judgmentsInWindow: MIN_JUDGMENTS_TO_PROJECT - 1 });
    expect(few).toEqual({ kind: "too_few", judgmentsInWindow: 19, needed: 20 });
    expect(describeOutlook(few)).toBe("not enough recent judgments to project");
    expect(finishOutlook({ ...window, slots: 300, remainingSlots: 100, judgmentsInWindow: 0 }).kind).toBe("too_few");
    // 20 an hour, 100 left: 5 h.
    const enough = finishOutlook({ ...window, slots: 300, remainingSlots: 100, judgmentsInWindow: MIN_JUDGMENTS_TO_PROJECT });
    expect(enough).toEqual({ kind: "eta", secondsLeft: 5 * 3600 });
    expect(describeOutlook(enough)).toBe("in 5 h");
  });

  it("takes another minimum", () => {
    expect(finishOutlook({ ...window, slots: 9, remainingSlots: 3, judgmentsInWindow: 3, minJudgments: 3 })).toEqual({
      kind: "eta",
      secondsLeft: 3600,
    });
  });
});
