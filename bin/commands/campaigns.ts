import type { Command } from "commander";
import { readFileSync } from "node:fs";
import type { AnnotatorRow } from "@/lib/campaign/report/annotators.contract";
import type { Dashboard } from "@/lib/campaign/report/dashboard.contract";
import { QUESTION_FILTERS, questionListQuerySchema, questionOutcome, type QuestionList } from "@/lib/campaign/report/question-list-options";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { campaignListQuerySchema } from "@/lib/list-options.contract";
import { describeOutlook } from "@/lib/metrics/progress";
import { addCampaignUpdate } from "./campaign-update";
import { addCrowdCommand } from "./crowd";
import { type CliContext, eachOfPaged, existingFile, listEvery, note, number, out, parseArgs } from "./shared";

/** `kps campaign create|update|list|status|questions|crowd`. */
export function addCampaignCommands(program: Command, ctx: CliContext): void {
  const campaign = program.command("campaign").description("campaigns (coordinators)");
  addCreate(campaign, ctx);
  addCampaignUpdate(campaign, ctx);
  campaign
    .command("list")
    .description("list every campaign with its size, newest first")
    .option("--search <text>", "only names containing this text")
    .action((opts: { search?: string }) =>
      listEvery<{ id: number; name: string; batches: number; queries: number; passages: number }>(ctx, {
        path: "/api/campaigns",
        key: "campaigns",
        schema: campaignListQuerySchema,
        search: opts.search,
        noun: ["campaign", "campaigns"],
        line: (c) => `${c.id}\t${c.name}\t${c.batches} batches\t${c.queries} questions\t${c.passages} passages`,
      }),
    );
  campaign
    .command("status")
    .description("print a campaign's progress, agreement and annotators (the dashboard's figures)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .action(async (opts: { campaign: string }) => {
      ctx.needToken();
      const campaign = `/api/campaigns/${encodeURIComponent(opts.campaign)}`;
      const { data } = await ctx.client().request<{ dashboard: Dashboard }>("GET", `${campaign}/dashboard`);
      printDashboard(data.dashboard);
      // Every annotator, by username, a page at a time.
      await eachOfPaged<AnnotatorRow>(ctx, `${campaign}/annotators`, "annotators", printAnnotator);
    });
  addQuestions(campaign, ctx);
  addCrowdCommand(campaign, ctx);
}

/** The API's field names as the options that set them, for messages. */
const campaignOptionNames: Record<string, string> = {
  judgmentsPerPassage: "judgments",
  endorsementThreshold: "threshold",
  goldMinJudgments: "gold-min",
  goldAccuracyThreshold: "gold-threshold",
  leaseMinutes: "lease-minutes",
  instructions: "instructions-file",
  goldSpanSlack: "gold-span-slack",
  decoysPer100: "decoys-per-100",
};

function addCreate(campaign: Command, ctx: CliContext): void {
  campaign
    .command("create")
    .description("create a campaign; prints its id")
    .requiredOption("--name <name>", "the campaign's name")
    .option("--judgments <n>", "judgments per passage, R (default 3)", number("--judgments"))
    .option("--threshold <n>", "sufficient judgments that endorse a passage, T (default 2)", number("--threshold"))
    .option("--show-answers", "show the questions' answers to annotators (default off)")
    .option(
      "--gold-min <n>",
      "gold judgments of one kind (sufficient or negative gold) before the gold rule applies to it (default 4)",
      number("--gold-min"),
    )
    .option(
      "--gold-threshold <x>",
      "smoothed accuracy on either kind of gold below which an annotator is paused (default 0.3)",
      number("--gold-threshold"),
    )
    .option(
      "--gold-span-slack <x>",
      "on sufficient gold, how much longer than its sentences a highlight may be (default 0.2: 20%)",
      number("--gold-span-slack"),
    )
    .option(
      "--decoys-per-100 <n>",
      "decoys (negative gold, never exported) made per 100 imported passages (default 0)",
      number("--decoys-per-100"),
    )
    .option("--lease-minutes <n>", "how long a claim lasts without renewal (default 10)", number("--lease-minutes"))
    .option("--early-stop", "stop assigning a passage once its outcome is decided (default off)")
    .option(
      "--no-ask",
      "do not ask an annotator who finds no passage of a question sufficient for another passage or an explanation (default: ask)",
    )
    .option("--instructions-file <file>", "annotator instructions in Markdown", existingFile)
    .option("--members-only", "only annotators added to the campaign work on it (default: all annotators)")
    .option(
      "--aggregation <how>",
      "what endorses a passage: majority (T of R votes) or dawid-skene (posterior >= 0.5 once finished) (default majority)",
    )
    .action(async (opts: Record<string, unknown>) => {
      ctx.needToken();
      const input = parseArgs(
        createCampaignSchema,
        {
          name: opts.name,
          judgmentsPerPassage: opts.judgments,
          endorsementThreshold: opts.threshold,
          showAnswers: opts.showAnswers === true ? true : undefined,
          goldMinJudgments: opts.goldMin,
          goldAccuracyThreshold: opts.goldThreshold,
          goldSpanSlack: opts.goldSpanSlack,
          decoysPer100: opts.decoysPer100,
          leaseMinutes: opts.leaseMinutes,
          earlyStop: opts.earlyStop === true ? true : undefined,
          askWhenNoneSufficient: opts.ask === false ? false : undefined,
          instructions: typeof opts.instructionsFile === "string" ? readFileSync(opts.instructionsFile, "utf8") : undefined,
          allAnnotators: opts.membersOnly === true ? false : undefined,
          aggregation: opts.aggregation,
        },
        campaignOptionNames,
      );
      const { data } = await ctx.client().request<{ campaign: { id: number; name: string } }>("POST", "/api/campaigns", input);
      out(String(data.campaign.id));
      note(`Created campaign '${data.campaign.name}' (id ${data.campaign.id}).`);
    });
}

