// The campaign dashboard as GET /api/campaigns/:id/dashboard answers it: the dashboard's figures and
// `kps campaigns dashboard` read these.
import type { Aggregation, BatchStatus, JudgmentFlag } from "@/db/schema";
import type { FinishOutlook } from "@/lib/metrics/progress";
import type { WaitingCounts } from "../quality/adjudication.contract";

/** Slots and agreement of a batch, or of the whole campaign. */
export interface Progress {
  passages: number;
  /** passages × R */
  slots: number;
  /** counted judgments */
  filled: number;
  /** live claims */
  claimed: number;
  /** free slots that can be claimed now */
  open: number;
  /** slots no one needs to fill: early stop, or judgments that stopped counting and were not reopened yet */
  notNeeded: number;
  /** passages decided or with R counted judgments */
  finishedPassages: number;
  endorsedPassages: number;
  /** Krippendorff's alpha (nominal) and Fleiss' kappa on the counted verdicts; null while undefined. */
  alpha: number | null;
  kappa: number | null;
}

export interface BatchProgress extends Progress {
  id: number;
  name: string;
  status: BatchStatus;
}

export interface Dashboard {
  campaign: { id: number; name: string; judgmentsPerPassage: number; endorsementThreshold: number; aggregation: Aggregation };
  generatedAt: string;
  totals: Progress;
  batches: BatchProgress[];
  questions: { unanswerable: number; answered: number };
  activity: { binMinutes: number; points: { at: string; judgments: number }[] };
  projection: {
    windowMinutes: number;
    judgmentsInWindow: number;
    perHour: number;
    remainingSlots: number;
    secondsLeft: number | null;
    outlook: FinishOutlook;
  };
  disputed: DisputedQuestion[];
  /** Judgments with a comment or flags (issue 14). */
  noted: NotedJudgments;
  /** Questions with explanations and passages proposed (issue 16). */
  responses: ResponseCounts;
  /** Gold judgments, sufficient and negative gold apart (issue 26). */
  gold: GoldSummary;
  /** Annotators by their Dawid–Skene skill, least skilled first (at most SKILL_ROWS), and how many the fit holds. */
  skills: { annotators: AnnotatorSkill[]; total: number };
  /** Questions that wait for the coordinator's word (adjudication), in all and by reason. */
  waiting: WaitingCounts;
  /** Open slots of launched batches that no eligible annotator can fill (each has judged, proposed or held the passage). */
  unfillable: UnfillableSlots;
}

/** Open slots nobody eligible can fill, the passages holding them, and how many annotators are eligible. */
export interface UnfillableSlots {
  slots: number;
  passages: number;
  eligible: number;
}

/** A question with passages whose counted verdicts differ. */
export interface DisputedQuestion {
  queryId: number;
  kiltId: string;
  input: string;
  passages: number;
  disputed: number;
}

/** What the dashboard shows of the annotators' comments and flags: how many, and the questions of the latest. */
export interface NotedJudgments {
  count: number;
  latest: { queryId: number; input: string; comment: string | null; flags: JudgmentFlag[] }[];
}

/** What the dashboard shows of propose-or-explain (issue 16). */
export interface ResponseCounts {
  /** Questions at least one annotator explained no passage answers. */
  questionsWithExplanations: number;
  /** Passages annotators proposed (a proposal merged into an existing passage counts once per proposer). */
  proposals: number;
}

/** The campaign's gold judgments, the two kinds apart (from the standings: a few rows per annotator, not per judgment). */
export interface GoldSummary {
  /** On sufficient gold (right: the verdict and, with an expected span, the span check). */
  sufficient: { judged: number; correct: number };
  /** On negative gold: expected insufficient, imported controls and decoys. */
  negative: { judged: number; correct: number };
}

/** An annotator as the dashboard lists them by estimated skill. */
export interface AnnotatorSkill {
  userId: number;
  username: string;
  /** Dawid–Skene accuracy: Σ_c prior(c)·P(says c | truth c), over their counted judgments. */
  skill: number;
  /** P(says sufficient | truth sufficient) and P(says insufficient | truth insufficient). */
  sensitivity: number;
  specificity: number;
  judgments: number;
}
