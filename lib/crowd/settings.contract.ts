import { z } from "zod";
import type { CrowdOutcome as StoredOutcome, CrowdPlatform as StoredPlatform } from "@/db/schema";

// The browser imports these schemas (the crowd settings form): there zod's JIT probe, `new Function("")`,
// would be refused by the Content-Security-Policy (no 'unsafe-eval', proxy.ts) and reported. No JIT there.
if (typeof window !== "undefined") z.config({ jitless: true });

/**
 * A campaign's crowd entry as coordinators give it (settings form, API and CLI share this module).
 * Pure and client-safe: the lists below repeat the database's (type-only import, checked both ways).
 */
export const CROWD_PLATFORM_LIST = ["prolific", "mturk", "generic"] as const satisfies readonly StoredPlatform[];
export const CROWD_OUTCOME_LIST = [
  "completed",
  "queue_empty",
  "paused",
  "timed_out",
  "training_failed",
  "stopped",
] as const satisfies readonly StoredOutcome[];
export type CrowdPlatform = (typeof CROWD_PLATFORM_LIST)[number];
export type CrowdOutcome = (typeof CROWD_OUTCOME_LIST)[number];
const everyPlatform: Exclude<StoredPlatform, CrowdPlatform> | Exclude<StoredOutcome, CrowdOutcome> extends never ? true : never = true;
void everyPlatform;

export const QUOTA_UNITS = ["passages", "questions"] as const;
export type QuotaUnit = (typeof QUOTA_UNITS)[number];

export const CROWD_PLATFORM_LABELS: Record<CrowdPlatform, string> = {
  prolific: "Prolific",
  mturk: "Amazon Mechanical Turk",
  generic: "Other (a worker id in the link)",
};

/** What each outcome means, in words for coordinators (the form, the CLI, the payment report). */
export const CROWD_OUTCOME_LABELS: Record<CrowdOutcome, string> = {
  completed: "Quota completed",
  queue_empty: "No work left",
  paused: "Paused by quality control",
  timed_out: "Time limit reached",
  training_failed: "Training not passed",
  stopped: "Stopped by the coordinator",
};

/**
 * The entry's state. Open: workers with the link may start sessions. Closed: nobody new enters, and
 * sessions in progress finish. Stopped: closed, and sessions in progress end at their next request
 * (outcome `stopped`, with its own code). Stored as `enabled` (open) and `stopped`.
 */
export const CROWD_ENTRY_STATES = ["open", "closed", "stopped"] as const;
export type CrowdEntryState = (typeof CROWD_ENTRY_STATES)[number];
export const CROWD_ENTRY_STATE_LABELS: Record<CrowdEntryState, string> = {
  open: "Open: workers with the link may start sessions",
  closed: "Closed to newcomers: sessions in progress finish",
  stopped: "Stopped: sessions in progress end now",
};

/** MTurk only: where a finished assignment is submitted. Chosen here, never taken from the request's turkSubmitTo. */
export const MTURK_SITES = ["production", "sandbox"] as const;
export type MturkSite = (typeof MTURK_SITES)[number];
export const MTURK_SITE_LABELS: Record<MturkSite, string> = {
  production: "Production (www.mturk.com)",
  sandbox: "Sandbox (workersandbox.mturk.com)",
};

/** A completion code: what a worker pastes, or what the platform reads from the redirect. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const codeSchema = z
  .string("must be a text of letters, digits, '_' or '-'")
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .regex(CODE_PATTERN, "may hold only letters A–Z and a–z, digits, '_' and '-'");

/** An absolute http(s) URL without credentials: Prolific's completion URL, to which `?cc=CODE` is added. */
export const completionUrlSchema = z
  .string("must be a URL such as https://app.prolific.com/submissions/complete")
  .trim()
  .max(2000, "must be at most 2,000 characters")
  .refine(isHttpUrl, "must be an absolute http:// or https:// URL, such as https://app.prolific.com/submissions/complete");

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

const whole = (from: number, to: number, unit = "") => {
  const range = `must be a whole number from ${from.toLocaleString("en")} to ${to.toLocaleString("en")}${unit}`;
  return z.number(range).int(range).min(from, range).max(to, range);
};

