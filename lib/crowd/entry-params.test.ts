import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseEntryParams } from "./entry-params";

function refused(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("an entry link's parameters", () => {
  it("takes each platform's own parameters", () => {
    expect(parseEntryParams("prolific", { PROLIFIC_PID: "p1", STUDY_ID: "s1", SESSION_ID: "x1", utm: "y" })).toEqual({
      PROLIFIC_PID: "p1",
      STUDY_ID: "s1",
      SESSION_ID: "x1",
    });
    expect(parseEntryParams("generic", { worker: "w-1" })).toEqual({ worker: "w-1" });
  });

  it("sends a ?worker= link on a Prolific study back to the Prolific dashboard, naming what is missing and what belongs elsewhere", () => {
    const e = refused(() => parseEntryParams("prolific", { worker: "w-1" }));
    expect(e.code).toBe("invalid");
    expect(e.message).toBe(
      "This study's link comes from Prolific: open it from your Prolific dashboard (it carries PROLIFIC_PID, STUDY_ID and SESSION_ID). " +
        "This link has no PROLIFIC_PID, STUDY_ID or SESSION_ID. It has worker, which belongs to another kind of link.",
    );
    expect(e.message).not.toMatch(/Invalid request body|is required/);
    expect(JSON.stringify(e.details)).toMatch(/PROLIFIC_PID/);
  });

  it("sends Prolific parameters, or a missing assignmentId, on an MTurk HIT back to Mechanical Turk", () => {
    const prolific = refused(() => parseEntryParams("mturk", { PROLIFIC_PID: "p", STUDY_ID: "s", SESSION_ID: "x" }));
    expect(prolific.message).toMatch(/^This HIT's link comes from Mechanical Turk: accept the HIT on Mechanical Turk/);
    expect(prolific.message).toContain("This link has no workerId, assignmentId, hitId or turkSubmitTo.");
    expect(prolific.message).toContain("It has PROLIFIC_PID, STUDY_ID and SESSION_ID, which belong to another kind of link.");
    const noAssignment = refused(() =>
      parseEntryParams("mturk", { workerId: "w", hitId: "h", turkSubmitTo: "https://www.mturk.com", assignmentId: " " }),
    );
    expect(noAssignment.message).toContain("This link has no assignmentId.");
    expect(noAssignment.message).not.toContain("It has");
  });

  it("on a generic link, names the worker parameter, a badly written one, and the platform's parameters it does not use", () => {
    const prolific = refused(() => parseEntryParams("generic", { PROLIFIC_PID: "p" }));
    expect(prolific.message).toBe(
      "This study's link comes from its organiser: open the exact link they gave you (it carries worker). " +
        "This link has no worker. It has PROLIFIC_PID, which belongs to another kind of link.",
    );
    const bad = refused(() => parseEntryParams("generic", { worker: "<script>" }));
    expect(bad.message).toContain("Its worker must be letters, digits");
    expect(bad.message).not.toContain("has no");
  });
});
