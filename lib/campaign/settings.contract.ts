import { z } from "zod";
import type { Aggregation } from "@/db/schema";

// The browser imports these schemas (campaign form): there zod's JIT probe, `new Function("")`, would
// be refused by the Content-Security-Policy (no 'unsafe-eval', proxy.ts) and reported. No JIT there.
if (typeof window !== "undefined") z.config({ jitless: true });

/** What "endorsed" may mean (db/schema.ts's AGGREGATIONS; spelled here so the browser need not load the schema). */
export const AGGREGATION_CHOICES = ["majority", "dawid-skene"] as const satisfies readonly Aggregation[];
export type AggregationChoice = (typeof AGGREGATION_CHOICES)[number];

/** Campaign settings as coordinators give them (UI, API and CLI share this schema). */
export const campaignSettingsShape = {
  name: z.string().trim().min(1, "is required").max(200, "must be at most 200 characters"),
  /** R: judgments per passage. */
  judgmentsPerPassage: z.number().int().min(1, "must be at least 1").max(9, "must be at most 9"),
  /** T: sufficient judgments that endorse a passage. */
  endorsementThreshold: z.number().int().min(1, "must be at least 1").max(9, "must be at most 9"),
  showAnswers: z.boolean(),
  goldMinJudgments: z.number().int().min(0, "must be 0 or more").max(10_000),
  goldAccuracyThreshold: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
  leaseMinutes: z
    .number()
    .int()
    .min(1, "must be at least 1 minute")
    .max(24 * 60, "must be at most 24 hours"),
  earlyStop: z.boolean(),
  /** When an annotator finds none of a question's passages sufficient, ask them for another passage or an explanation. */
  askWhenNoneSufficient: z.boolean(),
  instructions: z.string().max(50_000, "must be at most 50,000 characters"),
  allAnnotators: z.boolean(),
  /** Passages an annotator aims to judge per session (the judging page shows progress towards it); null: none. */
  sessionGoal: z.number().int("must be a whole number").min(1, "must be 1 to 100,000").max(100_000, "must be 1 to 100,000").nullable(),
  /** Dashboard warning: share (0–1) of an annotator's judgments under 2 s above this… */
  warnFastShare: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
  /** …or agreement with the majority (0–1) below this… */
  warnMinAgreement: z.number().min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
  /** …once they have this many judgments. */
  warnMinJudgments: z.number().int("must be a whole number").min(1, "must be 1 to 100,000").max(100_000, "must be 1 to 100,000"),
  /** Span check of sufficient gold: a highlight may be this share (0–10) longer than the sentences holding the expected span. */
  goldSpanSlack: z.number("must be a number").min(0, "must be between 0 and 10").max(10, "must be between 0 and 10"),
  /** Automatic decoys (negative gold, never exported): about this many per 100 imported passages (0–50). */
  decoysPer100: z.number("must be a number").int("must be a whole number").min(0, "must be 0 to 50").max(50, "must be 0 to 50"),
  /** What "endorsed" means: T of R counted votes, or a Dawid–Skene posterior P(sufficient) of at least 0.5 once the passage is finished. */
  aggregation: z.enum(AGGREGATION_CHOICES, "must be 'majority' or 'dawid-skene'"),
};

/** The lease in seconds, for scripts and tests: the API only (not the form), and it wins over leaseMinutes when both are sent. */
const leaseSecondsSchema = z
  .number("must be a number of seconds")
  .int("must be a whole number of seconds")
  .min(30, "must be at least 30 seconds")
  .max(24 * 3600, "must be at most 24 hours");

export const CAMPAIGN_DEFAULTS = {
  judgmentsPerPassage: 3,
  endorsementThreshold: 2,
  showAnswers: false,
  goldMinJudgments: 4,
  goldAccuracyThreshold: 0.3,
  leaseMinutes: 10,
  earlyStop: false,
  askWhenNoneSufficient: true,
  instructions: "",
  allAnnotators: true,
  sessionGoal: null,
  warnFastShare: 0.5,
  warnMinAgreement: 0.6,
  warnMinJudgments: 20,
  goldSpanSlack: 0.2,
  decoysPer100: 0,
  aggregation: "majority",
} as const;

