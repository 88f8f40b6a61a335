import type { Command } from "commander";
import { auditQuerySchema } from "@/lib/audit/schemas";
import { type CliContext, out, parseArgs } from "./shared";

/** `kps audit`: the whole audit log as JSON lines, oldest first, a page at a time (never held whole). */
export function addAuditCommand(program: Command, ctx: CliContext): void {
  program
    .command("audit")
    .description("print the audit log as JSON lines (one entry per line, oldest first; coordinators)")
    .option("--since <date>", "only entries at or after this date or instant, e.g. 2026-12-01 or 2026-12-01T05:00:00Z")
    .action(async (opts: { since?: string }) => {
      ctx.needToken();
      const base = parseArgs(auditQuerySchema, { order: "asc", limit: 500, since: opts.since });
      let cursor: number | null | undefined;
      do {
        const params = new URLSearchParams({ order: "asc", limit: String(base.limit) });
        if (opts.since) params.set("since", base.since!.toISOString());
        if (cursor) params.set("cursor", String(cursor));
        const { data } = await ctx.client().request<{ entries: unknown[]; nextCursor: number | null }>("GET", `/api/audit?${params}`);
        for (const entry of data.entries) out(JSON.stringify(entry));
        cursor = data.nextCursor;
      } while (cursor);
    });
}
