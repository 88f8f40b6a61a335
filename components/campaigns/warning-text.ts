import type { AnnotatorWarning, WarningThresholds } from "@/lib/campaign/report/annotators.contract";

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** A warning in words, with the threshold it crossed: "92 % of judgments under 2 s (warns above 50 %)". */
export function warningText(w: AnnotatorWarning, t: WarningThresholds): string {
  return w.kind === "fast"
    ? `${pct(w.shareUnder2s)} of judgments under 2 s (warns above ${pct(t.warnFastShare)})`
    : `agrees with the majority on ${pct(w.agreement)} (warns below ${pct(t.warnMinAgreement)})`;
}
