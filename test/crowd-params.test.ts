import { describe, expect, it } from "vitest";
import { entryParamsOf, entryPlanOf } from "@/components/crowd/crowd-params";

describe("the crowd entry's parameters", () => {
  it("keeps each platform's parameters (first value) and nothing else", () => {
    const params = entryParamsOf({ PROLIFIC_PID: "p1", STUDY_ID: "s", SESSION_ID: ["a", "b"], utm_source: "x" });
    expect(params).toEqual({ PROLIFIC_PID: "p1", STUDY_ID: "s", SESSION_ID: "a" });
    expect(entryPlanOf(params)).toMatchObject({ kind: "enter", params });
  });

  it("is an MTurk preview while the assignment is not available", () => {
    expect(entryPlanOf(entryParamsOf({ workerId: "", assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE", hitId: "h" }))).toEqual({
      kind: "preview",
    });
  });

  it("tells two arrivals apart by their parameters", () => {
    const a = entryPlanOf({ worker: "w1" });
    const b = entryPlanOf({ worker: "w2" });
    const c = entryPlanOf({ worker: "w1" });
    expect(a.kind === "enter" && b.kind === "enter" && c.kind === "enter" && a.who !== b.who && a.who === c.who).toBe(true);
  });
});
