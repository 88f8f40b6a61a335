import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { z } from "zod";
import { createWriteStream, readFileSync, statSync } from "node:fs";
import { createTokenSchema, createUserSchema, signInSchema } from "@/lib/auth/schemas";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { createCampaignSchema } from "@/lib/campaign/settings";
import type { Dashboard } from "@/lib/campaign/report/dashboard";
import { QUESTION_FILTERS, questionListQuerySchema, questionOutcome, type QuestionList } from "@/lib/campaign/report/question-list-options";
import { formatDuration } from "@/lib/metrics/progress";
import { fieldProblems } from "@/lib/errors";
import { formatBytes } from "@/lib/format";
import { ApiClient, ApiError } from "./api-client";

const cliEnvSchema = z.object({
  KPS_URL: z.url("KPS_URL must be a URL such as http://localhost:3000").optional(),
  KPS_TOKEN: z.string().min(1).optional(),
});

interface GlobalOptions {
  url: string;
  token?: string;
}

/** Parses command arguments with a shared zod schema, naming the bad option on failure. */
function parseArgs<S extends z.ZodType>(schema: S, value: unknown, optionNames: Record<string, string> = {}): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const lines = fieldProblems(result.error).map((p) => `  --${optionNames[p.field] ?? p.field}: ${p.message}`);
  throw new ApiError(`Invalid arguments:\n${lines.join("\n")}`, 0, "invalid");
}

function out(line: string) {
  process.stdout.write(line + "\n");
}

function note(line: string) {
  process.stderr.write(line + "\n");
}

