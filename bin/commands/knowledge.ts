import type { Command } from "commander";
import { type CliContext, existingFile, note, out, progressPrinter } from "./shared";

/** `kps knowledge import`. */
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
      const result = await ctx.client().upload<{ pages: number; inserted: number; updated: number; skipped: number; lines: number }>(
        "/api/knowledge",
        parts,
        progress,
      );
      progress.done();
      out(String(result.pages));
      note(`Imported ${result.pages} pages from ${result.lines} lines (${result.inserted} new, ${result.updated} updated${result.skipped ? `, ${result.skipped} not cited and left out` : ""}).`);
    });
}
