import "server-only";
import type { FactLabel, MemberSpan } from "@/db/schema";
import type { JudgedVerdict } from "./annotators.contract";
import { spanOf, type JudgmentRow } from "./rows";

// The judgments of the question view (question-view.ts): each with whether it counts, its notes
// and, on an evidence set, its highlight per member.

export interface QuestionJudgment extends JudgedVerdict {
  id: number;
  username: string;
  durationMs: number;
  createdAt: string;
  /** Counted: the annotator is in good standing and this is among the passage's first R such judgments. */
  counted: boolean;
  paused: boolean;
  /** The annotator's note and flags (issue 14), and how often they revised it. */
  comment: string | null;
  flags: string[];
  revision: number;
  /** Fact checking: the label a sufficient judgment gave the claim (SUPPORTS, REFUTES); null otherwise. */
  label: FactLabel | null;
  /** Fact checking: the label differs from the dataset's (the question's answers, SUPPORTS or REFUTES). */
  labelDisagrees: boolean;
}

export interface ViewedJudgmentRow extends JudgmentRow {
  username: string;
  paused: boolean;
  comment: string | null;
  flags: string[];
  revision: number;
  label: FactLabel | null;
  partial: boolean;
  member_spans: MemberSpan[] | null;
}

/**
 * The rule of `countedJudgmentsOf` in TypeScript: in time order, the first R judgments of annotators
 * in good standing count. `labels`: fact checking's dataset labels, which a judgment's label
 * disagrees with when it is none of them (empty: nothing to disagree with).
 */
export function countedInOrder(rows: ViewedJudgmentRow[], judgmentsPerPassage: number, labels: string[]): QuestionJudgment[] {
  let countedSoFar = 0;
  return rows.map((j): QuestionJudgment => {
    const counted = !j.paused && countedSoFar < judgmentsPerPassage;
    if (counted) countedSoFar++;
    return {
      id: Number(j.id),
      username: j.username,
      verdict: j.verdict,
      unreadable: j.unreadable,
      span: spanOf(j),
      spanText: j.span_text,
      partial: j.partial,
      memberSpans: j.member_spans,
      durationMs: j.duration_ms,
      createdAt: new Date(j.created_at).toISOString(),
      counted,
      paused: j.paused,
      comment: j.comment,
      flags: j.flags,
      revision: j.revision,
      label: j.label ?? null,
      labelDisagrees: j.label != null && labels.length > 0 && !labels.includes(j.label),
    };
  });
}
