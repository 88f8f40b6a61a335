import { describe, expect, it } from "vitest";
import {
  type BucketCount,
  DURATION_BUCKET_MS,
  durationBucket,
  MAX_DURATION_BUCKET,
  medianSecondsFromBuckets,
  shareUnder,
} from "./durations";

/** Buckets the way the database does: one row per bucket that has judgments. */
function toBuckets(durations: readonly number[]): BucketCount[] {
  const byBucket = new Map<number, number>();
  for (const ms of durations) byBucket.set(durationBucket(ms), (byBucket.get(durationBucket(ms)) ?? 0) + 1);
  return [...byBucket].map(([bucket, count]) => ({ bucket, count }));
}

/** Bucket rows written as [bucket, count] pairs. */
const bucketRows = (...pairs: [number, number][]): BucketCount[] => pairs.map(([bucket, count]) => ({ bucket, count }));

/** Exact median in seconds, for comparison. */
function exactMedianSeconds(durations: readonly number[]): number {
  const sorted = [...durations].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const ms = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return ms / 1000;
}

/** Deterministic pseudo-random durations (an LCG), so the property test never flakes. */
function pseudoRandomDurations(n: number, seed: number, maxMs: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % maxMs;
  });
}

describe("durationBucket", () => {
  it("puts boundaries where the SQL least(duration_ms / 500, 240) does", () => {
    expect(DURATION_BUCKET_MS).toBe(500);
    expect(MAX_DURATION_BUCKET).toBe(240);
    expect(durationBucket(0)).toBe(0);
    expect(durationBucket(499)).toBe(0);
    expect(durationBucket(500)).toBe(1);
    expect(durationBucket(119_999)).toBe(239);
    expect(durationBucket(120_000)).toBe(240);
    expect(durationBucket(3_600_000)).toBe(240);
    expect(durationBucket(Number.MAX_SAFE_INTEGER)).toBe(240);
  });

  it("agrees with integer division on every integer millisecond up to 121 s", () => {
    for (let ms = 0; ms <= 121_000; ms++) {
      const sql = Math.min(Math.trunc(ms / 500), 240);
      if (durationBucket(ms) !== sql) expect(durationBucket(ms)).toBe(sql);
    }
  });

  it("rejects negative and NaN durations", () => {
    expect(() => durationBucket(-1)).toThrow(RangeError);
    expect(() => durationBucket(Number.NaN)).toThrow(RangeError);
  });
});

describe("medianSecondsFromBuckets", () => {
  it("is null when there are no judgments", () => {
    expect(medianSecondsFromBuckets([])).toBeNull();
    expect(medianSecondsFromBuckets([{ bucket: 3, count: 0 }])).toBeNull();
  });

  it("reads a lone judgment as the middle of its bucket", () => {
    expect(medianSecondsFromBuckets([{ bucket: 0, count: 1 }])).toBe(0.25);
    expect(medianSecondsFromBuckets([{ bucket: 7, count: 1 }])).toBe(3.75);
  });

  it("interpolates inside the bucket for an odd count", () => {
    // One at 1.0–1.5 s, one at 2.0–2.5 s, one at 5.0–5.5 s: middle rank in bucket 4 → 2.25 s.
    expect(medianSecondsFromBuckets(bucketRows([2, 1], [4, 1], [10, 1]))).toBe(2.25);
    // N = 5, F = 1 below bucket 4, f = 4 in it: L + (N/2 − F)/f · w = 2 + (2.5 − 1)/4 · 0.5 = 2.1875 s.
    expect(medianSecondsFromBuckets(bucketRows([0, 1], [4, 4]))).toBe(2.1875);
  });

  it("averages the two middle ranks for an even count", () => {
    // Both middle ranks in bucket 6 (3.0–3.5 s): the grouped median, 3 + (2 − 0)/4 · 0.5 = 3.25 s.
    expect(medianSecondsFromBuckets([{ bucket: 6, count: 4 }])).toBe(3.25);
    // N = 6: rank 3 is the last of 3 in bucket 2, 1 + (2.5/3) · 0.5 = 1.41667 s; rank 4 the first of
    // 2 in bucket 6, 3 + (0.5/2) · 0.5 = 3.125 s; the median is their mean, 2.27083 s.
    expect(medianSecondsFromBuckets(bucketRows([2, 3], [6, 2], [9, 1]))).toBeCloseTo((1 + (2.5 / 3) * 0.5 + 3.125) / 2, 12);
    // Middle pair in different buckets: mean of their midpoints, not the edge of the first bucket.
    expect(medianSecondsFromBuckets(bucketRows([2, 1], [10, 1]))).toBe(3.25);
  });

  it("reads the open last bucket as 120 s", () => {
    expect(medianSecondsFromBuckets(bucketRows([240, 3], [0, 1]))).toBe(120);
    expect(medianSecondsFromBuckets([{ bucket: 240, count: 1 }])).toBe(120);
  });

  it("merges unsorted and repeated bucket rows", () => {
    const rows = bucketRows([9, 1], [2, 2], [6, 2], [2, 1]);
    expect(medianSecondsFromBuckets(rows)).toBe(medianSecondsFromBuckets(bucketRows([2, 3], [6, 2], [9, 1])));
  });

  it("stays within one bucket (< 0.5 s) of the exact median", () => {
    for (const [n, seed] of [
      [1, 1],
      [2, 2],
      [7, 3],
      [50, 4],
      [101, 5],
      [1000, 6],
    ] as const) {
      const durations = pseudoRandomDurations(n, seed, 60_000);
      const estimate = medianSecondsFromBuckets(toBuckets(durations))!;
      expect(Math.abs(estimate - exactMedianSeconds(durations))).toBeLessThan(0.5);
    }
  });

  it("rejects buckets outside 0..240 and bad counts", () => {
    expect(() => medianSecondsFromBuckets([{ bucket: 241, count: 1 }])).toThrow(RangeError);
    expect(() => medianSecondsFromBuckets([{ bucket: -1, count: 1 }])).toThrow(RangeError);
    expect(() => medianSecondsFromBuckets([{ bucket: 1.5, count: 1 }])).toThrow(RangeError);
    expect(() => medianSecondsFromBuckets([{ bucket: 1, count: -1 }])).toThrow(RangeError);
  });
});

describe("shareUnder", () => {
  const durations = [0, 499, 500, 999, 1000, 4_200, 119_999, 120_000, 500_000];
  const buckets = toBuckets(durations);

  it("is exact on bucket boundaries", () => {
    expect(shareUnder(buckets, 0)).toBe(0);
    expect(shareUnder(buckets, 500)).toBe(2 / 9);
    expect(shareUnder(buckets, 1000)).toBe(4 / 9);
    expect(shareUnder(buckets, 120_000)).toBe(7 / 9);
    for (let ms = 0; ms <= 120_000; ms += 500) {
      expect(shareUnder(buckets, ms)).toBe(durations.filter((d) => d < ms).length / durations.length);
    }
  });

  it("is null when there are no judgments", () => {
    expect(shareUnder([], 10_000)).toBeNull();
  });

  it("throws a RangeError off the bucket boundaries it can answer exactly", () => {
    expect(() => shareUnder(buckets, 250)).toThrow(RangeError);
    expect(() => shareUnder(buckets, 10_000.5)).toThrow(RangeError);
    expect(() => shareUnder(buckets, -500)).toThrow(RangeError);
    expect(() => shareUnder(buckets, 120_500)).toThrow(RangeError);
  });
});
