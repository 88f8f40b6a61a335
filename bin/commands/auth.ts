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
    .requiredOption("--password <password>", "your password")
    .option("--name <name>", "a name for the token", `kps on ${process.env.HOSTNAME ?? "this machine"}`)
    .action(async (opts: { username: string; password: string; name: string }) => {
      const input = parseArgs(signInSchema, { username: opts.username, password: opts.password });
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
      note("Signed in. Run the line above (or eval \"$(kps login …)\") so later commands use the token.");
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