const thresholdWithinR = (s: { judgmentsPerPassage?: number; endorsementThreshold?: number }) =>
  s.judgmentsPerPassage === undefined || s.endorsementThreshold === undefined || s.endorsementThreshold <= s.judgmentsPerPassage;
const thresholdMessage = { message: "must not exceed judgmentsPerPassage", path: ["endorsementThreshold"] };

export const createCampaignSchema = z
  .object({
    name: campaignSettingsShape.name,
    judgmentsPerPassage: campaignSettingsShape.judgmentsPerPassage.default(CAMPAIGN_DEFAULTS.judgmentsPerPassage),
    endorsementThreshold: campaignSettingsShape.endorsementThreshold.default(CAMPAIGN_DEFAULTS.endorsementThreshold),
    showAnswers: campaignSettingsShape.showAnswers.default(CAMPAIGN_DEFAULTS.showAnswers),
    goldMinJudgments: campaignSettingsShape.goldMinJudgments.default(CAMPAIGN_DEFAULTS.goldMinJudgments),
    goldAccuracyThreshold: campaignSettingsShape.goldAccuracyThreshold.default(CAMPAIGN_DEFAULTS.goldAccuracyThreshold),
    leaseMinutes: campaignSettingsShape.leaseMinutes.default(CAMPAIGN_DEFAULTS.leaseMinutes),
    leaseSeconds: leaseSecondsSchema.optional(),
    earlyStop: campaignSettingsShape.earlyStop.default(CAMPAIGN_DEFAULTS.earlyStop),
    askWhenNoneSufficient: campaignSettingsShape.askWhenNoneSufficient.default(CAMPAIGN_DEFAULTS.askWhenNoneSufficient),
    instructions: campaignSettingsShape.instructions.default(CAMPAIGN_DEFAULTS.instructions),
    allAnnotators: campaignSettingsShape.allAnnotators.default(CAMPAIGN_DEFAULTS.allAnnotators),
    sessionGoal: campaignSettingsShape.sessionGoal.default(CAMPAIGN_DEFAULTS.sessionGoal),
    warnFastShare: campaignSettingsShape.warnFastShare.default(CAMPAIGN_DEFAULTS.warnFastShare),
    warnMinAgreement: campaignSettingsShape.warnMinAgreement.default(CAMPAIGN_DEFAULTS.warnMinAgreement),
    warnMinJudgments: campaignSettingsShape.warnMinJudgments.default(CAMPAIGN_DEFAULTS.warnMinJudgments),
    goldSpanSlack: campaignSettingsShape.goldSpanSlack.default(CAMPAIGN_DEFAULTS.goldSpanSlack),
    decoysPer100: campaignSettingsShape.decoysPer100.default(CAMPAIGN_DEFAULTS.decoysPer100),
    aggregation: campaignSettingsShape.aggregation.default(CAMPAIGN_DEFAULTS.aggregation),
  })
  .strict()
  .refine(thresholdWithinR, thresholdMessage);

export const updateCampaignSchema = z
  .object({ ...campaignSettingsShape, leaseSeconds: leaseSecondsSchema })
  .partial()
  .strict()
  .refine(thresholdWithinR, thresholdMessage);

export const membersSchema = z.object({
  allAnnotators: z.boolean(),
  /** Annotators added by hand (kept when allAnnotators is on, used when it is off). */
  userIds: z.array(z.number().int().positive()).max(10_000).default([]),
});

export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;
export type UpdateCampaignInput = z.infer<typeof updateCampaignSchema>;
export type MembersInput = z.infer<typeof membersSchema>;
