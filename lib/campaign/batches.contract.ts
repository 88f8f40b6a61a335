// A batch as the API shows it, and its lifecycle: the batches table and its buttons, the routes and
// lib/campaign/batches.ts read the same definitions.
import type { BatchStatus, TaskKind } from "@/db/schema";

export interface BatchView {
  id: number;
  campaignId: number;
  name: string;
  status: BatchStatus;
  /** The KILT task of its lines (detected at import, or chosen). */
  taskKind: TaskKind;
  /** The KILT dataset its file named (fever, trex, …), or null. */
  dataset: string | null;
  queries: number;
  passages: number;
  goldPassages: number;
  pages: number;
  createdAt: Date;
  launchedAt: Date | null;
  closedAt: Date | null;
}

export type BatchAction = "launch" | "pause" | "close";

/** The batch lifecycle: draft → launched ⇄ paused → closed (a draft may also be closed unlaunched). */
export const transitions: Record<BatchAction, { from: BatchStatus[]; to: BatchStatus }> = {
  launch: { from: ["draft", "paused"], to: "launched" },
  pause: { from: ["launched"], to: "paused" },
  close: { from: ["draft", "launched", "paused"], to: "closed" },
};

/** The moves a batch in `status` allows, in button order. */
export function allowedActions(status: BatchStatus): BatchAction[] {
  return (Object.keys(transitions) as BatchAction[]).filter((a) => transitions[a].from.includes(status));
}
