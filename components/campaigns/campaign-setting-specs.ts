import { fieldId, FIELD_LABELS, type BooleanField, type NumberField } from "./campaign-draft";
import type { NumberSpec, SettingNames } from "./setting-inputs";

// The campaign form's settings: the number settings by fieldset (their bounds, defaults and hints),
// and the hints of the on/off settings.

export const CAMPAIGN_NAMES: SettingNames<NumberField> = { idOf: fieldId, labels: FIELD_LABELS };

export const JUDGING_SETTINGS: NumberSpec<NumberField>[] = [
  { field: "judgmentsPerPassage", min: 1, max: 9, defaultText: "3", hint: "R: judgments each passage gets (1–9)." },
  {
    field: "endorsementThreshold",
    min: 1,
    max: 9,
    defaultText: "2",
    hint: "T: “sufficient” judgments that endorse a passage (at most R).",
  },
  { field: "leaseMinutes", min: 1, max: 1440, defaultText: "10", hint: "How long a claim on a passage lasts without renewal." },
];

/** The gold settings: the gold rule (per kind of gold), the span check's slack and the decoys made at import. */
export const GOLD_SETTINGS: NumberSpec<NumberField>[] = [
  {
    field: "goldMinJudgments",
    min: 0,
    max: 10000,
    defaultText: "4",
    hint: "Gold judgments of one kind (sufficient gold, or negative gold and decoys) an annotator makes before the gold rule applies to that kind.",
  },
  {
    field: "goldAccuracyThreshold",
    min: 0,
    max: 1,
    step: 0.01,
    defaultText: "0.3",
    hint: "An annotator whose smoothed accuracy on either kind of gold falls below this (0–1) is paused.",
  },
  {
    field: "goldSpanSlack",
    min: 0,
    max: 10,
    step: 0.05,
    defaultText: "0.2",
    hint: "On sufficient gold, a highlight may be this share longer than the sentences holding the expected span (0.2: 20%), or 3× the expected span.",
  },
  {
    field: "decoysPer100",
    min: 0,
    max: 50,
    defaultText: "0",
    hint: "At import, make about this many decoys per 100 passages: paragraphs of the candidates’ pages without any answer token, hidden as gold expected not sufficient, never exported.",
  },
];

export const SESSION_GOAL_SETTING: NumberSpec<NumberField> = {
  field: "sessionGoal",
  min: 1,
  max: 100000,
  optional: true,
  defaultText: "none",
  hint: "Passages an annotator aims to judge in one session (a session ends after 30 min without a judgment); the judging page shows progress towards it. Blank: no goal.",
};

export const WARNING_SETTINGS: NumberSpec<NumberField>[] = [
  {
    field: "warnFastShare",
    min: 0,
    max: 1,
    step: 0.01,
    defaultText: "0.5",
    hint: "Flag an annotator when more than this share (0–1) of their judgments took under 2 s.",
  },
  {
    field: "warnMinAgreement",
    min: 0,
    max: 1,
    step: 0.01,
    defaultText: "0.6",
    hint: "Flag an annotator whose agreement with the majority (0–1) falls below this.",
  },
  {
    field: "warnMinJudgments",
    min: 1,
    max: 100000,
    defaultText: "20",
    hint: "Judgments (compared ones, for agreement) before an annotator is flagged.",
  },
];

export const CHECK_HINTS: Record<BooleanField, string> = {
  showAnswers: "Annotators see the question’s answers above the passage.",
  earlyStop: "Stop assigning a passage once its outcome is decided.",
  askWhenNoneSufficient:
    "An annotator who finds none of a question’s passages sufficient proposes another passage or explains why (on by default).",
  allAnnotators: "Every annotator, present and future, works on this campaign. Off: only the annotators added to it.",
};
