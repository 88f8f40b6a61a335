import type { Command } from "commander";
import { type CliContext, out } from "./shared";

/** `kps health` (no token needed). */
export function addHealthCommand(program: Command, ctx: CliContext): void {
  program
    .command("health")
    .description("check that the app answers and its database is up")
    .action(async () => {
      const { data } = await ctx.client().request<{ status: string; database: string }>("GET", "/api/health");
      out(`${data.status} (${data.database})`);
    });
}
