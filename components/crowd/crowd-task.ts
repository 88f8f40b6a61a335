// Pure helpers that let the crowd page reuse the judging screen's pieces for items that are no claim.
import type { Draft } from "@/components/annotate/judging-storage";
import type { JudgingShortcuts } from "@/components/annotate/use-judging-keys";
import { effectiveKeys } from "@/lib/campaign/annotate/shortcuts.contract";
import type { Task } from "@/components/api/annotate";
import type { TrainingItemView } from "@/components/api/crowd-session";

/** Crowd workers have no account to remap keys on: the default keys (the page offers to turn them off). */
export function crowdShortcuts(enabled: boolean): JudgingShortcuts {
  return { enabled, keys: effectiveKeys(null) };
}

/** A training item in the shape the passage view reads; its "claim" is only a name. */
export function taskOfItem(item: TrainingItemView, name = `training-${item.position}`): Task {
  return {
    claim: { handle: name, expiresAt: "" },
    query: item.query,
    passage: item.passage,
    progress: { judgedToday: 0, passageOfQuestion: item.position + 1, passagesInQuestion: item.total },
  };
}

/** The worker's answer to a training item, in memory only (nothing to resume: the item is asked again). */
export function trainingDraft(campaignId: number, task: Task): Draft {
  return {
    v: 2,
    campaignId,
    claim: task.claim.handle,
    verdict: null,
    unreadable: false,
    span: null,
    idempotencyKey: "",
    startedAt: Date.now(),
    pending: null,
  };
}
