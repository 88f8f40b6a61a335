import type { BatchStatus } from "@/db/schema";

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