export const crowdSettingsShape = {
  /** Open to newcomers (the same as `entry: "open"`; false: closed, unless `entry` says stopped). */
  enabled: z.boolean("must be true or false"),
  entry: z.enum(CROWD_ENTRY_STATES, "must be 'open', 'closed' or 'stopped'"),
  platform: z.enum(CROWD_PLATFORM_LIST, "must be 'prolific', 'mturk' or 'generic'"),
  /** Markdown shown before any work; the worker agrees to it. */
  consent: z.string("must be text (Markdown)").max(50_000, "must be at most 50,000 characters"),
  /** K: training items per worker (0: no training). */
  trainingItems: whole(0, 50),
  trainingPassShare: z.number("must be a number between 0 and 1").min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
  quota: whole(1, 10_000),
  quotaUnit: z.enum(QUOTA_UNITS, "must be 'passages' or 'questions'"),
  timeLimitMinutes: whole(1, 1440, " minutes (24 hours)"),
  maxSessionsPerWorker: whole(1, 1000),
  /** Null: no limit. */
  maxJudgmentsPerWorker: whole(1, 1_000_000_000).nullable(),
  pauseFastWorkers: z.boolean("must be true or false"),
  completionUrl: completionUrlSchema,
  /** The platform's number of places: at most this many worker ids enter the campaign. */
  maxWorkers: whole(1, 1_000_000),
  /** Sessions not yet ended, at most, at once: an entry past it is turned away and makes no account. */
  maxSessionsInProgress: whole(1, 100_000),
  mturkSite: z.enum(MTURK_SITES, "must be 'production' or 'sandbox'"),
  /** Markdown: the example the public entry page shows (never a gold passage). Empty: the instructions alone. */
  example: z.string("must be text (Markdown)").max(20_000, "must be at most 20,000 characters"),
};

/**
 * Why K training items cannot be asked for when `marked` passages of the campaign are marked for
 * training (null when they can: K = 0 always can). The server's rule; the form shows it beside the field.
 */
export function trainingItemsProblem(k: number, marked: number): string | null {
  if (k === 0 || k <= marked) return null;
  const are = marked === 1 ? "passage of this campaign is" : "passages of this campaign are";
  const fix =
    marked === 0
      ? 'mark gold items with "training": true in a batch import, or ask for 0 (no training)'
      : `mark more, or ask for ${marked} or fewer (0: no training)`;
  return `${k} asked, but only ${marked} ${are} marked for training; ${fix}`;
}

const codeFields = Object.fromEntries(CROWD_OUTCOME_LIST.map((o) => [o, codeSchema])) as Record<CrowdOutcome, typeof codeSchema>;
const codesSchema = z.object(codeFields, "must be an object of one code per outcome").strict();

/**
 * Two outcomes with one code could not be told apart on the platform (compared regardless of letter
 * case). Each clash is named on the outcome being `changed` (all, by default: the later of the two).
 */
export function duplicateCodes(
  codes: Partial<Record<CrowdOutcome, string>>,
  changed: readonly CrowdOutcome[] = CROWD_OUTCOME_LIST,
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  CROWD_OUTCOME_LIST.forEach((outcome, i) => {
    const code = codes[outcome]?.toUpperCase();
    if (code === undefined || !changed.includes(outcome)) return;
    const other = CROWD_OUTCOME_LIST.find((o, j) => o !== outcome && codes[o]?.toUpperCase() === code && (j < i || !changed.includes(o)));
    if (other)
      problems.push({ field: `codes.${outcome}`, message: `is the same as the code for '${other}'; each outcome needs its own code` });
  });
  return problems;
}

const distinctCodes = (s: { codes?: Partial<Record<CrowdOutcome, string>> }, ctx: z.RefinementCtx) => {
  for (const p of duplicateCodes(s.codes ?? {})) ctx.addIssue({ code: "custom", path: p.field.split("."), message: p.message });
};

/** `enabled` and `entry` say one thing twice; sent together they must agree (enabled ⇔ open). */
const oneEntryState = (s: { enabled?: boolean; entry?: CrowdEntryState }, ctx: z.RefinementCtx) => {
  if (s.enabled !== undefined && s.entry !== undefined && s.enabled !== (s.entry === "open")) {
    ctx.addIssue({
      code: "custom",
      path: ["enabled"],
      message: `says ${s.enabled ? "open" : "not open"}, but entry says '${s.entry}'; send one of them`,
    });
  }
};

