import { describe, expect, it } from "vitest";
import { CROWD_OUTCOMES, CROWD_PLATFORMS } from "@/db/schema";
import { fieldProblems } from "@/lib/errors";
import {
  CROWD_DEFAULTS,
  CROWD_OUTCOME_LABELS,
  CROWD_OUTCOME_LIST,
  CROWD_PLATFORM_LIST,
  crowdEntryUrl,
  crowdSettingsSchema,
  duplicateCodes,
  generateCodes,
  randomCode,
  trainingItemsProblem,
  updateCrowdSettingsSchema,
} from "./settings.contract";

const problemsOf = (value: unknown) => {
  const result = updateCrowdSettingsSchema.safeParse(value);
  return result.success ? [] : fieldProblems(result.error);
};

describe("crowd settings schema", () => {
  it("lists the database's platforms and outcomes, and a label per outcome", () => {
    expect([...CROWD_PLATFORM_LIST]).toEqual([...CROWD_PLATFORMS]);
    expect([...CROWD_OUTCOME_LIST]).toEqual([...CROWD_OUTCOMES]);
    expect(Object.keys(CROWD_OUTCOME_LABELS).sort()).toEqual([...CROWD_OUTCOMES].sort());
  });

  it("accepts the defaults with generated codes as a whole, and any part of them as an update", () => {
    expect(crowdSettingsSchema.parse({ ...CROWD_DEFAULTS, codes: generateCodes() })).toMatchObject(CROWD_DEFAULTS);
    expect(updateCrowdSettingsSchema.parse({})).toEqual({});
    expect(updateCrowdSettingsSchema.parse({ quota: 6, codes: { paused: "PAUSE_1" } })).toEqual({ quota: 6, codes: { paused: "PAUSE_1" } });
    expect(updateCrowdSettingsSchema.parse({ maxJudgmentsPerWorker: null })).toEqual({ maxJudgmentsPerWorker: null });
  });

  it("names the field and says what is wrong with out-of-range numbers", () => {
    expect(problemsOf({ trainingItems: 51 })).toEqual([{ field: "trainingItems", message: "must be a whole number from 0 to 50" }]);
    expect(problemsOf({ trainingItems: 2.5 })[0]).toMatchObject({ field: "trainingItems", message: "must be a whole number from 0 to 50" });
    expect(problemsOf({ trainingPassShare: 1.2 })).toEqual([{ field: "trainingPassShare", message: "must be between 0 and 1" }]);
    expect(problemsOf({ quota: 0 })).toEqual([{ field: "quota", message: "must be a whole number from 1 to 10,000" }]);
    expect(problemsOf({ timeLimitMinutes: 1441 })[0]?.message).toContain("1 to 1,440 minutes");
    expect(problemsOf({ maxSessionsPerWorker: 0 })[0]?.field).toBe("maxSessionsPerWorker");
    expect(problemsOf({ maxJudgmentsPerWorker: 0 })[0]?.field).toBe("maxJudgmentsPerWorker");
    expect(problemsOf({ quota: "20" })).toEqual([{ field: "quota", message: "must be a whole number from 1 to 10,000" }]);
  });

  it("refuses unknown platforms, units, fields and outcomes", () => {
    expect(problemsOf({ platform: "upwork" })).toEqual([{ field: "platform", message: "must be 'prolific', 'mturk' or 'generic'" }]);
    expect(problemsOf({ quotaUnit: "hours" })).toEqual([{ field: "quotaUnit", message: "must be 'passages' or 'questions'" }]);
    expect(problemsOf({ entryKey: "mine" })[0]?.message).toContain("entryKey");
    expect(problemsOf({ codes: { bonus: "ABC" } })[0]).toMatchObject({ field: "codes" });
    expect(problemsOf({ enabled: "yes" })).toEqual([{ field: "enabled", message: "must be true or false" }]);
  });

  it("refuses codes that are empty, too long, or hold anything but letters, digits, '_' and '-'", () => {
    expect(problemsOf({ codes: { completed: "" } })[0]).toMatchObject({ field: "codes.completed", message: "must not be empty" });
    expect(problemsOf({ codes: { completed: "A".repeat(65) } })[0]).toMatchObject({
      field: "codes.completed",
      message: "must be at most 64 characters",
    });
    for (const hostile of ["<b>X</b>", "A B", "X&cc=Y", "Ä1", "a/b"]) {
      expect(problemsOf({ codes: { timed_out: hostile } })[0], hostile).toMatchObject({ field: "codes.timed_out" });
    }
    expect(updateCrowdSettingsSchema.parse({ codes: { completed: "a-Z_9".padEnd(64, "x") } }).codes?.completed).toHaveLength(64);
  });

  it("refuses two outcomes with one code (letter case aside), naming the second", () => {
    expect(problemsOf({ codes: { completed: "SAME1", paused: "same1" } })).toEqual([
      { field: "codes.paused", message: "is the same as the code for 'completed'; each outcome needs its own code" },
    ]);
    expect(
      duplicateCodes({ completed: "A", queue_empty: "B", paused: "A", timed_out: "B", training_failed: "C" }).map((p) => p.field),
    ).toEqual(["codes.paused", "codes.timed_out"]);
    // A change names the outcome changed, not the one that already had the code.
    expect(duplicateCodes({ completed: "A", paused: "a" }, ["completed"])).toEqual([
      { field: "codes.completed", message: "is the same as the code for 'paused'; each outcome needs its own code" },
    ]);
    expect(duplicateCodes({ completed: "A", paused: "A" }, [])).toEqual([]);
  });

  it("takes only absolute http(s) completion URLs", () => {
    expect(updateCrowdSettingsSchema.parse({ completionUrl: " https://app.prolific.com/submissions/complete " }).completionUrl).toBe(
      "https://app.prolific.com/submissions/complete",
    );
    expect(updateCrowdSettingsSchema.parse({ completionUrl: "http://127.0.0.1:4000/done" }).completionUrl).toBe(
      "http://127.0.0.1:4000/done",
    );
    for (const bad of [
      "javascript:alert(1)",
      "/submissions/complete",
      "ftp://example.org/x",
      "https://",
      "app.prolific.com/x",
      "https://user:pw@example.org/",
    ]) {
      expect(problemsOf({ completionUrl: bad })[0], bad).toMatchObject({
        field: "completionUrl",
        message: expect.stringContaining("absolute http"),
      });
    }
    expect(problemsOf({ completionUrl: `https://example.org/${"x".repeat(2000)}` })[0]?.message).toBe("must be at most 2,000 characters");
  });

  it("keeps markup in the consent text as text (Markdown rendering escapes it)", () => {
    const consent = "<script>alert(1)</script> **I agree** <img src=x onerror=alert(1)>";
    expect(updateCrowdSettingsSchema.parse({ consent }).consent).toBe(consent);
    expect(problemsOf({ consent: "x".repeat(50_001) })[0]).toMatchObject({
      field: "consent",
      message: "must be at most 50,000 characters",
    });
  });
});

