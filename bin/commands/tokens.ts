import type { Command } from "commander";
import { createTokenSchema } from "@/lib/auth/schemas";
import { type CliContext, note, out, parseArgs } from "./shared";

/** `kps token create|list|revoke`. */
export function addTokenCommands(program: Command, ctx: CliContext): void {
  const token = program.command("token").description("manage API tokens (coordinators)");
  token
    .command("create")
    .description("create an API token acting as you; it is printed once")
    .requiredOption("--name <name>", "what the token is for")
    .action(async (opts: { name: string }) => {
      ctx.needToken();
      const { data } = await ctx.client().request<{ token: { token: string } }>("POST", "/api/tokens", parseArgs(createTokenSchema, opts));
      out(data.token.token);
    });
  token
    .command("list")
    .description("list API tokens (never their secrets)")
    .action(async () => {
      ctx.needToken();
      const { data } = await ctx.client().request<{ tokens: { id: number; name: string; prefix: string; owner: string; revokedAt: string | null }[] }>(
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
      ctx.needToken();
      await ctx.client().request("DELETE", `/api/tokens/${encodeURIComponent(id)}`);
      note(`Revoked token ${id}.`);
    });
}