/** Every crowd setting (what a form holds whole). */
export const crowdSettingsSchema = z
  .object({ ...crowdSettingsShape, codes: codesSchema })
  .strict()
  .superRefine(distinctCodes)
  .superRefine(oneEntryState);

/** PUT /api/campaigns/:id/crowd: any settings, and any of the codes (the others are kept). */
export const updateCrowdSettingsSchema = z
  .object({ ...crowdSettingsShape, codes: codesSchema.partial() })
  .partial()
  .strict()
  .superRefine(distinctCodes)
  .superRefine(oneEntryState);

/** The stored columns (`enabled`, `stopped`) of an entry state. */
export function entryColumns(entry: CrowdEntryState): { enabled: boolean; stopped: boolean } {
  return { enabled: entry === "open", stopped: entry === "stopped" };
}

/** The entry state of the stored columns. */
export function entryStateOf(row: { enabled: boolean; stopped: boolean }): CrowdEntryState {
  return row.enabled ? "open" : row.stopped ? "stopped" : "closed";
}

export type CrowdSettings = z.infer<typeof crowdSettingsSchema>;
export type UpdateCrowdSettingsInput = z.infer<typeof updateCrowdSettingsSchema>;

/** What GET and PUT /api/campaigns/:id/crowd answer (the route adds `entryUrl`). */
export interface CrowdSettingsView extends CrowdSettings {
  campaignId: number;
  /** 128 random bits, base64url: the entry URL's secret part. */
  entryKey: string;
  updatedAt: string;
  /** The counts beside the caps (read, never set). */
  usage: EntryUsage;
}

/** A campaign's crowd counts beside its caps. */
export interface EntryUsage {
  /** Crowd workers (accounts) of the campaign, against maxWorkers. */
  workers: number;
  /** Sessions not ended and within their time, against maxSessionsInProgress. */
  sessionsInProgress: number;
}

export type CrowdSettingsAnswer = CrowdSettingsView & { entryUrl: string };

/** The defaults of a new crowd entry (the database's column defaults; codes are generated per campaign). */
export const CROWD_DEFAULTS: Omit<CrowdSettings, "codes"> = {
  enabled: false,
  entry: "closed",
  platform: "prolific",
  consent: "",
  trainingItems: 5,
  trainingPassShare: 0.8,
  quota: 20,
  quotaUnit: "passages",
  timeLimitMinutes: 60,
  maxSessionsPerWorker: 1,
  maxJudgmentsPerWorker: null,
  pauseFastWorkers: false,
  completionUrl: "https://app.prolific.com/submissions/complete",
  maxWorkers: 200,
  maxSessionsInProgress: 50,
  mturkSite: "production",
  example: "",
};

const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** One random code of 8 upper-case letters and digits (Web Crypto, unbiased). */
export function randomCode(length = 8): string {
  let code = "";
  const bytes = new Uint8Array(length * 2);
  while (code.length < length) {
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      // 252 = 7 × 36: bytes from 252 up would favour the alphabet's first letters.
      if (b < 252 && code.length < length) code += CODE_ALPHABET[b % 36];
    }
  }
  return code;
}

/** A fresh code per outcome, all distinct: a new crowd entry's codes. */
export function generateCodes(): Record<CrowdOutcome, string> {
  const taken = new Set<string>();
  const codes = {} as Record<CrowdOutcome, string>;
  for (const outcome of CROWD_OUTCOME_LIST) {
    let code = randomCode();
    while (taken.has(code)) code = randomCode();
    taken.add(code);
    codes[outcome] = code;
  }
  return codes;
}

/**
 * The link a coordinator pastes into the platform. Prolific: the study URL with its documented
 * placeholders, which Prolific replaces per participant. MTurk: the ExternalQuestion URL (MTurk adds
 * workerId, assignmentId, hitId and turkSubmitTo itself). Generic: `?worker=` with a placeholder the
 * coordinator replaces with each worker's id.
 */
export function crowdEntryUrl(origin: string, entryKey: string, platform: CrowdPlatform): string {
  const base = `${origin.replace(/\/+$/, "")}/crowd/${encodeURIComponent(entryKey)}`;
  switch (platform) {
    case "prolific":
      return `${base}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`;
    case "mturk":
      return base;
    case "generic":
      return `${base}?worker=WORKER_ID`;
  }
}
