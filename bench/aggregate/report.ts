// What bench/aggregate/child.ts reports to bench/aggregate/run.ts.

export const MODELS = ["majority", "dawid-skene", "dawid-skene-gold", "one-coin"] as const;
export type BenchModel = (typeof MODELS)[number];

export interface AggregateChildReport {
  model: BenchModel;
  judgments: number;
  passages: number;
  annotators: number;
  iterations: number;
  /** The fit alone. */
  seconds: number;
  cpuSeconds: number;
  /** RSS once the judgments are made, before the fit (MB). */
  rssBeforeMB: number;
  /** RSS right after the fit, its results still held (MB). */
  rssAfterMB: number;
  /** process.resourceUsage().maxRSS at the end (MB): the generation's peak or the fit's, the larger. */
  peakRssMB: number;
  /** Labels equal to the truth, over every passage. */
  accuracy: number;
}
