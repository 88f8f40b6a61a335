import { type Command, InvalidArgumentError } from "commander";
import { formatTime } from "@/lib/format";
import { createUserSchema, resetLinkSchema, setPasswordSchema } from "@/lib/auth/schemas";
import { userListQuerySchema } from "@/lib/list-options.contract";
import { type CliContext, listEvery, note, number, out, parseArgs } from "./shared";

/** `kps user create|list|disable|enable|set-password|reset-link`. */
export function addUserCommands(program: Command, ctx: CliContext): void {
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
      ctx.needToken();
      const input = parseArgs(createUserSchema, opts);
      const { data } = await ctx
        .client()
        .request<{ user: { id: number; username: string; role: string }; invite?: { url: string; expiresAt: string } }>(
          "POST",
          "/api/users",
          input,
        );
      if (data.invite) {
        out(data.invite.url);
        note(
          `Created ${data.user.role} '${data.user.username}' (id ${data.user.id}). Send them the invite link above; it works once and expires ${formatTime(data.invite.expiresAt)}.`,
        );
      } else {
        out(String(data.user.id));
        note(`Created ${data.user.role} '${data.user.username}' (id ${data.user.id}).`);
      }
    });
  user
    .command("list")
    .description("list every account, newest first (id, username, role, state)")
    .option("--search <text>", "only usernames containing this text")
    .action((opts: { search?: string }) =>
      listEvery<{ id: number; username: string; role: string; hasPassword: boolean; disabledAt: string | null }>(ctx, {
        path: "/api/users",
        key: "users",
        schema: userListQuerySchema,
        search: opts.search,
        noun: ["account", "accounts"],
        line: (u) =>
          `${u.id}\t${u.username}\t${u.role}${u.hasPassword ? "" : "\t(invited, no password yet)"}${u.disabledAt ? `\tdisabled ${u.disabledAt}` : ""}`,
      }),
    );
  addLifecycleCommands(user, ctx);
}

/** Disable, enable, set a password, issue a reset link: one account by id (see 'kps user list'). */
function addLifecycleCommands(user: Command, ctx: CliContext): void {
  for (const [name, description] of [
    ["disable", "disable an account: its sessions and API tokens end at once; its judgments stay"],
    ["enable", "re-enable a disabled account"],
  ] as const) {
    user
      .command(name)
      .description(description)
      .argument("<id>", "the user's id (see 'kps user list')")
      .action(async (id: string) => {
        ctx.needToken();
        const { data } = await ctx.client().request<{ user: { username: string } }>("POST", `/api/users/${encodeURIComponent(id)}/${name}`);
        note(`${name === "disable" ? "Disabled" : "Enabled"} ${data.user.username}.`);
      });
  }
  user
    .command("set-password")
    .description("set another user's password; their sessions end")
    .argument("<id>", "the user's id (see 'kps user list')")
    .requiredOption("--password <password>", "the new password (at least 8 characters)")
    .action(async (id: string, opts: { password: string }) => {
      ctx.needToken();
      const input = parseArgs(setPasswordSchema, opts);
      const { data } = await ctx.client().request<{ sessionsEnded: number }>("PUT", `/api/users/${encodeURIComponent(id)}/password`, input);
      note(`Password set; ${data.sessionsEnded} session(s) ended.`);
    });
  user
    .command("reset-link")
    .description("print a single-use, expiring link that sets the user's password")
    .argument("<id>", "the user's id (see 'kps user list')")
    .option("--expires-in-hours <hours>", "hours until the link expires (1 to 168)", number("--expires-in-hours"), 24)
    .action(async (id: string, opts: { expiresInHours: number }) => {
      ctx.needToken();
      const input = parseArgs(resetLinkSchema, opts, { expiresInHours: "expires-in-hours" });
      const { data } = await ctx
        .client()
        .request<{ resetLink: { url: string; username: string; expiresAt: string } }>(
          "POST",
          `/api/users/${encodeURIComponent(id)}/reset-link`,
          input,
        );
      out(data.resetLink.url);
      note(`Send it to ${data.resetLink.username}: it works once and expires ${formatTime(data.resetLink.expiresAt)}.`);
    });
}