describe("completion codes", () => {
  it("are 8 upper-case letters and digits, five distinct ones per entry", () => {
    for (let i = 0; i < 50; i++) expect(randomCode()).toMatch(/^[A-Z0-9]{8}$/);
    const codes = generateCodes();
    expect(Object.keys(codes)).toEqual([...CROWD_OUTCOMES]);
    expect(new Set(Object.values(codes)).size).toBe(CROWD_OUTCOMES.length);
    expect(duplicateCodes(codes)).toEqual([]);
  });
});

describe("crowdEntryUrl", () => {
  const key = "AbC-_123xyz0123456789w";

  it("gives Prolific its documented placeholders", () => {
    expect(crowdEntryUrl("https://kps.example.org/", key, "prolific")).toBe(
      `https://kps.example.org/crowd/${key}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
    );
  });

  it("gives MTurk the bare ExternalQuestion URL (MTurk adds its own parameters)", () => {
    expect(crowdEntryUrl("http://localhost:3000", key, "mturk")).toBe(`http://localhost:3000/crowd/${key}`);
  });

  it("gives other platforms a worker placeholder", () => {
    expect(crowdEntryUrl("https://kps.example.org", key, "generic")).toBe(`https://kps.example.org/crowd/${key}?worker=WORKER_ID`);
  });
});

describe("training items against the passages marked", () => {
  it("allows K = 0 always and K up to the marked count; beyond, says how many are marked", () => {
    expect(trainingItemsProblem(0, 0)).toBeNull();
    expect(trainingItemsProblem(3, 3)).toBeNull();
    expect(trainingItemsProblem(2, 7)).toBeNull();
    expect(trainingItemsProblem(5, 3)).toBe(
      "5 asked, but only 3 passages of this campaign are marked for training; mark more, or ask for 3 or fewer (0: no training)",
    );
    expect(trainingItemsProblem(2, 1)).toMatch(/^2 asked, but only 1 passage of this campaign is marked for training; /);
    expect(trainingItemsProblem(1, 0)).toBe(
      '1 asked, but only 0 passages of this campaign are marked for training; mark gold items with "training": true in a batch import, or ask for 0 (no training)',
    );
  });
});
