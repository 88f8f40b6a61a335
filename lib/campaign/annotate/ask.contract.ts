// Propose or explain (issue 16) as the judging page's forms see it: the question asked about, the
// limits of a proposal and an explanation, and the reasons an annotator gives for a question no
// passage answers (db/schema.ts EXPLANATION_REASONS; explanations.ts checks they agree).

import type { TaskKind } from "@/lib/kilt/task-kind";

export type ExplanationReasonKey = "not_in_wikipedia" | "ambiguous" | "false_premise" | "other";

/** Each reason as people read it, in the order the form offers them. */
export const EXPLANATION_REASON_LABELS: Record<ExplanationReasonKey, string> = {
  not_in_wikipedia: "The answer is not in Wikipedia",
  ambiguous: "The question is ambiguous",
  false_premise: "The question rests on a false premise",
  other: "Other (say why)",
};

/** The longest explanation, in code points (the explanations_text_length constraint); text is required for `other`. */
export const MAX_EXPLANATION_LENGTH = 2000;

/** The most paragraphs a proposed passage spans (KILT's passages are a paragraph or a few); content paragraphs start at 1. */
export const MAX_PROPOSAL_PARAGRAPHS = 10;

/** The question an annotator owes a response for (GET /api/campaigns/:id/ask): another passage or an explanation. */
export interface Ask {
  /** The KILT id. */
  queryId: string;
  input: string;
  /** The KILT task of its batch: how the Ask screen shows the line. */
  kind: TaskKind;
  /** Only when the campaign shows answers to annotators. */
  answers?: string[];
  /** How many of its passages the caller judged (all insufficient). */
  judged: number;
  /**
   * Where the question's passages given to the caller lie (judged, or claimed and let go): the Ask
   * screen's page reader marks them, since proposing one of them again is refused. Never the
   * passages others judged without them, and nothing about gold.
   */
  given: PassageLocation[];
}

/** A passage's place on its page: content paragraphs `startParagraphId`…`endParagraphId`, inclusive. */
export interface PassageLocation {
  wikipediaId: string;
  startParagraphId: number;
  endParagraphId: number;
}
