import { CROWD_FIELD_LABELS, crowdFieldId, type CrowdNumberField } from "./crowd-draft";
import type { NumberSpec, SettingNames } from "./setting-inputs";

// The crowd form's number settings, by fieldset: their bounds, defaults and hints.

export const CROWD_NAMES: SettingNames<CrowdNumberField> = { idOf: crowdFieldId, labels: CROWD_FIELD_LABELS };

export const TRAINING_SETTINGS: NumberSpec<CrowdNumberField>[] = [
  {
    field: "trainingItems",
    min: 0,
    max: 50,
    defaultText: "5",
    hint: "Gold passages marked as training each worker answers first, with feedback (0: no training); at most as many as the campaign has marked. The worker never gets those questions as work.",
  },
  {
    field: "trainingPassShare",
    min: 0,
    max: 1,
    step: 0.01,
    defaultText: "0.8",
    hint: "Share (0–1) of training answers that must be right to enter real work.",
  },
];

export const QUOTA_SETTING: NumberSpec<CrowdNumberField> = {
  field: "quota",
  min: 1,
  max: 10000,
  defaultText: "20",
  hint: "A session ends once the worker has judged this many.",
};

/** The session's time and the caps on workers, sessions and judgments (after the quota's unit). */
export const LIMIT_SETTINGS: NumberSpec<CrowdNumberField>[] = [
  {
    field: "timeLimitMinutes",
    min: 1,
    max: 1440,
    defaultText: "60",
    hint: "A session ends with the “time limit reached” code after this long.",
  },
  {
    field: "maxSessionsPerWorker",
    min: 1,
    max: 1000,
    defaultText: "1",
    hint: "How many sessions one worker id may have in this campaign.",
  },
  {
    field: "maxWorkers",
    min: 1,
    max: 1000000,
    defaultText: "200",
    hint: "The platform’s number of places: worker ids past it are turned away, and no account is made for them.",
  },
  {
    field: "maxSessionsInProgress",
    min: 1,
    max: 100000,
    defaultText: "50",
    hint: "Sessions not yet ended, at once. A newcomer past it is asked to come back later; no account is made.",
  },
  {
    field: "maxJudgmentsPerWorker",
    min: 1,
    max: 1000000000,
    optional: true,
    defaultText: "none",
    hint: "Judgments one worker may make in all their sessions. Blank: no limit.",
  },
];
