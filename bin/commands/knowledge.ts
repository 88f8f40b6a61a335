import type { Command } from "commander";
import type { IndexStatus } from "@/lib/knowledge/knowledge.contract";
import { ApiError } from "../api-client";
import { type CliContext, existingFile, note, out, progressPrinter } from "./shared";

/** `kps knowledge import` and `kps knowledge index`. */
export function addKnowledgeCommands(program: Command, ctx: CliContext): void {
  const knowledge = program.command("knowledge").description("the knowledge source: Wikipedia pages in KILT format");
  knowledge
    .command("import")
    .description("import KILT knowledge-source pages (JSONL, plain or .gz), streamed; pages are upserted by wikipedia_id")
    .argument("<file>", "kilt_knowledgesource.json or a part of it", existingFile)
    .option("--only-for <files...>", "keep only the pages these queries/candidates files cite")
    .action(async (file: string, opts: { onlyFor?: string[] }) => {
      ctx.needToken();
      for (const f of opts.onlyFor ?? []) existingFile(f);
      const parts = [...(opts.onlyFor ?? []).map((f) => ({ name: "references", file: f })), { name: "file", file }];
      const progress = progressPrinter(`Uploading ${file}`);
      const result = await ctx
        .client()
        .upload<{ pages: number; inserted: number; updated: number; unchanged?: number; skipped: number; lines: number; indexed?: number }>(
          "/api/knowledge",
          parts,
          progress,
        );
      progress.done();
      out(String(result.pages));
      const indexed = result.indexed ? `; ${result.indexed} put into the text index` : "";
      note(
        `Imported ${result.pages} pages from ${result.lines} lines (${result.inserted} new, ${result.updated} updated${result.unchanged ? `, ${result.unchanged} unchanged` : ""}${result.skipped ? `, ${result.skipped} not cited and left out` : ""})${indexed}.`,
      );
    });
  knowledge
    .command("index")
    .description("build the text index (incremental: pages never indexed or changed since), showing progress; text search needs it")
    .option("--rebuild", "forget the index and build it again from every page (e.g. after changing KPS_KNOWLEDGE_ENGINE)")
    .option("--poll <ms>", "how often to ask for progress", (v) => Math.max(100, Number(v) || 1000), 1000)
    .action(async (opts: { poll: number; rebuild?: boolean }) => {
      ctx.needToken();
      const status = await waitForIndex(ctx, opts.poll, !!opts.rebuild);
      out(String(status.paragraphs));
      note(
        `The text index is ready (${status.engine}, ${status.method}): ${status.indexedPages} of ${status.pages} pages, ${status.paragraphs} paragraphs${status.stalePages ? ` (${status.stalePages} pages changed meanwhile: run it again)` : ""}.`,
      );
    });
}

/** POSTs the build (a rebuild when asked), then polls the status until it is no longer building; throws when the build failed. */
export async function waitForIndex(ctx: CliContext, pollMs: number, rebuild = false): Promise<IndexStatus> {
  const client = ctx.client();
  let status = (await client.request<IndexStatus>("POST", `/api/knowledge/index${rebuild ? "?rebuild=1" : ""}`)).data;
  let last = "";
  while (status.state === "building") {
    const line = status.progress ? `Indexing pages: ${status.progress.done} of ${status.progress.total}` : "Indexing pages…";
    if (line !== last) {
      if (process.stderr.isTTY) process.stderr.write(`\r${line}   `);
      else note(line);
      last = line;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    status = (await client.request<IndexStatus>("GET", "/api/knowledge/index")).data;
  }
  if (last && process.stderr.isTTY) process.stderr.write("\n");
  if (status.lastError) throw new ApiError(`The text index build failed: ${status.lastError}`, 500, "internal");
  if (status.state !== "ready")
    throw new ApiError("The text index build stopped before it finished; run 'kps knowledge index' again.", 500, "internal");
  return status;
}
