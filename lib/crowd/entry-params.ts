import "server-only";
import { z } from "zod";
import type { CrowdPlatform } from "@/db/schema";
import { AppError, fieldProblems, parseInput } from "@/lib/errors";

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

const entryParamSchemas = {
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
const entryBodySchema = z.record(
  z.string().max(100, "must be at most 100 characters"),
  z.string().max(1000, "must be at most 1000 characters"),
);

/** Where each platform's link comes from, and the parameters it carries. */
const LINKS: Record<CrowdPlatform, { from: string; params: readonly string[] }> = {
  prolific: {
    from: "This study's link comes from Prolific: open it from your Prolific dashboard",
    params: ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"],
  },
  mturk: {
    from: "This HIT's link comes from Mechanical Turk: accept the HIT on Mechanical Turk and open it there",
    params: ["workerId", "assignmentId", "hitId", "turkSubmitTo"],
  },
  generic: { from: "This study's link comes from its organiser: open the exact link they gave you", params: ["worker"] },
};

const ALL_PARAMS = new Set(Object.values(LINKS).flatMap((l) => l.params));

function list(names: readonly string[], and = "and"): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} ${and} ${names[names.length - 1]}`;
}

/**
 * The platform's parameters of an entry body, or an `invalid` error a worker can act on: where the
 * link should have come from, what it carries, and what this one lacks, holds wrongly, or holds
 * from another platform (a `?worker=` link on a Prolific study). `details.problems` names each field.
 */
export function parseEntryParams(platform: CrowdPlatform, body: unknown): Record<string, string> {
  const raw = parseInput(entryBodySchema, body);
  const parsed = entryParamSchemas[platform].safeParse(raw);
  if (parsed.success) return parseInput(entryParamSchemas[platform], raw) as Record<string, string>;
  const problems = fieldProblems(parsed.error);
  const link = LINKS[platform];
  const missing = link.params.filter((p) => (raw[p] ?? "").trim() === "");
  const bad = problems.filter((p) => !missing.includes(p.field));
  const foreign = Object.keys(raw).filter((k) => ALL_PARAMS.has(k) && !link.params.includes(k));
  const says = [`${link.from} (it carries ${list(link.params)}).`];
  if (missing.length) says.push(`This link has no ${list(missing, "or")}.`);
  for (const p of bad) says.push(`Its ${p.field} ${p.message}.`);
  if (foreign.length) says.push(`It has ${list(foreign)}, which ${foreign.length > 1 ? "belong" : "belongs"} to another kind of link.`);
  throw new AppError("invalid", says.join(" "), { platform, problems });
}

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