export function buildProgram(env: NodeJS.ProcessEnv = process.env): Command {
  const parsedEnv = cliEnvSchema.safeParse({ KPS_URL: env.KPS_URL || undefined, KPS_TOKEN: env.KPS_TOKEN || undefined });
  if (!parsedEnv.success) throw new ApiError(fieldProblems(parsedEnv.error).map((p) => `${p.field}: ${p.message}`).join("\n"), 0, "invalid");

  const program = new Command("kps")
    .description("KILT Provenance Studio command-line client. It talks to a running app over HTTP.")
    .addOption(new Option("--url <url>", "the app's address (env KPS_URL)").default(parsedEnv.data.KPS_URL ?? "http://localhost:3000"))
    .addOption(new Option("--token <token>", "an API token (env KPS_TOKEN); make one with 'kps login'").default(parsedEnv.data.KPS_TOKEN))
    .showHelpAfterError()
    .exitOverride();

  const client = () => {
    const opts = program.opts<GlobalOptions>();
    return new ApiClient({ url: opts.url, token: opts.token });
  };
  const needToken = () => {
    if (!program.opts<GlobalOptions>().token) {
      throw new ApiError("This command needs an API token: run 'kps login' and export KPS_TOKEN, or pass --token.", 401, "unauthorized");
    }
  };

  program
    .command("login")
    .description("sign in with a username and password and print an API token to export (coordinators)")
    .requiredOption("--username <username>", "your username")
    .requiredOption("--password <password>", "your password")
    .option("--name <name>", "a name for the token", `kps on ${process.env.HOSTNAME ?? "this machine"}`)
    .action(async (opts: { username: string; password: string; name: string }) => {
      const input = parseArgs(signInSchema, { username: opts.username, password: opts.password });
      const api = new ApiClient({ url: program.opts<GlobalOptions>().url });
      const { headers } = await api.request("POST", "/api/auth/sign-in", input);
      const cookie = headers.get("set-cookie")?.split(";")[0];
      if (!cookie) throw new ApiError("The app did not open a session.", 0, "internal");
      const origin = new URL(api.baseUrl).origin;
      const { data } = await api.request<{ token: { token: string } }>(
        "POST",
        "/api/tokens",
        parseArgs(createTokenSchema, { name: opts.name }),
        { cookie, origin },
      );
      await api.request("POST", "/api/auth/sign-out", {}, { cookie, origin }).catch(() => {});
      out(`export KPS_TOKEN=${data.token.token}`);
      note("Signed in. Run the line above (or eval \"$(kps login …)\") so later commands use the token.");
    });

  program
    .command("whoami")
    .description("show who the token belongs to")
    .action(async () => {
      needToken();
      const { data } = await client().request<{ user: { username: string; role: string } }>("GET", "/api/me");
      out(`${data.user.username} (${data.user.role})`);
    });

  const user = program.command("user").description("manage accounts (coordinators)");
  user
    .command("create")
    .description("create an account; without --password, prints an invite link for the person to set one")
    .requiredOption("--username <username>", "the new account's username")
    .requiredOption("--role <role>", "annotator or coordinator", (v: string) => {
      if (v !== "annotator" && v !== "coordinator") throw new InvalidArgumentError("must be 'annotator' or 'coordinator'.");
      return v;
    })
    .option("--password <password>", "set a password now instead of sending an invite link")
    .action(async (opts: { username: string; role: string; password?: string }) => {
      needToken();
      const input = parseArgs(createUserSchema, opts);
      const { data } = await client().request<{ user: { id: number; username: string; role: string }; invite?: { url: string; expiresAt: string } }>(
        "POST",
        "/api/users",
        input,
      );
      if (data.invite) {
        out(data.invite.url);
        note(`Created ${data.user.role} '${data.user.username}' (id ${data.user.id}). Send them the invite link above; it works once and expires ${data.invite.expiresAt}.`);
      } else {
        out(String(data.user.id));
        note(`Created ${data.user.role} '${data.user.username}' (id ${data.user.id}).`);
      }
    });
  user
    .command("list")
    .description("list accounts")
    .action(async () => {
      needToken();
      const { data } = await client().request<{ users: { id: number; username: string; role: string; hasPassword: boolean }[] }>("GET", "/api/users");
      for (const u of data.users) out(`${u.id}\t${u.username}\t${u.role}${u.hasPassword ? "" : "\t(invited, no password yet)"}`);
    });

  const token = program.command("token").description("manage API tokens (coordinators)");
  token
    .command("create")
    .description("create an API token acting as you; it is printed once")
    .requiredOption("--name <name>", "what the token is for")
    .action(async (opts: { name: string }) => {
      needToken();
      const { data } = await client().request<{ token: { token: string } }>("POST", "/api/tokens", parseArgs(createTokenSchema, opts));
      out(data.token.token);
    });
  token
    .command("list")
    .description("list API tokens (never their secrets)")
    .action(async () => {
      needToken();
      const { data } = await client().request<{ tokens: { id: number; name: string; prefix: string; owner: string; revokedAt: string | null }[] }>(
        "GET",
        "/api/tokens",
      );
      for (const t of data.tokens) out(`${t.id}\t${t.prefix}…\t${t.name}\t${t.owner}${t.revokedAt ? "\trevoked" : ""}`);
    });
  token
    .command("revoke")
    .description("revoke an API token at once")
    .argument("<id>", "the token's id (see 'kps token list')")
    .action(async (id: string) => {
      needToken();
      await client().request("DELETE", `/api/tokens/${encodeURIComponent(id)}`);
      note(`Revoked token ${id}.`);
    });

  const number = (name: string) => (v: string) => {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number.`);
    return n;
  };
  const existingFile = (v: string) => {
    const st = statSync(v, { throwIfNoEntry: false });
    if (!st?.isFile()) throw new InvalidArgumentError(`no such file: ${v}`);
    return v;
  };

  const knowledge = program.command("knowledge").description("the knowledge source: Wikipedia pages in KILT format");
  knowledge
    .command("import")
    .description("import KILT knowledge-source pages (JSONL, plain or .gz), streamed; pages are upserted by wikipedia_id")
    .argument("<file>", "kilt_knowledgesource.json or a part of it", existingFile)
    .option("--only-for <files...>", "keep only the pages these queries/candidates files cite")
    .action(async (file: string, opts: { onlyFor?: string[] }) => {
      needToken();
      for (const f of opts.onlyFor ?? []) existingFile(f);
      const parts = [...(opts.onlyFor ?? []).map((f) => ({ name: "references", file: f })), { name: "file", file }];
      const progress = progressPrinter(`Uploading ${file}`);
      const result = await client().upload<{ pages: number; inserted: number; updated: number; skipped: number; lines: number }>(
        "/api/knowledge",
        parts,
        progress,
      );
      progress.done();
      out(String(result.pages));
      note(`Imported ${result.pages} pages from ${result.lines} lines (${result.inserted} new, ${result.updated} updated${result.skipped ? `, ${result.skipped} not cited and left out` : ""}).`);
    });

  const campaign = program.command("campaign").description("campaigns (coordinators)");
  campaign
    .command("create")
    .description("create a campaign; prints its id")
    .requiredOption("--name <name>", "the campaign's name")
    .option("--judgments <n>", "judgments per passage, R (default 3)", number("--judgments"))
    .option("--threshold <n>", "sufficient judgments that endorse a passage, T (default 2)", number("--threshold"))
    .option("--show-answers", "show the questions' answers to annotators (default off)")
    .option("--gold-min <n>", "gold judgments before the gold rule applies (default 5)", number("--gold-min"))
    .option("--gold-threshold <x>", "smoothed gold accuracy below which an annotator is paused (default 0.7)", number("--gold-threshold"))
    .option("--lease-minutes <n>", "how long a claim lasts without renewal (default 10)", number("--lease-minutes"))
    .option("--early-stop", "stop assigning a passage once its outcome is decided (default off)")
    .option("--instructions-file <file>", "annotator instructions in Markdown", existingFile)
    .option("--members-only", "only annotators added to the campaign work on it (default: all annotators)")
    .action(async (opts: Record<string, unknown>) => {
      needToken();
      const input = parseArgs(
        createCampaignSchema,
        {
          name: opts.name,
          judgmentsPerPassage: opts.judgments,
          endorsementThreshold: opts.threshold,
          showAnswers: opts.showAnswers === true ? true : undefined,
          goldMinJudgments: opts.goldMin,
          goldAccuracyThreshold: opts.goldThreshold,
          leaseMinutes: opts.leaseMinutes,
          earlyStop: opts.earlyStop === true ? true : undefined,
          instructions: typeof opts.instructionsFile === "string" ? readFileSync(opts.instructionsFile, "utf8") : undefined,
          allAnnotators: opts.membersOnly === true ? false : undefined,
        },
        campaignOptionNames,
      );
      const { data } = await client().request<{ campaign: { id: number; name: string } }>("POST", "/api/campaigns", input);
      out(String(data.campaign.id));
      note(`Created campaign '${data.campaign.name}' (id ${data.campaign.id}).`);
    });
  campaign
    .command("list")
    .description("list campaigns with their size")
    .action(async () => {
      needToken();
      const { data } = await client().request<{ campaigns: { id: number; name: string; batches: number; queries: number; passages: number }[] }>(
        "GET",
        "/api/campaigns",
      );
      for (const c of data.campaigns) out(`${c.id}\t${c.name}\t${c.batches} batches\t${c.queries} questions\t${c.passages} passages`);
    });
  campaign
    .command("status")
    .description("print a campaign's progress, agreement and annotators (the dashboard's figures)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .action(async (opts: { campaign: string }) => {
      needToken();
      const { data } = await client().request<{ dashboard: Dashboard }>("GET", `/api/campaigns/${encodeURIComponent(opts.campaign)}/dashboard`);
      const d = data.dashboard;
      const coefficient = (v: number | null) => (v === null ? "-" : v.toFixed(3));
      const eta = d.projection.remainingSlots === 0 ? "done" : d.projection.secondsLeft === null ? "no recent activity" : `in ${formatDuration(d.projection.secondsLeft)}`;
      out(`campaign\t${d.campaign.id}\t${d.campaign.name}`);
      out(`slots\t${d.totals.filled} filled\t${d.totals.claimed} claimed\t${d.totals.open} open\tof ${d.totals.slots}`);
      out(`passages\t${d.totals.passages}\t${d.totals.finishedPassages} finished\t${d.totals.endorsedPassages} endorsed`);
      out(`questions\t${d.questions.answered} answered\t${d.questions.unanswerable} unanswerable`);
      out(`agreement\talpha ${coefficient(d.totals.alpha)}\tkappa ${coefficient(d.totals.kappa)}`);
      out(`pace\t${Math.round(d.projection.perHour)} judgments/hour\tfinish ${eta}`);
      for (const b of d.batches) {
        out(`batch\t${b.id}\t${b.name}\t${b.status}\t${b.filled}/${b.slots} filled\t${b.endorsedPassages} endorsed\talpha ${coefficient(b.alpha)}\tkappa ${coefficient(b.kappa)}`);
      }
      for (const a of d.annotators) {
        const pct = (v: number | null) => (v === null ? "-" : `${Math.round(v * 100)}%`);
        out(`annotator\t${a.userId}\t${a.username}\t${a.status}\t${a.judgments} judgments\tagreement ${pct(a.agreement)}\tgold ${a.goldJudged ? a.goldAccuracy.toFixed(2) : "-"}\tmedian ${a.medianSeconds === null ? "-" : a.medianSeconds.toFixed(1)} s\tunder 2 s ${pct(a.shareUnder2s)}`);
      }
    });

  campaign
    .command("questions")
    .description("list a campaign's questions by outcome so far, one per line: id, KILT id, outcome, passages, finished, endorsed, split, question")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--show <which>", `one of ${QUESTION_FILTERS.join(", ")}`, "all")
    .option("--search <text>", "words in the question, or its exact KILT id")
    .action(async (opts: { campaign: string; show: string; search?: string }) => {
      needToken();
      const parsed = parseArgs(questionListQuerySchema, { show: opts.show, q: opts.search, limit: 200 }, { q: "search" });
      let after: number | null | undefined;
      let total = 0;
      do {
        const query = new URLSearchParams({ show: parsed.show, limit: String(parsed.limit), ...(parsed.q ? { q: parsed.q } : {}), ...(after ? { after: String(after) } : {}) });
        const { data } = await client().request<QuestionList>("GET", `/api/campaigns/${encodeURIComponent(opts.campaign)}/questions?${query}`);
        for (const q of data.questions) {
          out(`${q.id}\t${q.kiltId}\t${questionOutcome(q)}\t${q.passages}\t${q.finished}\t${q.endorsed}\t${q.disputed}\t${q.input.replace(/\s+/g, " ")}`);
        }
        total += data.questions.length;
        if (after === undefined) note(`Questions: ${QUESTION_FILTERS.map((f) => `${data.counts[f]} ${f}`).join(", ")}.`);
        after = data.next;
      } while (after);
      note(`Listed ${total} question${total === 1 ? "" : "s"} (${parsed.show}${parsed.q ? `, matching "${parsed.q}"` : ""}).`);
    });

  const batch = program.command("batch").description("batches: import, launch, pause, close (coordinators)");
  batch
    .command("import")
    .description("import questions (and candidates) into a campaign as a draft batch; prints the batch id")
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--queries <file>", "a KILT task JSONL file; its provenance becomes gold passages", existingFile)
    .option("--candidates <file>", "a KILT retrieval-output JSONL file; without it the batch holds the queries' own provenance passages", existingFile)
    .option("--top-k <k>", "candidates taken per question (default 4)", number("--top-k"))
    .option("--name <name>", "the batch's name (default: the queries file's name)")
    .action(async (opts: { campaign: string; queries: string; candidates?: string; topK?: number; name?: string }) => {
      needToken();
      const parts = [
        { name: "queries", file: opts.queries },
        ...(opts.candidates ? [{ name: "candidates", file: opts.candidates }] : []),
        ...(opts.topK !== undefined ? [{ name: "topK", value: String(opts.topK) }] : []),
        ...(opts.name ? [{ name: "name", value: opts.name }] : []),
      ];
      const progress = progressPrinter("Uploading the batch");
      const result = await client().upload<{ batch: { id: number; name: string }; queries: number; passages: number; goldPassages: number; candidatePassages: number; pages: number }>(
        `/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`,
        parts,
        progress,
      );
      progress.done();
      out(String(result.batch.id));
      note(
        `Imported batch '${result.batch.name}' (id ${result.batch.id}, draft): ${result.queries} questions, ${result.passages} passages ` +
          `(${result.goldPassages} gold, ${result.candidatePassages} candidates) over ${result.pages} pages. Launch it with 'kps batch launch ${result.batch.id}'.`,
      );
    });
  batch
    .command("list")
    .description("list a campaign's batches")
    .requiredOption("--campaign <id>", "the campaign's id")
    .action(async (opts: { campaign: string }) => {
      needToken();
      const { data } = await client().request<{ batches: { id: number; name: string; status: string; queries: number; passages: number; goldPassages: number }[] }>(
        "GET",
        `/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`,
      );
      for (const b of data.batches) out(`${b.id}\t${b.status}\t${b.name}\t${b.queries} questions\t${b.passages} passages\t${b.goldPassages} gold`);
    });
  for (const action of ["launch", "pause", "close"] as const) {
    batch
      .command(action)
      .description(`${action} a batch (draft → launched ⇄ paused → closed)`)
      .argument("<id>", "the batch's id")
      .action(async (id: string) => {
        needToken();
        const { data } = await client().request<{ batch: { id: number; status: string } }>("POST", `/api/batches/${encodeURIComponent(id)}/${action}`, {});
        out(data.batch.status);
        note(`Batch ${data.batch.id} is ${data.batch.status}.`);
      });
  }

  const outputOf = (file?: string) => (file && file !== "-" ? createWriteStream(file) : process.stdout);
  program
    .command("export")
    .description("download the campaign's KILT provenance JSONL (streamed), then print the export report")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--batch <id>", "only this batch's questions")
    .option("--location <where>", "span (consensus span offsets) or passage (paragraph range, -1 characters)", "span")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; batch?: string; location: string; output?: string }) => {
      needToken();
      const parsed = parseArgs(exportQuerySchema, { batch: opts.batch, location: opts.location });
      const query = new URLSearchParams({ location: parsed.location, ...(parsed.batch ? { batch: String(parsed.batch) } : {}) });
      const base = `/api/campaigns/${encodeURIComponent(opts.campaign)}`;
      const bytes = await client().download(`${base}/export?${query}`, outputOf(opts.output));
      const { data } = await client().request<{ report: { queries: number; queriesExported: number; passagesEndorsed: number; unanswerable: string[]; withoutEndorsement: number } }>(
        "GET",
        `${base}/export/report?${query}`,
      );
      const r = data.report;
      note(
        `Exported ${r.queriesExported} of ${r.queries} questions (${formatBytes(bytes)}), ${r.passagesEndorsed} endorsed passages; ` +
          `${r.unanswerable.length} unanswerable from the snapshot, ${r.withoutEndorsement} without an endorsed passage.`,
      );
      if (r.unanswerable.length) note(`Unanswerable: ${r.unanswerable.slice(0, 50).join(", ")}${r.unanswerable.length > 50 ? ", …" : ""}`);
    });
  program
    .command("judgments")
    .description("download every judgment of a campaign as JSONL (streamed; annotators by pseudonym)")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--batch <id>", "only this batch's judgments")
    .option("-o, --output <file>", "write to this file instead of standard output")
    .action(async (opts: { campaign: string; batch?: string; output?: string }) => {
      needToken();
      const query = opts.batch ? `?batch=${encodeURIComponent(opts.batch)}` : "";
      const bytes = await client().download(`/api/campaigns/${encodeURIComponent(opts.campaign)}/judgments${query}`, outputOf(opts.output));
      note(`Wrote ${formatBytes(bytes)} of judgments.`);
    });

  program
    .command("health")
    .description("check that the app answers and its database is up")
    .action(async () => {
      const { data } = await client().request<{ status: string; database: string }>("GET", "/api/health");
      out(`${data.status} (${data.database})`);
    });

  for (const cmd of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    cmd.exitOverride();
    cmd.showHelpAfterError();
  }
  return program;
}

const campaignOptionNames: Record<string, string> = {
  judgmentsPerPassage: "judgments",
  endorsementThreshold: "threshold",
  goldMinJudgments: "gold-min",
  goldAccuracyThreshold: "gold-threshold",
  leaseMinutes: "lease-minutes",
  instructions: "instructions-file",
};

/** Upload progress on stderr: a redrawn line on a terminal, a line per 10% otherwise. */
function progressPrinter(label: string) {
  let lastTenth = -1;
  let shown = false;
  const print = (sent: number, total: number) => {
    const pct = total ? Math.min(100, Math.floor((sent / total) * 100)) : 100;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${label}: ${formatBytes(sent)} of ${formatBytes(total)} (${pct}%)   `);
      shown = true;
    } else if (Math.floor(pct / 10) > lastTenth) {
      lastTenth = Math.floor(pct / 10);
      note(`${label}: ${formatBytes(sent)} of ${formatBytes(total)} (${pct}%)`);
    }
  };
  return Object.assign(print, {
    done() {
      if (shown) process.stderr.write("\n");
    },
  });
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
      return error.code === "commander.helpDisplayed" || error.code === "commander.help" || error.code === "commander.version" ? 0 : error.exitCode || 2;
    }
    if (error instanceof ApiError) {
      note(`kps: ${error.message}`);
      const problems = (error.details as { problems?: { file?: string; line?: number; field: string; message: string }[] } | undefined)?.problems;
      for (const p of problems ?? []) {
        note(p.file ? `  ${p.file}:${p.line}: ${p.field}: ${p.message}` : `  ${p.field}: ${p.message}`);
      }
      return error.status === 0 && error.code === "invalid" ? 2 : 1;
    }
    note(`kps: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
