import { type Command, InvalidArgumentError } from "commander";
import { createUserSchema } from "@/lib/auth/schemas";
import { type CliContext, note, out, parseArgs } from "./shared";

/** `kps user create|list`. */
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
      const { data } = await ctx.client().request<{ user: { id: number; username: string; role: string }; invite?: { url: string; expiresAt: string } }>(
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
      ctx.needToken();
      const { data } = await ctx.client().request<{ users: { id: number; username: string; role: string; hasPassword: boolean }[] }>("GET", "/api/users");
      for (const u of data.users) out(`${u.id}\t${u.username}\t${u.role}${u.hasPassword ? "" : "\t(invited, no password yet)"}`);
    });
}
