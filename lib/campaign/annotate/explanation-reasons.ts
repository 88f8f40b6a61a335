// Pure and client-safe (the judging page's explain form and the question view import it): the
// reasons an annotator gives for a question no passage answers (db/schema.ts EXPLANATION_REASONS).

export type ExplanationReasonKey = "not_in_wikipedia" | "ambiguous" | "false_premise" | "other";

/** Each reason as people read it, in the order the form offers them. */
export const EXPLANATION_REASON_LABELS: Record<ExplanationReasonKey, string> = {
  not_in_wikipedia: "The answer is not in Wikipedia",
  ambiguous: "The question is ambiguous",
  false_premise: "The question rests on a false premise",
  other: "Other (say why)",
};
