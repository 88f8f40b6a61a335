import "server-only";
import { sql, type Column, type SQL } from "drizzle-orm";

/**
 * The outcome rules, in one place: when a passage is endorsed, finished, disputed or closed early,
 * when a judgment agrees with its passage's outcome, and when a question is unanswerable. Each rule
 * is a pure function over a passage's counted judgments (see `countedJudgmentsOf`) and the
 * campaign's R and T, and the same rule as an SQL function (`kps_*`, db/sql/outcome-rules.sql) that the
 * tally triggers call; queries call those through the fragments below, never spell a rule out.
 * outcome.int.test.ts holds the triggers, the question view and the KILT export to these.
 */

/** What decides a passage's outcome: its counted judgments, and whether early stop closed it. */
export interface PassageCounts {
  judgmentCount: number;
  sufficientCount: number;
  isDecided: boolean;
}

/** The campaign settings the rules read (a `Campaign` row has them). */
export interface OutcomeSettings {
  /** R */
  judgmentsPerPassage: number;
  /** T */
  endorsementThreshold: number;
  earlyStop: boolean;
}

type Verdict = "sufficient" | "insufficient";

/** Endorsed: at least T of the counted judgments say sufficient. */
export function isEndorsed(sufficientCount: number, threshold: number): boolean {
  return sufficientCount >= threshold;
}

/** Finished: closed by early stop, or holding R counted judgments. */
export function isFinished(p: Omit<PassageCounts, "sufficientCount">, judgmentsPerPassage: number): boolean {
  return p.isDecided || p.judgmentCount >= judgmentsPerPassage;
}

/** Disputed: the counted verdicts differ. */
export function isDisputed(p: Omit<PassageCounts, "isDecided">): boolean {
  return p.sufficientCount > 0 && p.sufficientCount < p.judgmentCount;
}

/**
 * Closed early: early stop is on and the outcome cannot change any more — endorsed already, or so
 * many insufficient verdicts that the open slots cannot reach T.
 */
export function closesEarly(settings: OutcomeSettings, p: Omit<PassageCounts, "isDecided">): boolean {
  const { judgmentsPerPassage: r, endorsementThreshold: t } = settings;
  return settings.earlyStop && (isEndorsed(p.sufficientCount, t) || p.judgmentCount - p.sufficientCount > r - t);
}

/** A gold passage expected sufficient that finished without endorsement: its question is unanswerable. */
export function missesGold(p: { isGold: boolean; expectedVerdict: Verdict | null }, finished: boolean, endorsed: boolean): boolean {
  return p.isGold && p.expectedVerdict === "sufficient" && finished && !endorsed;
}

/** Whether a verdict agrees with its passage's outcome; null while the passage is not finished. */
export function agreesWithOutcome(verdict: Verdict, finished: boolean, endorsed: boolean): boolean | null {
  return finished ? (verdict === "sufficient") === endorsed : null;
}

export interface PassageOutcome {
  finished: boolean;
  endorsed: boolean;
  disputed: boolean;
  missesGold: boolean;
}

/** Every outcome of one passage under the campaign's R and T. */
export function passageOutcome(
  p: PassageCounts & { isGold: boolean; expectedVerdict: Verdict | null },
  settings: Omit<OutcomeSettings, "earlyStop">,
): PassageOutcome {
  const finished = isFinished(p, settings.judgmentsPerPassage);
  const endorsed = isEndorsed(p.sufficientCount, settings.endorsementThreshold);
  return { finished, endorsed, disputed: isDisputed(p), missesGold: missesGold(p, finished, endorsed) };
}

/** A question is unanswerable from the snapshot when one of its passages misses gold. */
export function isUnanswerable(passages: readonly Pick<PassageOutcome, "missesGold">[]): boolean {
  return passages.some((p) => p.missesGold);
}

/** Counts of one question's passages by outcome (the per-question tallies). */
export interface QuestionTally {
  passages: number;
  finished: number;
  endorsed: number;
  unanswerable: boolean;
}

export type QuestionOutcome = "unanswerable" | "answered" | "none-endorsed" | "open";

/** Where a question stands: left out of the export, answered, finished without an endorsed passage, or still open. */
export function questionOutcome(q: QuestionTally): QuestionOutcome {
  if (q.unanswerable) return "unanswerable";
  if (q.endorsed > 0) return "answered";
  if (q.passages > 0 && q.finished === q.passages) return "none-endorsed";
  return "open";
}

// ── The same rules in queries: calls of the SQL functions of db/sql/outcome-rules.sql ──

/** A column, an SQL expression, or a value sent as a parameter. */
type Operand = SQL | Column | number | boolean;

export const outcomeSql = {
  isEndorsed: (sufficientCount: Operand, threshold: Operand): SQL => sql`kps_is_endorsed(${sufficientCount}, ${threshold})`,
  isFinished: (isDecided: Operand, judgmentCount: Operand, judgmentsPerPassage: Operand): SQL =>
    sql`kps_is_finished(${isDecided}, ${judgmentCount}, ${judgmentsPerPassage})`,
  isDisputed: (judgmentCount: Operand, sufficientCount: Operand): SQL => sql`kps_is_disputed(${judgmentCount}, ${sufficientCount})`,
  closesEarly: (
    earlyStop: Operand,
    judgmentCount: Operand,
    sufficientCount: Operand,
    judgmentsPerPassage: Operand,
    threshold: Operand,
  ): SQL => sql`kps_closes_early(${earlyStop}, ${judgmentCount}, ${sufficientCount}, ${judgmentsPerPassage}, ${threshold})`,
  missesGold: (isGold: Operand, expectedVerdict: Operand, finished: Operand, endorsed: Operand): SQL =>
    sql`kps_misses_gold(${isGold}, ${expectedVerdict}, ${finished}, ${endorsed})`,
  agreesWithOutcome: (verdict: Operand, finished: Operand, endorsed: Operand): SQL =>
    sql`kps_agrees_with_outcome(${verdict}, ${finished}, ${endorsed})`,
};
