// The benchmarks' generators' PRNG: the app's seeded mulberry32 (lib/seeded-random.ts, which imports
// nothing but server-only: the import child is bundled on its own), with the draws the generators need.
import { seededRandom } from "@/lib/seeded-random";

export class Rng {
  /** A float in [0, 1). */
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  /** An integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}
