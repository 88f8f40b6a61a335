import "server-only";
import { z } from "zod";
import type { CrowdPlatform } from "@/db/schema";

/**
 * The query parameters each platform puts on the entry URL, as the crowd page passes them on
 * (POST /api/crowd/:key/enter). Prolific: PROLIFIC_PID, STUDY_ID, SESSION_ID. Mechanical Turk's
 * ExternalQuestion: workerId, assignmentId, hitId, turkSubmitTo. Generic: worker.
 */
const platformId = z
  .string({ error: "is required" })
  .trim()
  .min(1, "is required")
  .max(100, "must be at most 100 characters")
  .regex(/^[A-Za-z0-9_.:-]+$/, "must be letters, digits, '_', '-', '.' or ':'");

/** What MTurk sends as assignmentId while a worker only previews the HIT. */
export const MTURK_PREVIEW_ASSIGNMENT = "ASSIGNMENT_ID_NOT_AVAILABLE";

export const entryParamSchemas = {
  prolific: z.object({ PROLIFIC_PID: platformId, STUDY_ID: platformId, SESSION_ID: platformId }),
  mturk: z.object({
    workerId: platformId,
    assignmentId: platformId,
    hitId: platformId,
    turkSubmitTo: z.string({ error: "is required" }).max(300, "must be at most 300 characters").url("must be a URL"),
  }),
  generic: z.object({ worker: platformId }),
} as const;

/** The body as sent: string values only, a few of them (the platform's schema then names what is missing). */
export const entryBodySchema = z.record(
  z.string().max(100, "must be at most 100 characters"),
  z.string().max(1000, "must be at most 1000 characters"),
);

/** The ids an entry stores, whatever the platform. */
export interface EntryIds {
  workerId: string;
  studyId: string | null;
  platformSessionId: string | null;
  turkSubmitTo: string | null;
}

export function entryIdsOf(platform: CrowdPlatform, params: Record<string, string>): EntryIds {
  if (platform === "prolific") {
    const p = params as z.infer<(typeof entryParamSchemas)["prolific"]>;
    return { workerId: p.PROLIFIC_PID, studyId: p.STUDY_ID, platformSessionId: p.SESSION_ID, turkSubmitTo: null };
  }
  if (platform === "mturk") {
    const p = params as z.infer<(typeof entryParamSchemas)["mturk"]>;
    return { workerId: p.workerId, studyId: p.hitId, platformSessionId: p.assignmentId, turkSubmitTo: p.turkSubmitTo };
  }
  return { workerId: (params as { worker: string }).worker, studyId: null, platformSessionId: null, turkSubmitTo: null };
}
