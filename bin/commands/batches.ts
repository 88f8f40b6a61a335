import type { Command } from "commander";
import { batchListQuerySchema } from "@/lib/lists/list-options";
import { type CliContext, existingFile, listEvery, note, number, out, parseArgs, progressPrinter } from "./shared";

/** `kps batch import|list|launch|pause|close`. */
export function addBatchCommands(program: Command, ctx: CliContext): void {
  const batch = program.command("batch").description("batches: import, launch, pause, close (coordinators)");
  addImport(batch, ctx);
  batch
    .command("list")
    .description("list every batch of a campaign, newest first")
    .requiredOption("--campaign <id>", "the campaign's id")
    .option("--search <text>", "only names containing this text")
    .action((opts: { campaign: string; search?: string }) =>
      listEvery<{ id: number; name: string; status: string; queries: number; passages: number; goldPassages: number }>(ctx, {
        path: `/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`,
        key: "batches",
        schema: batchListQuerySchema,
        search: opts.search,
        noun: ["batch", "batches"],
        line: (b) => `${b.id}\t${b.status}\t${b.name}\t${b.queries} questions\t${b.passages} passages\t${b.goldPassages} gold`,
      }),
    );
  for (const action of ["launch", "pause", "close"] as const) {
    batch
      .command(action)
      .description(`${action} a batch (draft → launched ⇄ paused → closed)`)
      .argument("<id>", "the batch's id")
      .action(async (id: string) => {
        ctx.needToken();
        const { data } = await ctx.client().request<{ batch: { id: number; status: string } }>("POST", `/api/batches/${encodeURIComponent(id)}/${action}`, {});
        out(data.batch.status);
        note(`Batch ${data.batch.id} is ${data.batch.status}.`);
      });
  }
}

function addImport(batch: Command, ctx: CliContext): void {
  batch
    .command("import")
    .description("import questions (and candidates) into a campaign as a draft batch; prints the batch id")
    .requiredOption("--campaign <id>", "the campaign's id")
    .requiredOption("--queries <file>", "a KILT task JSONL file; its provenance becomes gold passages", existingFile)
    .option("--candidates <file>", "a KILT retrieval-output JSONL file; without it the batch holds the queries' own provenance passages", existingFile)
    .option("--top-k <k>", "candidates taken per question (default 4)", number("--top-k"))
    .option("--name <name>", "the batch's name (default: the queries file's name)")
    .action(async (opts: { campaign: string; queries: string; candidates?: string; topK?: number; name?: string }) => {
      ctx.needToken();
      const parts = [
        { name: "queries", file: opts.queries },
        ...(opts.candidates ? [{ name: "candidates", file: opts.candidates }] : []),
        ...(opts.topK !== undefined ? [{ name: "topK", value: String(opts.topK) }] : []),
        ...(opts.name ? [{ name: "name", value: opts.name }] : []),
      ];
      const progress = progressPrinter("Uploading the batch");
      const result = await ctx.client().upload<{ batch: { id: number; name: string }; queries: number; passages: number; goldPassages: number; candidatePassages: number; pages: number }>(
        `/api/campaigns/${encodeURIComponent(opts.campaign)}/batches`,
        parts,
        progress,
      );
      progress.done();
      out(String(result.batch.id));
      note(
        `Imported batch '${result.batch.name}' (id ${result.batch.id}, draft): ${result.queries} questions, ${result.passages} passages ` +
          `(${result.goldPassages} gold, ${result.candidatePassages} candidates) over ${result.pages} pages. Launch it with 'kps batch launch ${result.batch.id}'.`,
      );
    });
}
