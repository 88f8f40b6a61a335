/**
 * Campaign progress for the dashboard: how fast judgments are coming in and when the remaining
 * slots would be filled at that pace. Pure functions; the caller counts judgments in the window.
 */

/**
 * Projects the finish from the recent pace: `judgmentsInWindow` judgments in the last
 * `windowMinutes` minutes give `perHour`; `secondsLeft` is the time to fill `remainingSlots` at
 * that rate, rounded up to a whole second (never promise earlier than the rate says). A recent
 * window rather than the campaign average, so the estimate follows annotators joining or leaving.
 *
 * secondsLeft is 0 when nothing remains, and null when something remains but the rate is 0 (no
 * estimate possible). Throws a RangeError on negative counts or a window that is not positive.
 */
export function projectFinish(input: { remainingSlots: number; judgmentsInWindow: number; windowMinutes: number }): {
  perHour: number;
  secondsLeft: number | null;
} {
  const { remainingSlots, judgmentsInWindow, windowMinutes } = input;
  if (!(windowMinutes > 0) || !Number.isFinite(windowMinutes)) throw new RangeError(`windowMinutes must be > 0, got ${windowMinutes}`);
  if (!(judgmentsInWindow >= 0) || !Number.isFinite(judgmentsInWindow))
    throw new RangeError(`judgmentsInWindow must be ≥ 0, got ${judgmentsInWindow}`);
  if (!(remainingSlots >= 0) || !Number.isFinite(remainingSlots)) throw new RangeError(`remainingSlots must be ≥ 0, got ${remainingSlots}`);
  const perHour = (judgmentsInWindow * 60) / windowMinutes;
  if (remainingSlots === 0) return { perHour, secondsLeft: 0 };
  if (judgmentsInWindow === 0) return { perHour, secondsLeft: null };
  // remaining / (judgments per second), with the window in seconds to keep one division.
  return { perHour, secondsLeft: Math.ceil((remainingSlots * windowMinutes * 60) / judgmentsInWindow) };
}

/** The last hour must hold at least this many judgments before its pace is projected. */
export const MIN_JUDGMENTS_TO_PROJECT = 20;

/** What the dashboard says of the finish. */
export type FinishOutlook =
  | { kind: "empty" }
  | { kind: "done" }
  | { kind: "too_few"; judgmentsInWindow: number; needed: number }
  | { kind: "eta"; secondsLeft: number };

/**
 * The finish as the dashboard states it: "empty" with no slots at all (never "done" for a campaign
 * with nothing in it), "done" when slots exist and none remains, "too_few" when the window holds fewer
 * than `minJudgments` judgments (a pace of 3 judgments an hour projects nonsense), otherwise the
 * projection of `projectFinish`.
 */
export function finishOutlook(input: {
  slots: number;
  remainingSlots: number;
  judgmentsInWindow: number;
  windowMinutes: number;
  minJudgments?: number;
}): FinishOutlook {
  const needed = input.minJudgments ?? MIN_JUDGMENTS_TO_PROJECT;
  if (input.slots === 0) return { kind: "empty" };
  const { secondsLeft } = projectFinish(input);
  if (secondsLeft === 0) return { kind: "done" };
  if (input.judgmentsInWindow < needed || secondsLeft === null)
    return { kind: "too_few", judgmentsInWindow: input.judgmentsInWindow, needed };
  return { kind: "eta", secondsLeft };
}

/** The outlook in words, as the dashboard and `kps campaign status` print it. */
export function describeOutlook(o: FinishOutlook): string {
  if (o.kind === "empty") return "no passages yet";
  if (o.kind === "done") return "done";
  if (o.kind === "too_few") return "not enough recent judgments to project";
  return `in ${formatDuration(o.secondsLeft)}`;
}

/**
 * A duration for people, with the two largest units that matter: "45 s", "12 min", "3 h 20 min",
 * "2 d 4 h". The value is rounded to the smallest unit shown (so 3,599 s reads "1 h", not
 * "60 min"), and a zero second part is dropped ("3 h", "2 d"). Throws a RangeError on negative
 * or non-finite input.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`seconds must be finite and ≥ 0, got ${seconds}`);
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) return pair(Math.floor(minutes / 60), "h", minutes % 60, "min");
  const hours = Math.round(seconds / 3600);
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}

/** "3 h 20 min", or "3 h" when the smaller part is 0. */
function pair(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}
