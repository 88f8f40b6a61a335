/**
 * Judgment durations as a histogram: the database keeps, per batch, how many judgments fell in
 * each half-second bucket instead of every duration, so the dashboard reads a few hundred rows at
 * most. These pure functions put durations into buckets and read statistics back out of them.
 */

/** Width of one bucket. */
export const DURATION_BUCKET_MS = 500;

/** The last bucket, open-ended: it holds every duration ≥ MAX_DURATION_BUCKET × 500 ms = 120 s. */
export const MAX_DURATION_BUCKET = 240;

/** Lower bound of the open last bucket, in milliseconds (120 s). */
const OPEN_BUCKET_MS = MAX_DURATION_BUCKET * DURATION_BUCKET_MS;

/**
 * The bucket of a duration: min(floor(ms / 500), 240). Must agree with the SQL side,
 * `least(duration_ms / 500, 240)` with integer division, which for non-negative integers is the
 * same floor. Throws a RangeError for negative or NaN durations, which SQL would not floor.
 */
export function durationBucket(ms: number): number {
  if (Number.isNaN(ms) || ms < 0) throw new RangeError(`duration must be ≥ 0 ms, got ${ms}`);
  return Math.min(Math.floor(ms / DURATION_BUCKET_MS), MAX_DURATION_BUCKET);
}

/** How many judgments fell in one bucket. */
export interface BucketCount {
  bucket: number;
  count: number;
}

/**
 * Merges the rows into one count per bucket, indexed 0..240 (rows may come unsorted or repeat a
 * bucket, e.g. one row per batch). Throws a RangeError on a bucket outside 0..240 or a count that
 * is not a non-negative integer.
 */
function histogram(buckets: readonly BucketCount[]): number[] {
  const counts = new Array<number>(MAX_DURATION_BUCKET + 1).fill(0);
  for (const { bucket, count } of buckets) {
    if (!Number.isInteger(bucket) || bucket < 0 || bucket > MAX_DURATION_BUCKET) {
      throw new RangeError(`bucket must be an integer in 0..${MAX_DURATION_BUCKET}, got ${bucket}`);
    }
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
    counts[bucket] = (counts[bucket] ?? 0) + count;
  }
  return counts;
}

/**
 * Estimated value, in seconds, of the judgment of 1-based `rank` (by duration): the values of a
 * bucket are taken as spread evenly over it, the k-th of f at lower + (k − ½)/f of the width.
 * Anything in the open last bucket reads as its lower bound, 120 s.
 */
function valueAtRank(counts: readonly number[], rank: number): number {
  let before = 0;
  for (let b = 0; b < counts.length; b++) {
    const f = counts[b] ?? 0;
    if (rank <= before + f) {
      if (b === MAX_DURATION_BUCKET) return OPEN_BUCKET_MS / 1000;
      return ((b + (rank - before - 0.5) / f) * DURATION_BUCKET_MS) / 1000;
    }
    before += f;
  }
  throw new RangeError(`rank ${rank} beyond ${before} judgments`);
}

/**
 * Median duration in seconds, by linear interpolation inside the bucket that holds the middle
 * rank (bucket b is the interval [b·0.5 s, (b + 1)·0.5 s)). For an odd count N this is the
 * textbook grouped median L + (N/2 − F)/f · 0.5 s; for an even count it is the mean of the two
 * middle values, which is the same thing when both sit in one bucket and avoids snapping to a
 * bucket edge when they do not. A median in the open last bucket reads as 120 s ("120 s or more").
 *
 * Precision: the estimate lies in the same 0.5 s bucket as the true median (for an even count,
 * each middle value in its own true bucket), so it is good to about ±0.25 s (half a bucket, the
 * exact bound when a bucket holds one judgment) and never off by 0.5 s or more — which is fine
 * for a dashboard figure shown in whole seconds. It is null when there are no judgments.
 */
export function medianSecondsFromBuckets(buckets: readonly BucketCount[]): number | null {
  const counts = histogram(buckets);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  if (total % 2 === 1) return valueAtRank(counts, (total + 1) / 2);
  return (valueAtRank(counts, total / 2) + valueAtRank(counts, total / 2 + 1)) / 2;
}

/**
 * Share (0..1) of judgments that took less than `ms`. Exact because `ms` must fall on a bucket
 * boundary: a multiple of 500 between 0 and 120,000 (above that the open last bucket cannot be
 * split); anything else throws a RangeError rather than return a guess. Null when empty.
 */
export function shareUnder(buckets: readonly BucketCount[], ms: number): number | null {
  if (!Number.isInteger(ms) || ms < 0 || ms > OPEN_BUCKET_MS || ms % DURATION_BUCKET_MS !== 0) {
    throw new RangeError(`ms must be a multiple of ${DURATION_BUCKET_MS} between 0 and ${OPEN_BUCKET_MS}, got ${ms}`);
  }
  const counts = histogram(buckets);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const limit = ms / DURATION_BUCKET_MS; // buckets 0..limit−1 lie wholly below ms
  let under = 0;
  for (let b = 0; b < limit; b++) under += counts[b] ?? 0;
  return under / total;
}
