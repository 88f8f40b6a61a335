import { Command, CommanderError, Option } from "commander";
import { z } from "zod";
import { fieldProblems } from "@/lib/errors";
import { ApiClient, ApiError } from "./api-client";
import { addAggregateCommand } from "./commands/aggregate";
import { addAuditCommand } from "./commands/audit";
import { addAuthCommands } from "./commands/auth";
import { addBatchCommands } from "./commands/batches";
import { addCampaignCommands } from "./commands/campaigns";
import { addExportCommands } from "./commands/export";
import { addHealthCommand } from "./commands/health";
import { addKnowledgeCommands } from "./commands/knowledge";
import { addRunCommands } from "./commands/runs";
import { addMapCommand } from "./commands/map";
import { addScoreCommand } from "./commands/score";
import { type CliContext, note } from "./commands/shared";
import { addTokenCommands } from "./commands/tokens";
import { addUserCommands } from "./commands/users";
import { addWorkersCommand } from "./commands/workers";

const cliEnvSchema = z.object({
  KPS_URL: z.url("KPS_URL must be a URL such as http://localhost:3000").optional(),
  KPS_TOKEN: z.string().min(1).optional(),
});

interface GlobalOptions {
  url: string;
  token?: string;
}

/** The kps program: global options, then each command group in the order `kps --help` lists them. */
export function buildProgram(env: NodeJS.ProcessEnv = process.env): Command {
  const parsedEnv = cliEnvSchema.safeParse({ KPS_URL: env.KPS_URL || undefined, KPS_TOKEN: env.KPS_TOKEN || undefined });
  if (!parsedEnv.success)
    throw new ApiError(
      fieldProblems(parsedEnv.error)
        .map((p) => `${p.field}: ${p.message}`)
        .join("\n"),
      0,
      "invalid",
    );

  const program = new Command("kps")
    .description(
      "KILT Provenance Studio command-line client. It talks to a running app over HTTP (kps score, aggregate and map work offline, on files).",
    )
    .addOption(new Option("--url <url>", "the app's address (env KPS_URL)").default(parsedEnv.data.KPS_URL ?? "http://localhost:3000"))
    .addOption(new Option("--token <token>", "an API token (env KPS_TOKEN); make one with 'kps login'").default(parsedEnv.data.KPS_TOKEN))
    .showHelpAfterError()
    .exitOverride();

  const ctx: CliContext = {
    url: () => program.opts<GlobalOptions>().url,
    client: () => {
      const opts = program.opts<GlobalOptions>();
      return new ApiClient({ url: opts.url, token: opts.token });
    },
    needToken: () => {
      if (!program.opts<GlobalOptions>().token) {
        throw new ApiError("This command needs an API token: run 'kps login' and export KPS_TOKEN, or pass --token.", 401, "unauthorized");
      }
    },
  };

  addAuthCommands(program, ctx);
  addUserCommands(program, ctx);
  addTokenCommands(program, ctx);
  addAuditCommand(program, ctx);
  addKnowledgeCommands(program, ctx);
  addCampaignCommands(program, ctx);
  addBatchCommands(program, ctx);
  addExportCommands(program, ctx);
  addWorkersCommand(program, ctx);
  addHealthCommand(program, ctx);
  addScoreCommand(program);
  addMapCommand(program);
  addAggregateCommand(program);
  addRunCommands(program, ctx);

  for (const cmd of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    cmd.exitOverride();
    cmd.showHelpAfterError();
  }
  return program;
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const program = buildProgram();
    if (argv.length <= 2) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.help" || error.code === "commander.version"
        ? 0
        : error.exitCode || 2;
    }
    if (error instanceof ApiError) {
      note(`kps: ${error.message}`);
      const problems = (error.details as { problems?: { file?: string; line?: number; field: string; message: string }[] } | undefined)
        ?.problems;
      for (const p of problems ?? []) {
        note(p.file ? `  ${p.file}:${p.line}: ${p.field}: ${p.message}` : `  ${p.field}: ${p.message}`);
      }
      return error.status === 0 && error.code === "invalid" ? 2 : 1;
    }
    note(`kps: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
