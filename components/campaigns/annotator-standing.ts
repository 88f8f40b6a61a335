import type { AnnotatorRow } from "@/lib/campaign/report/annotators.contract";

// Pure and without a "use client": the annotators table (client) and an annotator's page (server)
// both word their figures with these.

/** A share as a whole percentage ("42 %"), or "—" while there is none. */
export const percent = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)} %`);

/** An annotator's standing in a campaign: "active", or "paused" and by which rule. */
export function standingText(a: Pick<AnnotatorRow, "status" | "pauseReason">): string {
  if (a.status === "active") return "active";
  if (a.pauseReason === "gold_rule") return "paused (gold rule)";
  return a.pauseReason === "speed_rule" ? "paused (speed rule)" : "paused";
}
