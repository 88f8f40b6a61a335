import {
  CROWD_OUTCOME_LABELS,
  CROWD_OUTCOME_LIST,
  type CrowdEntryState,
  type CrowdOutcome,
  type CrowdPlatform,
  type CrowdSettings,
  type MturkSite,
  type QuotaUnit,
} from "@/lib/crowd/settings.contract";

// The crowd settings form's values: numbers as typed (a blank or half-typed one is kept until
// saved), and the conversions to what PUT /api/campaigns/:id/crowd takes.

export type CrowdNumberField =
  | "trainingItems"
  | "trainingPassShare"
  | "quota"
  | "timeLimitMinutes"
  | "maxSessionsPerWorker"
  | "maxJudgmentsPerWorker"
  | "maxWorkers"
  | "maxSessionsInProgress";
export type CrowdBooleanField = "pauseFastWorkers";
export type CrowdField = Exclude<keyof CrowdSettings, "codes"> | `codes.${CrowdOutcome}`;

export type CrowdDraft = Record<CrowdNumberField, string> &
  Record<CrowdBooleanField, boolean> & {
    entry: CrowdEntryState;
    platform: CrowdPlatform;
    mturkSite: MturkSite;
    quotaUnit: QuotaUnit;
    consent: string;
    example: string;
    completionUrl: string;
    codes: Record<CrowdOutcome, string>;
  };

export const CROWD_FIELD_LABELS: Record<CrowdField, string> = {
  enabled: "Crowd entry open",
  entry: "Crowd entry",
  platform: "Platform",
  mturkSite: "MTurk site",
  example: "Example for the entry page (Markdown)",
  maxWorkers: "Workers in all",
  maxSessionsInProgress: "Sessions in progress at once",
  consent: "Consent text (Markdown)",
  trainingItems: "Training items",
  trainingPassShare: "Training pass share",
  quota: "Quota per session",
  quotaUnit: "Quota counts",
  timeLimitMinutes: "Time limit (minutes)",
  maxSessionsPerWorker: "Sessions per worker",
  maxJudgmentsPerWorker: "Judgments per worker",
  pauseFastWorkers: "Pause fast workers",
  completionUrl: "Completion URL",
  ...(Object.fromEntries(CROWD_OUTCOME_LIST.map((o) => [`codes.${o}`, `Code: ${CROWD_OUTCOME_LABELS[o]}`])) as Record<
    `codes.${CrowdOutcome}`,
    string
  >),
};

export const crowdFieldId = (f: CrowdField) => `crowd-${f.replace(".", "-")}`;

export function toCrowdDraft(s: CrowdSettings): CrowdDraft {
  return {
    entry: s.entry,
    platform: s.platform,
    mturkSite: s.mturkSite,
    consent: s.consent,
    example: s.example,
    quotaUnit: s.quotaUnit,
    pauseFastWorkers: s.pauseFastWorkers,
    completionUrl: s.completionUrl,
    trainingItems: String(s.trainingItems),
    trainingPassShare: String(s.trainingPassShare),
    quota: String(s.quota),
    timeLimitMinutes: String(s.timeLimitMinutes),
    maxSessionsPerWorker: String(s.maxSessionsPerWorker),
    maxJudgmentsPerWorker: s.maxJudgmentsPerWorker === null ? "" : String(s.maxJudgmentsPerWorker),
    maxWorkers: String(s.maxWorkers),
    maxSessionsInProgress: String(s.maxSessionsInProgress),
    codes: { ...s.codes },
  };
}

/** A blank number is sent as null: the server names it as missing (or, for judgments per worker, reads it as "no limit"). */
const num = (v: string): number | null => (v.trim() === "" ? null : Number(v));

function fromCrowdDraft(d: CrowdDraft): Record<string, unknown> {
  return {
    entry: d.entry,
    platform: d.platform,
    mturkSite: d.mturkSite,
    consent: d.consent,
    example: d.example,
    trainingItems: num(d.trainingItems),
    trainingPassShare: num(d.trainingPassShare),
    quota: num(d.quota),
    quotaUnit: d.quotaUnit,
    timeLimitMinutes: num(d.timeLimitMinutes),
    maxSessionsPerWorker: num(d.maxSessionsPerWorker),
    maxJudgmentsPerWorker: num(d.maxJudgmentsPerWorker),
    maxWorkers: num(d.maxWorkers),
    maxSessionsInProgress: num(d.maxSessionsInProgress),
    pauseFastWorkers: d.pauseFastWorkers,
    completionUrl: d.completionUrl.trim(),
  };
}

/** What a PUT sends: the settings that differ from `saved`, and the codes that changed. */
export function changedCrowdValues(draft: CrowdDraft, saved: CrowdSettings): Record<string, unknown> {
  const original = fromCrowdDraft(toCrowdDraft(saved));
  const changed: Record<string, unknown> = Object.fromEntries(Object.entries(fromCrowdDraft(draft)).filter(([k, v]) => original[k] !== v));
  const codes = Object.fromEntries(
    CROWD_OUTCOME_LIST.filter((o) => draft.codes[o].trim() !== saved.codes[o]).map((o) => [o, draft.codes[o].trim()]),
  );
  if (Object.keys(codes).length) changed.codes = codes;
  return changed;
}
