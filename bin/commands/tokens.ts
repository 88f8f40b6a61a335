import type { Command } from "commander";
import { formatTime } from "@/lib/format";
import { createTokenSchema, TOKEN_DEFAULT_DAYS } from "@/lib/auth/schemas";
import { tokenListQuerySchema } from "@/lib/list-options.contract";
import { type CliContext, listEvery, note, number, out, parseArgs } from "./shared";

interface TokenLine {
  id: number;
  name: string;
  prefix: string;
  owner: string;
  revokedAt: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** `--expires-in-days`: a number of days, or "never". */
const lifetime = (v: string): number | null => (v.trim().toLowerCase() === "never" ? null : number("--expires-in-days")(v));

/** `kps token create|list|revoke`. */
export function addTokenCommands(program: Command, ctx: CliContext): void {
  const token = program.command("token").description("manage API tokens (coordinators)");
  token
    .command("create")
    .description("create an API token acting as you; it is printed once")
    .requiredOption("--name <name>", "what the token is for")
    .option("--expires-in-days <days>", `days until it expires, or 'never' (default ${TOKEN_DEFAULT_DAYS})`, lifetime)
    .action(async (opts: { name: string; expiresInDays?: number | null }) => {
      ctx.needToken();
      const input = parseArgs(createTokenSchema, opts, { expiresInDays: "expires-in-days" });
      const { data } = await ctx.client().request<{ token: { token: string; expiresAt: string | null } }>("POST", "/api/tokens", input);
      out(data.token.token);
      note(data.token.expiresAt ? `It expires ${formatTime(data.token.expiresAt)}.` : "It never expires.");
    });
  token
    .command("list")
    .description("list every API token, newest first (never their secrets)")
    .option("--search <text>", "only tokens whose name, prefix or owner contains this text")
    .action((opts: { search?: string }) =>
      listEvery<TokenLine>(ctx, {
        path: "/api/tokens",
        key: "tokens",
        schema: tokenListQuerySchema,
        search: opts.search,
        noun: ["token", "tokens"],
        header: ["id", "prefix", "name", "owner", "expires", "last used", "state"].join("\t"),
        line: (t) => {
          const state = t.revokedAt ? "revoked" : t.expiresAt && new Date(t.expiresAt) <= new Date() ? "expired" : "active";
          return [t.id, `${t.prefix}…`, t.name, t.owner, t.expiresAt ?? "never", t.lastUsedAt ?? "never", state].join("\t");
        },
      }),
    );
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
