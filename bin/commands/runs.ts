import type { Command } from "commander";
import type { RunResults, RunView } from "@/lib/campaign/runs/runs.contract";
import { type CliContext, existingFile, note, out, progressPrinter } from "./shared";

/** One line of `kps run list`: id, name, questions, what the run predicts, when and by whom. */
export function runLine(r: RunView): string {
  const kind = [r.hasProvenance ? "provenance" : "", r.hasAnswers ? "answers" : ""].filter(Boolean).join("+");
  return `${r.id}\t${r.name}\t${r.questions} questions\t${kind}\t${r.createdAt}\t${r.createdBy ?? "-"}`;
}

const campaignPath = (campaign: string) => `/api/campaigns/${encodeURIComponent(campaign)}`;

/** `kps run upload|list|scores|delete`: a system's predictions scored against a campaign (coordinators). */
export function addRunCommands(program: Command, ctx: CliContext): void {
  const run = program
    .command("run")
    .description("runs: a system's predictions for a campaign, scored against its three golds (coordinators)");
  run
    .command("upload")
    .description("upload a KILT guess file (one prediction per question of the campaign) as a run; prints the run id")
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--name <name>", "the run's name (1–80 characters, unique in the campaign), e.g. DPR")
    .argument("<guess>", "a KILT guess JSONL file (plain or gzip): {id, output: [{answer?, provenance?}]} per line", existingFile)
    .action(async (guess: string, opts: { campaign: string; name: string }) => {
      ctx.needToken();
      const progress = progressPrinter("Uploading the run");
      const { run: uploaded } = await ctx.client().upload<{ run: RunView }>(
        `${campaignPath(opts.campaign)}/runs`,
        [
          { name: "name", value: opts.name },
          { name: "guess", file: guess },
        ],
        progress,
      );
      progress.done();
      out(String(uploaded.id));
      note(
        `Uploaded run '${uploaded.name}' (id ${uploaded.id}): ${uploaded.questions} predictions. Its figures: 'kps run scores --campaign ${opts.campaign} --run ${uploaded.id}'.`,
      );
    });
  run
    .command("list")
    .description("list the campaign's runs, newest first: id, name, questions, kind, uploaded at, by")
    .requiredOption("--campaign <id>", "the campaign's id")
    .action(async (opts: { campaign: string }) => {
      ctx.needToken();
      const { data } = await ctx.client().request<{ runs: RunView[] }>("GET", `${campaignPath(opts.campaign)}/runs`);
      for (const r of data.runs) out(runLine(r));
      note(`Listed ${data.runs.length} ${data.runs.length === 1 ? "run" : "runs"}.`);
    });
  run
    .command("scores")
    .description(
      "print a run's figures as KILT's evaluators do, per gold (original, endorsed, both): page and paragraph at ks 1,3,5,10 and downstream, as JSON",
    )
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--run <id>", "the run's id")
    .action(async (opts: { campaign: string; run: string }) => {
      ctx.needToken();
      const { data } = await ctx
        .client()
        .request<RunResults>("GET", `${campaignPath(opts.campaign)}/runs/${encodeURIComponent(opts.run)}/results`);
      out(JSON.stringify(data, null, 2));
    });
  run
    .command("delete")
    .description("delete a run and its predictions")
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--run <id>", "the run's id")
    .action(async (opts: { campaign: string; run: string }) => {
      ctx.needToken();
      await ctx.client().request("DELETE", `${campaignPath(opts.campaign)}/runs/${encodeURIComponent(opts.run)}`);
      note(`Deleted run ${opts.run}.`);
    });
}
