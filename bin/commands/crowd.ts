import type { Command } from "commander";
import { readFileSync } from "node:fs";
import {
  CROWD_OUTCOME_LABELS,
  CROWD_OUTCOME_LIST,
  updateCrowdSettingsSchema,
  type CrowdOutcome,
  type CrowdSettingsAnswer,
  type UpdateCrowdSettingsInput,
} from "@/lib/crowd/settings.contract";
import { ApiError } from "../api-client";
import { type CliContext, existingFile, note, number, out, parseArgs } from "./shared";

/** What `kps campaign crowd` options hold once commander has parsed them. */
export interface CrowdOptions {
  campaign: string;
  enable?: boolean;
  disable?: boolean;
  stop?: boolean;
  maxWorkers?: number;
  maxInProgress?: number;
  mturkSite?: string;
  exampleFile?: string;
  platform?: string;
  consentFile?: string;
  trainingItems?: number;
  passShare?: number;
  quota?: number;
  quotaUnit?: string;
  timeLimit?: number;
  maxSessions?: number;
  maxJudgments?: number | "none";
  pauseFast?: boolean;
  completionUrl?: string;
  code?: string[];
}

/** The API's field names as the options that set them, for messages. */
const crowdOptionNames: Record<string, string> = {
  consent: "consent-file",
  entry: "enable/--disable/--stop",
  maxWorkers: "max-workers",
  maxSessionsInProgress: "max-in-progress",
  mturkSite: "mturk-site",
  example: "example-file",
  trainingItems: "training-items",
  trainingPassShare: "pass-share",
  quotaUnit: "quota-unit",
  timeLimitMinutes: "time-limit",
  maxSessionsPerWorker: "max-sessions",
  maxJudgmentsPerWorker: "max-judgments",
  pauseFastWorkers: "pause-fast",
  completionUrl: "completion-url",
  ...Object.fromEntries(CROWD_OUTCOME_LIST.map((o) => [`codes.${o}`, `code ${o}=…`])),
};

/** `--max-judgments N|none` ("none" kept as the word: commander turns a parser's null into ""). */
const judgmentLimit = (v: string): number | "none" => (v.trim().toLowerCase() === "none" ? "none" : number("--max-judgments")(v));

/** `--code OUTCOME=CODE`, repeatable. */
const collectCode = (v: string, previous: string[] | undefined) => [...(previous ?? []), v];

function codesOf(pairs: string[]): Partial<Record<CrowdOutcome, string>> | undefined {
  if (!pairs.length) return undefined;
  const codes: Partial<Record<CrowdOutcome, string>> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const outcome = pair.slice(0, eq) as CrowdOutcome;
    if (eq < 1 || !CROWD_OUTCOME_LIST.includes(outcome)) {
      throw new ApiError(
        `Invalid arguments:\n  --code: '${pair}' is not OUTCOME=CODE with OUTCOME one of ${CROWD_OUTCOME_LIST.join(", ")}`,
        0,
        "invalid",
      );
    }
    if (codes[outcome] !== undefined) throw new ApiError(`Invalid arguments:\n  --code: ${outcome} is given twice`, 0, "invalid");
    codes[outcome] = pair.slice(eq + 1);
  }
  return codes;
}

/** The PUT body the options ask for (checked with the API's own schema); empty when they change nothing. */
export function crowdChanges(opts: CrowdOptions): UpdateCrowdSettingsInput {
  const states = [opts.enable && "--enable", opts.disable && "--disable", opts.stop && "--stop"].filter(Boolean);
  if (states.length > 1) throw new ApiError(`Invalid arguments:\n  ${states.join(" and ")} cannot be given together`, 0, "invalid");
  const body = {
    entry: opts.enable ? "open" : opts.disable ? "closed" : opts.stop ? "stopped" : undefined,
    platform: opts.platform,
    consent: opts.consentFile === undefined ? undefined : readFileSync(opts.consentFile, "utf8"),
    trainingItems: opts.trainingItems,
    trainingPassShare: opts.passShare,
    quota: opts.quota,
    quotaUnit: opts.quotaUnit,
    timeLimitMinutes: opts.timeLimit,
    maxSessionsPerWorker: opts.maxSessions,
    maxJudgmentsPerWorker: opts.maxJudgments === "none" ? null : opts.maxJudgments,
    pauseFastWorkers: opts.pauseFast,
    completionUrl: opts.completionUrl,
    maxWorkers: opts.maxWorkers,
    maxSessionsInProgress: opts.maxInProgress,
    mturkSite: opts.mturkSite,
    example: opts.exampleFile === undefined ? undefined : readFileSync(opts.exampleFile, "utf8"),
    codes: codesOf(opts.code ?? []),
  };
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return parseArgs(updateCrowdSettingsSchema, given, crowdOptionNames);
}

