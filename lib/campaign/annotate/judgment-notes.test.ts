import { describe, expect, it } from "vitest";
import { fieldProblems } from "@/lib/errors";
import { judgmentInputSchema } from "./judgments";
import { flagsLiteral, notesOf } from "./judgments.contract";
import { revisionInputSchema } from "./revise-judgment";

const base = { verdict: "insufficient", span: null, durationMs: 10, idempotencyKey: "key-12345" };
const problems = (schema: typeof judgmentInputSchema | typeof revisionInputSchema, body: unknown) => {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : fieldProblems(parsed.error).map((p) => p.field);
};

describe("a judgment's comment and flags", () => {
  it("are optional, and absent ones are none", () => {
    expect(problems(judgmentInputSchema, base)).toEqual([]);
    expect(notesOf(judgmentInputSchema.parse(base))).toEqual({ comment: null, flags: [] });
    expect(notesOf(judgmentInputSchema.parse({ ...base, comment: null, flags: ["offensive"] }))).toEqual({
      comment: null,
      flags: ["offensive"],
    });
  });

  it("take 1–2000 code points and known flags once each, naming the field otherwise", () => {
    expect(problems(judgmentInputSchema, { ...base, comment: "𐌅".repeat(2000) })).toEqual([]);
    expect(problems(judgmentInputSchema, { ...base, comment: "𐌅".repeat(2001) })).toEqual(["comment"]);
    expect(problems(judgmentInputSchema, { ...base, comment: "" })).toEqual(["comment"]);
    expect(problems(judgmentInputSchema, { ...base, comment: 1 })).toEqual(["comment"]);
    expect(problems(judgmentInputSchema, { ...base, flags: ["spam"] })).toEqual(["flags.0"]);
    expect(problems(judgmentInputSchema, { ...base, flags: "offensive" })).toEqual(["flags"]);
    expect(problems(judgmentInputSchema, { ...base, flags: ["offensive", "offensive"] })).toEqual(["flags"]);
    expect(flagsLiteral(["broken_text", "question_wrong"])).toBe("{broken_text,question_wrong}");
  });

  it("a revision is checked as a submission is, with the revision it replaces", () => {
    expect(problems(revisionInputSchema, { ...base, revision: 0 })).toEqual([]);
    expect(problems(revisionInputSchema, base)).toEqual(["revision"]);
    expect(problems(revisionInputSchema, { ...base, revision: -1 })).toEqual(["revision"]);
    // A sufficient verdict's span (and label) depend on the passage's task: checked once it is read (checkTaskVerdict).
    expect(problems(revisionInputSchema, { ...base, revision: 0, verdict: "sufficient" })).toEqual([]);
    expect(problems(revisionInputSchema, { ...base, revision: 0, label: "SUPPORTS" })).toEqual(["label"]);
  });

  it("a label is SUPPORTS or REFUTES, and only with a sufficient verdict", () => {
    const sufficient = { ...base, verdict: "sufficient", span: null };
    expect(problems(judgmentInputSchema, { ...sufficient, label: "REFUTES" })).toEqual([]);
    expect(problems(judgmentInputSchema, { ...sufficient, label: null })).toEqual([]);
    for (const label of ["supports", "NOT ENOUGH INFO", "S".repeat(10_000), "SUPPORTS\u0000", 1, ""])
      expect(problems(judgmentInputSchema, { ...sufficient, label })).toEqual(["label"]);
    expect(problems(judgmentInputSchema, { ...base, label: "SUPPORTS" })).toEqual(["label"]);
  });
});