/** The dashboard's figures, one tab-separated line per fact. */
function printDashboard(d: Dashboard): void {
  const coefficient = (v: number | null) => (v === null ? "-" : v.toFixed(3));
  const eta = describeOutlook(d.projection.outlook);
  out(`campaign\t${d.campaign.id}\t${d.campaign.name}`);
  out(`slots\t${d.totals.filled} filled\t${d.totals.claimed} claimed\t${d.totals.open} open\tof ${d.totals.slots}`);
  out(`passages\t${d.totals.passages}\t${d.totals.finishedPassages} finished\t${d.totals.endorsedPassages} endorsed`);
  out(`questions\t${d.questions.answered} answered\t${d.questions.unanswerable} unanswerable`);
  if (d.responses)
    out(`responses\t${d.responses.questionsWithExplanations} questions with explanations\t${d.responses.proposals} passages proposed`);
  out(`agreement\talpha ${coefficient(d.totals.alpha)}\tkappa ${coefficient(d.totals.kappa)}`);
  out(`pace\t${Math.round(d.projection.perHour)} judgments/hour\tfinish ${eta}`);
  for (const b of d.batches) {
    out(
      `batch\t${b.id}\t${b.name}\t${b.status}\t${b.filled}/${b.slots} filled\t${b.endorsedPassages} endorsed\talpha ${coefficient(b.alpha)}\tkappa ${coefficient(b.kappa)}`,
    );
  }
}

function printAnnotator(a: AnnotatorRow): void {
  const pct = (v: number | null) => (v === null ? "-" : `${Math.round(v * 100)}%`);
  out(
    `annotator\t${a.userId}\t${a.username}\t${a.status}\t${a.judgments} judgments\tagreement ${pct(a.agreement)}\tgold ${a.goldJudged ? a.goldAccuracy.toFixed(2) : "-"}\tsufficient gold ${a.sufficientGoldCorrect}/${a.sufficientGoldJudged}\tnegative gold ${a.negativeGoldCorrect}/${a.negativeGoldJudged}\tmedian ${a.medianSeconds === null ? "-" : a.medianSeconds.toFixed(1)} s\tunder 2 s ${pct(a.shareUnder2s)}`,
  );
}

function addQuestions(campaign: Command, ctx: CliContext): void {
  campaign
    .command("questions")
    .description(
      "list a campaign's questions by outcome so far, one per line: id, KILT id, outcome, passages, finished, endorsed, split, question",
    )
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--show <which>", `one of ${QUESTION_FILTERS.join(", ")}`, "all")
    .option("--search <text>", "words in the question, or its exact KILT id")
    .action(async (opts: { campaign: string; show: string; search?: string }) => {
      ctx.needToken();
      const parsed = parseArgs(questionListQuerySchema, { show: opts.show, q: opts.search, limit: 200 }, { q: "search" });
      let after: number | null | undefined;
      let total = 0;
      do {
        const query = new URLSearchParams({
          show: parsed.show,
          limit: String(parsed.limit),
          ...(parsed.q ? { q: parsed.q } : {}),
          ...(after ? { after: String(after) } : {}),
        });
        const { data } = await ctx
          .client()
          .request<QuestionList>("GET", `/api/campaigns/${encodeURIComponent(opts.campaign)}/questions?${query}`);
        for (const q of data.questions) {
          out(
            `${q.id}\t${q.kiltId}\t${questionOutcome(q)}\t${q.passages}\t${q.finished}\t${q.endorsed}\t${q.disputed}\t${q.input.replace(/\s+/g, " ")}`,
          );
        }
        total += data.questions.length;
        if (after === undefined) {
          note(
            `Questions: ${QUESTION_FILTERS.filter((f) => !f.startsWith("waiting"))
              .map((f) => `${data.counts[f]} ${f}`)
              .join(", ")}.`,
          );
          const reasons = QUESTION_FILTERS.filter((f) => f.startsWith("waiting-")).map(
            (f) => `${data.counts[f]} ${f.slice("waiting-".length)}`,
          );
          note(`Waiting for the coordinator: ${data.counts.waiting} (${reasons.join(", ")}).`);
        }
        after = data.next;
      } while (after);
      note(`Listed ${total} question${total === 1 ? "" : "s"} (${parsed.show}${parsed.q ? `, matching "${parsed.q}"` : ""}).`);
    });
}
