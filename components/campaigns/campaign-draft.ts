import { CAMPAIGN_DEFAULTS, type CreateCampaignInput } from "@/lib/campaign/settings.contract";

/** The settings a coordinator edits (the shape of POST /api/campaigns and PATCH /api/campaigns/:id; leaseSeconds is for scripts and tests, not the form). */
export type CampaignSettings = Omit<CreateCampaignInput, "leaseSeconds">;

/** The defaults of a new campaign: the server's own (lib/campaign/settings.contract.ts). */
export const DEFAULT_SETTINGS: CampaignSettings = { name: "", ...CAMPAIGN_DEFAULTS };

export type NumberField =
  | "judgmentsPerPassage"
  | "endorsementThreshold"
  | "goldMinJudgments"
  | "goldAccuracyThreshold"
  | "leaseMinutes"
  | "sessionGoal"
  | "warnFastShare"
  | "warnMinAgreement"
  | "warnMinJudgments"
  | "goldSpanSlack"
  | "decoysPer100";
export type BooleanField = "showAnswers" | "earlyStop" | "askWhenNoneSufficient" | "allAnnotators";
export type Field = keyof CampaignSettings;

export const FIELD_LABELS: Record<Field, string> = {
  name: "Name",
  judgmentsPerPassage: "Judgments per passage",
  endorsementThreshold: "Endorsement threshold",
  showAnswers: "Show answers to annotators",
  goldMinJudgments: "Minimum gold judgments",
  goldAccuracyThreshold: "Gold accuracy threshold",
  leaseMinutes: "Lease (minutes)",
  earlyStop: "Stop early once decided",
  askWhenNoneSufficient: "Ask for a passage or an explanation when none is sufficient",
  instructions: "Instructions (Markdown)",
  allAnnotators: "All annotators",
  sessionGoal: "Session goal (passages)",
  warnFastShare: "Warn above this share under 2 s",
  warnMinAgreement: "Warn below this agreement",
  warnMinJudgments: "Warn after this many judgments",
  goldSpanSlack: "Gold span slack",
  decoysPer100: "Decoys per 100 passages",
  aggregation: "Aggregation",
};

/** The form's values: numbers as typed, so a blank or half-typed one is kept until saved. */
export type Draft = Record<NumberField, string> &
  Record<BooleanField, boolean> & { name: string; instructions: string; aggregation: CampaignSettings["aggregation"] };

export function toDraft(s: CampaignSettings): Draft {
  return {
    ...s,
    judgmentsPerPassage: String(s.judgmentsPerPassage),
    endorsementThreshold: String(s.endorsementThreshold),
    goldMinJudgments: String(s.goldMinJudgments),
    goldAccuracyThreshold: String(s.goldAccuracyThreshold),
    leaseMinutes: String(s.leaseMinutes),
    sessionGoal: s.sessionGoal === null ? "" : String(s.sessionGoal),
    warnFastShare: String(s.warnFastShare),
    warnMinAgreement: String(s.warnMinAgreement),
    warnMinJudgments: String(s.warnMinJudgments),
    goldSpanSlack: String(s.goldSpanSlack),
    decoysPer100: String(s.decoysPer100),
  };
}

/** A blank number is sent as null, which the server names as a missing value (or, for the session goal, reads as "no goal"). */
const num = (v: string): number | null => (v.trim() === "" ? null : Number(v));

export function fromDraft(d: Draft): Record<Field, unknown> {
  return {
    name: d.name,
    judgmentsPerPassage: num(d.judgmentsPerPassage),
    endorsementThreshold: num(d.endorsementThreshold),
    showAnswers: d.showAnswers,
    goldMinJudgments: num(d.goldMinJudgments),
    goldAccuracyThreshold: num(d.goldAccuracyThreshold),
    leaseMinutes: num(d.leaseMinutes),
    earlyStop: d.earlyStop,
    askWhenNoneSufficient: d.askWhenNoneSufficient,
    instructions: d.instructions,
    allAnnotators: d.allAnnotators,
    sessionGoal: num(d.sessionGoal),
    warnFastShare: num(d.warnFastShare),
    warnMinAgreement: num(d.warnMinAgreement),
    warnMinJudgments: num(d.warnMinJudgments),
    goldSpanSlack: num(d.goldSpanSlack),
    decoysPer100: num(d.decoysPer100),
    aggregation: d.aggregation,
  };
}

/** The values that differ from `start`: what a PATCH sends. */
export function changedValues(draft: Draft, start: CampaignSettings): Partial<Record<Field, unknown>> {
  const original = fromDraft(toDraft(start));
  return Object.fromEntries(Object.entries(fromDraft(draft)).filter(([k, v]) => original[k as Field] !== v));
}

export const fieldId = (f: Field) => `campaign-${f}`;