/** The settings, one tab-separated line per setting, then one per code. */
export function crowdLines(c: CrowdSettingsAnswer): string[] {
  return [
    `campaign\t${c.campaignId}`,
    `entry\t${c.entry}`,
    `platform\t${c.platform}`,
    ...(c.platform === "mturk" ? [`mturk_site\t${c.mturkSite}`] : []),
    `entry_url\t${c.entryUrl}`,
    `consent\t${Array.from(c.consent).length} characters`,
    `training_items\t${c.trainingItems}`,
    `pass_share\t${c.trainingPassShare}`,
    `quota\t${c.quota} ${c.quotaUnit}`,
    `time_limit\t${c.timeLimitMinutes} minutes`,
    `max_sessions\t${c.maxSessionsPerWorker}`,
    `max_judgments\t${c.maxJudgmentsPerWorker ?? "none"}`,
    `max_workers\t${c.maxWorkers}`,
    `max_in_progress\t${c.maxSessionsInProgress}`,
    `workers\t${c.usage.workers} of ${c.maxWorkers}`,
    `in_progress\t${c.usage.sessionsInProgress} of ${c.maxSessionsInProgress}`,
    `example\t${Array.from(c.example).length} characters`,
    `pause_fast\t${c.pauseFastWorkers ? "yes" : "no"}`,
    `completion_url\t${c.completionUrl}`,
    ...CROWD_OUTCOME_LIST.map((o) => `code\t${o}\t${c.codes[o]}\t${CROWD_OUTCOME_LABELS[o]}`),
  ];
}

/** `kps campaign crowd`: prints a campaign's crowd entry, or changes it and prints the result. */
export function addCrowdCommand(campaign: Command, ctx: CliContext): void {
  campaign
    .command("crowd")
    .description("print a campaign's crowd entry (settings, codes, the URL to paste into the platform), or change it with the options")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--enable", "open the entry: workers with the link may start sessions")
    .option("--disable", "close the entry to newcomers: sessions in progress finish")
    .option("--stop", "stop the entry: nobody enters, and sessions in progress end (outcome stopped)")
    .option("--platform <platform>", "prolific, mturk or generic")
    .option("--consent-file <file>", "the consent text, Markdown", existingFile)
    .option("--training-items <k>", "training items per worker, 0–50 (default 5)", number("--training-items"))
    .option("--pass-share <x>", "share of training answers that must be right, 0–1 (default 0.8)", number("--pass-share"))
    .option("--quota <n>", "passages (or questions) per session, 1–10000 (default 20)", number("--quota"))
    .option("--quota-unit <unit>", "passages or questions (default passages)")
    .option("--time-limit <minutes>", "a session's time limit, 1–1440 (default 60)", number("--time-limit"))
    .option("--max-sessions <n>", "sessions per worker, 1–1000 (default 1)", number("--max-sessions"))
    .option("--max-judgments <n|none>", "judgments per worker in all, or none (the default)", judgmentLimit)
    .option("--pause-fast", "pause workers whose median time per judgment is under 2 s")
    .option("--no-pause-fast", "do not pause fast workers (the default)")
    .option("--completion-url <url>", "Prolific's completion URL; ?cc=CODE is added")
    .option("--max-workers <n>", "worker ids in all (the platform's places), 1–1000000 (default 200)", number("--max-workers"))
    .option("--max-in-progress <n>", "sessions in progress at once, 1–100000 (default 50)", number("--max-in-progress"))
    .option("--mturk-site <site>", "MTurk: production or sandbox, where assignments are submitted (default production)")
    .option("--example-file <file>", "the entry page's example, Markdown (never a gold passage)", existingFile)
    .option("--code <outcome=code>", `a completion code; outcomes: ${CROWD_OUTCOME_LIST.join(", ")} (repeatable)`, collectCode)
    .action(async (opts: CrowdOptions) => {
      ctx.needToken();
      if (!/^[1-9][0-9]{0,14}$/.test(opts.campaign))
        throw new ApiError(
          `Invalid arguments:\n  --campaign: must be a campaign id (a positive whole number), not '${opts.campaign}'`,
          0,
          "invalid",
        );
      const changes = crowdChanges(opts);
      const path = `/api/campaigns/${opts.campaign}/crowd`;
      const changing = Object.keys(changes).length > 0;
      const { data } = await ctx
        .client()
        .request<{ crowd: CrowdSettingsAnswer }>(changing ? "PUT" : "GET", path, changing ? changes : undefined);
      for (const line of crowdLines(data.crowd)) out(line);
      if (changing) note(`Changed ${Object.keys(changes).join(", ")} of campaign ${data.crowd.campaignId}'s crowd entry.`);
      if (data.crowd.entry === "closed")
        note("The crowd entry is closed: workers who open the link are turned away, sessions in progress finish (open it with --enable).");
      if (data.crowd.entry === "stopped")
        note(
          "The crowd entry is stopped: workers who open the link are turned away, and sessions in progress end (open it with --enable).",
        );
    });
}
