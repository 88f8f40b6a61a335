// The one seeded generator: mulberry32, uniform in [0, 1) and the same sequence for a seed on every
// run and machine. Import decoys, the benchmarks' generators and the tests' random data all draw
// from it. Its one import, server-only, is an empty module wherever it runs on the server (outside
// Next.js through tsconfig.json's paths), so a bundled benchmark child takes it as it is.
import "server-only";

/** mulberry32: a small seeded generator (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
