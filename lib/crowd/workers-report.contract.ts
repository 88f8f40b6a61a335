import { z } from "zod";
import type { CrowdOutcome, CrowdPlatform, CrowdStage } from "@/db/schema";
import { CROWD_OUTCOME_LIST } from "./settings.contract";

// The payment report's options, row shape and columns, apart from its query (pure: the workers page,
// the browser client and the CLI use them without the database modules).

/** The outcome filter: an outcome, or `open` for sessions not ended yet. */
export const WORKER_OUTCOME_FILTERS = [...CROWD_OUTCOME_LIST, "open"] as const satisfies readonly (CrowdOutcome | "open")[];
export type WorkerOutcomeFilter = (typeof WORKER_OUTCOME_FILTERS)[number];

export const WORKER_REPORT_FORMATS = ["csv", "jsonl"] as const;
export type WorkerReportFormat = (typeof WORKER_REPORT_FORMATS)[number];

/** The most rows one page carries, and the default. */
export const WORKER_PAGE_MAX = 500;
export const WORKER_PAGE_DEFAULT = 50;

/**
 * `GET /api/campaigns/:id/workers?q=&outcome=&after=&limit=&format=` — `q` a part of the platform
 * worker id, `outcome` one outcome (or `open`), `after` the session id that ended the page before;
 * `format` csv or jsonl: every row matching `q` and `outcome` as a download instead of a page.
 */
export const workerListQuerySchema = z.object({
  q: z.string().trim().max(200, "must be at most 200 characters").optional(),
  outcome: z.enum(WORKER_OUTCOME_FILTERS, { error: `must be one of ${WORKER_OUTCOME_FILTERS.join(", ")}` }).optional(),
  after: z.coerce.number().int().positive("must be a session id").optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1, `must be 1 to ${WORKER_PAGE_MAX}`)
    .max(WORKER_PAGE_MAX, `must be 1 to ${WORKER_PAGE_MAX}`)
    .default(WORKER_PAGE_DEFAULT),
  format: z.enum(WORKER_REPORT_FORMATS, { error: "must be csv or jsonl" }).optional(),
});
export type WorkerListQuery = z.infer<typeof workerListQuerySchema>;

/**
 * One crowd session of one worker: the platform's ids, how it ended, and the work in it. Gold
 * figures and the standing are the worker's in the campaign (they are not per session).
 */
export interface WorkerSessionRow {
  /** The session's id: the keyset of the pages (not a platform id). */
  id: number;
  platform: CrowdPlatform;
  /** The platform's worker id (PROLIFIC_PID, MTurk workerId, ?worker=). */
  workerId: string;
  pseudonym: string;
  /** The worker's session number, 1, 2, … */
  session: number;
  /** Prolific STUDY_ID / MTurk hitId. */
  studyId: string | null;
  /** Prolific SESSION_ID / MTurk assignmentId. */
  platformSessionId: string | null;
  stage: CrowdStage;
  outcome: CrowdOutcome | null;
  /** The completion code the worker was given (null while the session is open). */
  code: string | null;
  /** ISO times, UTC. */
  startedAt: string;
  endedAt: string | null;
  /** Real judgments in the session (training answers are not judgments). */
  judgments: number;
  /** Of those, the ones that count towards consensus now (`countedJudgmentsOf`). */
  countedJudgments: number;
  /** Time spent on the session's judgments and training answers, in seconds. */
  activeSeconds: number;
  trainingJudged: number;
  trainingCorrect: number;
  goldJudged: number;
  goldCorrect: number;
  /** (0.5 + goldCorrect) / (1 + goldJudged), the dashboard's smoothed accuracy; null before any gold. */
  goldAccuracy: number | null;
  /** Of the session's judgments on finished passages (`compared`), those matching the outcome. */
  agreed: number;
  compared: number;
  /** agreed / compared; null when none was compared. */
  agreement: number | null;
  paused: boolean;
  pauseReason: "coordinator" | "gold_rule" | "speed_rule" | null;
}

/** The columns of the CSV and the keys of a JSONL line, in order (the row without its paging id). */
export const WORKER_REPORT_COLUMNS = [
  "platform",
  "workerId",
  "pseudonym",
  "session",
  "studyId",
  "platformSessionId",
  "stage",
  "outcome",
  "code",
  "startedAt",
  "endedAt",
  "judgments",
  "countedJudgments",
  "activeSeconds",
  "trainingJudged",
  "trainingCorrect",
  "goldJudged",
  "goldCorrect",
  "goldAccuracy",
  "agreed",
  "compared",
  "agreement",
  "paused",
  "pauseReason",
] as const satisfies readonly (keyof WorkerSessionRow)[];
