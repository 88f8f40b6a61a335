// What the entry URL carries: each platform's query parameters (pure; the page hands them over).
import type { EntryParams } from "@/components/api/crowd-session";

/** The parameters the platforms add to the entry URL: Prolific's, MTurk's (ExternalQuestion), and the generic one. */
export const ENTRY_PARAMS = [
  "PROLIFIC_PID",
  "STUDY_ID",
  "SESSION_ID",
  "workerId",
  "assignmentId",
  "hitId",
  "turkSubmitTo",
  "worker",
] as const;

/** MTurk's assignmentId while a worker previews the HIT (before accepting it). */
export const MTURK_PREVIEW = "ASSIGNMENT_ID_NOT_AVAILABLE";

export type EntryPlan =
  /** MTurk preview: the instructions and an example; nothing is claimed, no session begins. */
  | { kind: "preview" }
  /** Enter (or resume) with these parameters; `who` tells one arrival from another in this tab. */
  | { kind: "enter"; params: EntryParams; who: string };

/** The platform's parameters among the URL's query (first value of each; others are ignored). */
export function entryParamsOf(query: Record<string, string | string[] | undefined>): EntryParams {
  const out: EntryParams = {};
  for (const name of ENTRY_PARAMS) {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === "string") out[name] = value;
  }
  return out;
}

export function entryPlanOf(params: EntryParams): EntryPlan {
  if (params.assignmentId === MTURK_PREVIEW) return { kind: "preview" };
  return { kind: "enter", params, who: JSON.stringify(ENTRY_PARAMS.map((n) => params[n] ?? null)) };
}
