import type { FactLabel } from "@/lib/kilt/task-kind";
import type { CrowdOutcome, CrowdPlatform, CrowdStage } from "@/db/schema";
import type { Task } from "@/lib/campaign/annotate/judging.contract";

// What the crowd routes answer (pure types: the crowd page imports them). Dates are ISO strings
// over HTTP; the domain returns them as strings already, so both sides read the same shape.

/** The public face of an entry (GET /api/crowd/:key): what the MTurk preview and the consent step show. */
export interface CrowdEntryInfo {
  campaignName: string;
  platform: CrowdPlatform;
  /** Markdown. */
  consent: string;
  /** Markdown: the campaign's instructions. */
  instructions: string;
  trainingItems: number;
  quota: number;
  quotaUnit: "passages" | "questions";
  timeLimitMinutes: number;
  /** Markdown: the example the coordinator wrote for the public page (never a gold passage); empty: the instructions alone. */
  example: string;
}

/** Where a finished session sends the worker. */
export type CrowdCompletion =
  /** Prolific: to `url` (the completion URL with ?cc=CODE). */
  | { kind: "redirect"; url: string }
  /** MTurk: a form POST of `fields` (assignmentId, outcome, code) to `action` ({turkSubmitTo}/mturk/externalSubmit). */
  | { kind: "mturk"; action: string; fields: Record<string, string> }
  /** Generic: the code on screen. */
  | { kind: "code" };

/** The caller's crowd session (GET /api/crowd/session and the answers of every crowd route). */
export interface CrowdSessionView {
  stage: CrowdStage;
  campaignId: number;
  campaignName: string;
  platform: CrowdPlatform;
  consent: string;
  instructions: string;
  /** The worker's session number (1, 2, …) of at most `maxSessions`. */
  number: number;
  maxSessions: number;
  training: { total: number; answered: number; correct: number; passShare: number };
  work: { judged: number; quota: number; unit: "passages" | "questions" };
  /** ISO time when the session's time runs out. */
  deadline: string;
  outcome: CrowdOutcome | null;
  code: string | null;
  completion: CrowdCompletion | null;
  /** What the outcome means, in words for the worker (null while the session is open). */
  message: string | null;
}

/** A training item: the passage as the judging page shows it, named by its position in the worker's training round. */
export interface TrainingItemView {
  /** 0-based; the answer names it, so a double submit is recognised. */
  position: number;
  total: number;
  query: Task["query"];
  passage: Task["passage"];
}

export interface TrainingSpan {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
  text: string;
}

/** The feedback on a training answer (POST /api/crowd/session/training). */
export interface TrainingFeedback {
  correct: boolean;
  /** What the worker answered, as stored. */
  given: { verdict: "sufficient" | "insufficient"; span: TrainingSpan | null; label: FactLabel | null };
  /** `label`: fact checking's expected label (the line's dataset label) when sufficient; null otherwise. */
  expected: { verdict: "sufficient" | "insufficient"; span: TrainingSpan | null; label: FactLabel | null };
  explanation: string | null;
  session: CrowdSessionView;
}
