// The coordinator's word on a passage as the API shows it, and the questions that wait for it: the
// adjudication panel, the dashboard and the question list read these.
import type { AdjudicationDecision } from "@/db/schema";
import type { Location } from "@/lib/kilt/codepoints";

/** A decision (POST /api/campaigns/:id/passages/:passageId/adjudication), live or reverted. */
export interface AdjudicationView {
  id: number;
  passageId: number;
  queryId: number;
  decision: AdjudicationDecision;
  /** The span to export, with its text; null: the consensus span (endorse) or none (reject). */
  span: (Location & { text: string }) | null;
  reason: string;
  by: { id: number | null; username: string };
  at: string;
  revertedAt: string | null;
  revertedBy: number | null;
}

/** Why a question waits for the coordinator's word; each is one condition on its passages. */
export const WAITING_REASONS = ["split", "explained", "decoy", "gold"] as const;
export type WaitingReason = (typeof WAITING_REASONS)[number];

/** How many questions wait, in all and for each reason (the dashboard). */
export type WaitingCounts = Record<WaitingReason | "any", number>;
