import type { Command } from "commander";
import { createTokenSchema, signInSchema } from "@/lib/auth/schemas";
import { ApiClient, ApiError } from "../api-client";
import { type CliContext, note, out, parseArgs } from "./shared";

/** `kps login` and `kps whoami`. */
export function addAuthCommands(program: Command, ctx: CliContext): void {
  program
    .command("login")
    .description("sign in with a username and password and print an API token to export (coordinators)")
    .requiredOption("--username <username>", "your username")
    .option("--password-stdin", "read the password from standard input (its first line), e.g. from a password manager")
    .option(
      "--password <password>",
      "the password on the command line (other users of this machine can see it: prefer the prompt or --password-stdin)",
    )
    .option("--name <name>", "a name for the token", `kps on ${process.env.HOSTNAME ?? "this machine"}`)
    .addHelpText("after", "\nWithout --password or --password-stdin, kps asks for the password on the terminal without showing it.")
    .action(async (opts: { username: string; password?: string; passwordStdin?: boolean; name: string }) => {
      const password = await passwordOf(opts);
      const input = parseArgs(signInSchema, { username: opts.username, password });
      const api = new ApiClient({ url: ctx.url() });
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
      note('Signed in. Run the line above (or eval "$(kps login …)") so later commands use the token.');
    });

  program
    .command("whoami")
    .description("show who the token belongs to")
    .action(async () => {
      ctx.needToken();
      const { data } = await ctx.client().request<{ user: { username: string; role: string } }>("GET", "/api/me");
      out(`${data.user.username} (${data.user.role})`);
    });
}

/** The password: from --password, from standard input (--password-stdin), or asked on the terminal without echo. */
async function passwordOf(opts: { username: string; password?: string; passwordStdin?: boolean }): Promise<string> {
  if (opts.password !== undefined && opts.passwordStdin) {
    throw new ApiError("Invalid arguments:\n  --password-stdin: give either --password or --password-stdin, not both", 0, "invalid");
  }
  if (opts.password !== undefined) return opts.password;
  if (opts.passwordStdin) {
    let text = "";
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? "";
  }
  if (!process.stdin.isTTY) {
    throw new ApiError("No password: pipe it in with --password-stdin, or run kps login in a terminal to be asked for it.", 0, "invalid");
  }
  return promptHidden(`Password for ${opts.username}: `);
}

/** Reads a line from the terminal in raw mode, echoing nothing; Ctrl-C cancels. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (result: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      result();
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish(() => resolve(value));
        if (ch === "\u0003") return finish(() => reject(new ApiError("Cancelled.", 0, "cancelled")));
        if (ch === "\u007f" || ch === "\b") value = Array.from(value).slice(0, -1).join("");
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
