import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { z } from "zod";
import { createTokenSchema, createUserSchema, signInSchema } from "@/lib/auth/schemas";
import { fieldProblems } from "@/lib/errors";
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
function parseArgs<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const lines = fieldProblems(result.error).map((p) => `  --${p.field}: ${p.message}`);
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
      const problems = (error.details as { problems?: { field: string; message: string }[] } | undefined)?.problems;
      for (const p of problems ?? []) note(`  ${p.field}: ${p.message}`);
      return error.status === 0 && error.code === "invalid" ? 2 : 1;
    }
    note(`kps: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
