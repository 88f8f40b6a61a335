import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { batches, campaigns, passages, queries, type Batch } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { FatalImportError, fieldPath, parseJsonLine, readLines } from "@/lib/kilt/jsonl";
import { kiltIdSchema, provenanceItemSchema, taskLineSchema, type ProvenanceItem } from "@/lib/kilt/schemas";
import { answersOf, candidatePassagesOf, goldPassagesOf, mergePassages, type PassageDraft } from "./passage-drafts";
import { importFailed, Problems } from "./import-problems";

/** Task and retrieval lines are short; a longer one is a broken file. */
export const MAX_TASK_LINE_BYTES = 4 * 1024 * 1024;
/** At most this many questions in one batch. */
export const MAX_BATCH_QUERIES = 200_000;

export interface ImportFile {
  fileName: string;
  source: AsyncIterable<Uint8Array>;
}

export const batchImportOptionsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  topK: z.coerce.number().int().min(1, "must be at least 1").max(100, "must be at most 100").default(4),
});

export interface BatchImportInput extends z.infer<typeof batchImportOptionsSchema> {
  campaignId: number;
  queries: ImportFile;
  candidates?: ImportFile;
}

export interface BatchImportResult {
  batch: Pick<Batch, "id" | "name" | "status" | "campaignId">;
  queries: number;
  passages: number;
  goldPassages: number;
  candidatePassages: number;
  pages: number;
}

/** Where a passage came from, to point at the right line and field when its page is wrong. */
interface Located<T> {
  value: T;
  file: string;
  line: number;
  field: string;
}

interface ParsedQuery {
  kiltId: string;
  input: string;
  answers: string[];
  originalLine: string;
  lineNumber: number;
  gold: Located<PassageDraft>[];
}

const retrievalLineSchema = z.object({
  id: kiltIdSchema,
  output: z.array(z.object({ provenance: z.array(provenanceItemSchema).optional() }).loose()).min(1, "must hold the ranking's output entry"),
});

async function* jsonLines(file: ImportFile, problems: Problems) {
  for await (const line of readLines(file.source, { file: file.fileName, maxLineBytes: MAX_TASK_LINE_BYTES })) {
    const json = parseJsonLine(line.text);
    if (!json.ok) {
      problems.add(file.fileName, line.lineNumber, json.field, json.message);
      if (problems.full) return;
      continue;
    }
    yield { json: json.value, text: line.text, lineNumber: line.lineNumber };
    if (problems.full) return;
  }
}

/** Reads a KILT task file: questions, answers, the original lines, and gold passages from provenance. */
export async function readTaskFile(file: ImportFile, problems: Problems): Promise<ParsedQuery[]> {
  const out: ParsedQuery[] = [];
  const seen = new Map<string, number>();
  for await (const { json, text, lineNumber } of jsonLines(file, problems)) {
    const parsed = taskLineSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
      continue;
    }
    const line = parsed.data;
    const first = seen.get(line.id);
    if (first !== undefined) {
      problems.add(file.fileName, lineNumber, "id", `'${line.id}' appears again (first on line ${first})`);
      continue;
    }
    seen.set(line.id, lineNumber);
    if (out.length >= MAX_BATCH_QUERIES) {
      problems.add(file.fileName, lineNumber, "(line)", `a batch holds at most ${MAX_BATCH_QUERIES} questions; split the file`);
      break;
    }
    const gold: Located<PassageDraft>[] = [];
    const drafts = goldPassagesOf(line);
    let i = 0;
    line.output.forEach((entry, e) =>
      (entry.provenance ?? []).forEach((_, p) => {
        gold.push({ value: drafts[i++]!, file: file.fileName, line: lineNumber, field: `output[${e}].provenance[${p}]` });
      }),
    );
    out.push({ kiltId: line.id, input: line.input, answers: answersOf(line), originalLine: text, lineNumber, gold });
  }
  return out;
}

/** Reads a KILT retrieval-output file: per query id, the ranking of its first output entry. */
export async function readCandidatesFile(
  file: ImportFile,
  problems: Problems,
): Promise<Map<string, { lineNumber: number; ranking: ProvenanceItem[]; entry: number }>> {
  const out = new Map<string, { lineNumber: number; ranking: ProvenanceItem[]; entry: number }>();
  for await (const { json, lineNumber } of jsonLines(file, problems)) {
    const parsed = retrievalLineSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
      continue;
    }
    const { id, output } = parsed.data;
    const seen = out.get(id);
    if (seen) {
      problems.add(file.fileName, lineNumber, "id", `'${id}' appears again (first on line ${seen.lineNumber})`);
      continue;
    }
    const entry = Math.max(0, output.findIndex((o) => o.provenance !== undefined));
    out.set(id, { lineNumber, ranking: output[entry]?.provenance ?? [], entry });
  }
  return out;
}

/** The wikipedia_ids a task or retrieval file references (for a filtered knowledge import). */
export async function referencedPageIds(files: ImportFile[]): Promise<Set<string>> {
  const problems = new Problems();
  const ids = new Set<string>();
  for (const file of files) {
    for await (const { json, lineNumber } of jsonLines(file, problems)) {
      const parsed = z.object({ output: z.array(z.object({ provenance: z.array(provenanceItemSchema).optional() }).loose()) }).loose().safeParse(json);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
        continue;
      }
      for (const entry of parsed.data.output) for (const item of entry.provenance ?? []) ids.add(item.wikipedia_id);
    }
  }
  if (problems.list.length) throw importFailed(problems.list);
  return ids;
}

/**
 * Imports a batch into a campaign: questions from a KILT task file (their provenance becomes gold
 * passages) and, optionally, top-k candidates from a retrieval-output file. Every line is checked —
 * JSON, fields, duplicate and unknown ids, pages, paragraph ids and code-point offsets — and if any
 * line fails nothing is stored. The batch starts as a draft.
 */
export async function importBatch(db: Db, actor: Actor, input: BatchImportInput): Promise<BatchImportResult> {
  const { userId } = requireCoordinator(actor);
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, input.campaignId));
  if (!campaign) throw new AppError("not_found", `No campaign with id ${input.campaignId}.`);

  const problems = new Problems();
  let parsedQueries: ParsedQuery[];
  let ranking = new Map<string, { lineNumber: number; ranking: ProvenanceItem[]; entry: number }>();
  try {
    parsedQueries = await readTaskFile(input.queries, problems);
    if (input.candidates) ranking = await readCandidatesFile(input.candidates, problems);
  } catch (error) {
    if (error instanceof FatalImportError) throw importFailed([...problems.list, error.problem]);
    throw error;
  }
  if (!problems.list.length && parsedQueries.length === 0) {
    problems.add(input.queries.fileName, 1, "(file)", "holds no questions");
  }

  // Candidates: every id must be a question of this file.
  const byId = new Map(parsedQueries.map((q) => [q.kiltId, q]));
  const drafts = new Map<string, Located<PassageDraft>[]>();
  for (const q of parsedQueries) drafts.set(q.kiltId, [...q.gold]);
  if (input.candidates) {
    for (const [id, r] of ranking) {
      if (!byId.has(id)) {
        problems.add(input.candidates.fileName, r.lineNumber, "id", `'${id}' is not a question of ${input.queries.fileName}`);
        continue;
      }
      candidatePassagesOf(r.ranking, input.topK).forEach((value, rank) =>
        drafts.get(id)!.push({ value, file: input.candidates!.fileName, line: r.lineNumber, field: `output[${r.entry}].provenance[${rank}]` }),
      );
    }
  }

  // Questions already in this campaign.
  const ids = [...byId.keys()];
  for (let i = 0; i < ids.length; i += 1000) {
    const existing = await db
      .select({ kiltId: queries.kiltId, batchId: queries.batchId })
      .from(queries)
      .where(and(eq(queries.campaignId, campaign.id), inArray(queries.kiltId, ids.slice(i, i + 1000))));
    for (const e of existing) {
      problems.add(input.queries.fileName, byId.get(e.kiltId)!.lineNumber, "id", `'${e.kiltId}' is already in this campaign (batch ${e.batchId})`);
    }
  }

  const pageCount = await checkPages(db, [...drafts.values()].flat(), problems);
  if (problems.list.length) throw importFailed(problems.list);

  const result = await db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(batches)
      .values({ campaignId: campaign.id, name: input.name ?? input.queries.fileName, createdBy: userId })
      .returning({ id: batches.id, name: batches.name, status: batches.status, campaignId: batches.campaignId });
    if (!batch) throw new Error("insert returned no row");
    let passageCount = 0;
    let goldCount = 0;
    for (let i = 0; i < parsedQueries.length; i += 500) {
      const chunk = parsedQueries.slice(i, i + 500);
      const inserted = await tx
        .insert(queries)
        .values(
          chunk.map((q) => ({
            campaignId: campaign.id,
            batchId: batch.id,
            kiltId: q.kiltId,
            input: q.input,
            answers: q.answers,
            originalLine: q.originalLine,
            lineNumber: q.lineNumber,
          })),
        )
        .returning({ id: queries.id, kiltId: queries.kiltId });
      const rows = inserted.flatMap((q) =>
        mergePassages(drafts.get(q.kiltId)!.map((d) => d.value)).map((d) => ({
          queryId: q.id,
          campaignId: campaign.id,
          batchId: batch.id,
          wikipediaId: d.wikipediaId,
          startParagraphId: d.startParagraphId,
          endParagraphId: d.endParagraphId,
          origins: d.origins,
          isGold: d.isGold,
          expectedVerdict: d.isGold ? ("sufficient" as const) : null,
          expectedStartParagraphId: d.expectedSpan?.startParagraphId ?? null,
          expectedStartCharacter: d.expectedSpan?.startCharacter ?? null,
          expectedEndParagraphId: d.expectedSpan?.endParagraphId ?? null,
          expectedEndCharacter: d.expectedSpan?.endCharacter ?? null,
          openSlots: campaign.judgmentsPerPassage,
        })),
      );
      for (let j = 0; j < rows.length; j += 1000) await tx.insert(passages).values(rows.slice(j, j + 1000));
      passageCount += rows.length;
      goldCount += rows.filter((r) => r.isGold).length;
    }
    await tx
      .update(batches)
      .set({ queryCount: parsedQueries.length, passageCount, goldPassageCount: goldCount, pageCount })
      .where(eq(batches.id, batch.id));
    return {
      batch,
      queries: parsedQueries.length,
      passages: passageCount,
      goldPassages: goldCount,
      candidatePassages: passageCount - goldCount,
      pages: pageCount,
    };
  });
  // Fresh planner statistics: without them the open-passage lookup of assignment scans and sorts
  // every open passage (bench/annotate: 3× slower on PostgreSQL, 7.5× on PGlite, which has no autovacuum).
  await db.execute(sql`analyze passages, queries`);
  return result;
}

/**
 * Every passage's page must exist, its paragraph range must lie inside the page, and a gold span's
 * character offsets (code points) must lie inside their paragraphs. Returns the count of distinct pages.
 */
async function checkPages(db: Db, located: Located<PassageDraft>[], problems: Problems): Promise<number> {
  const wanted = [...new Set(located.map((l) => l.value.wikipediaId))];
  const paragraphCounts = new Map<string, number>();
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = rowsOf<{ wikipedia_id: string; n: number }>(
      await db.execute(
        sql`select wikipedia_id, cardinality(paragraphs)::int as n from pages where wikipedia_id = any(${sql.param(wanted.slice(i, i + 1000))}::text[])`,
      ),
    );
    for (const r of rows) paragraphCounts.set(r.wikipedia_id, r.n);
  }

  const spanChecks: { l: Located<PassageDraft>; paragraph: number; character: number; which: "start" | "end" }[] = [];
  for (const l of located) {
    const d = l.value;
    const n = paragraphCounts.get(d.wikipediaId);
    if (n === undefined) {
      problems.add(l.file, l.line, `${l.field}.wikipedia_id`, `page '${d.wikipediaId}' is not in the knowledge source; import it first`);
      continue;
    }
    if (d.startParagraphId > d.endParagraphId) {
      problems.add(l.file, l.line, `${l.field}.end_paragraph_id`, `${d.endParagraphId} comes before start_paragraph_id ${d.startParagraphId}`);
      continue;
    }
    if (d.endParagraphId >= n) {
      const field = d.startParagraphId >= n ? "start_paragraph_id" : "end_paragraph_id";
      const value = d.startParagraphId >= n ? d.startParagraphId : d.endParagraphId;
      problems.add(l.file, l.line, `${l.field}.${field}`, `${value} is out of range: page '${d.wikipediaId}' has paragraphs 0–${n - 1}`);
      continue;
    }
    if (d.expectedSpan) {
      spanChecks.push({ l, paragraph: d.expectedSpan.startParagraphId, character: d.expectedSpan.startCharacter, which: "start" });
      spanChecks.push({ l, paragraph: d.expectedSpan.endParagraphId, character: d.expectedSpan.endCharacter, which: "end" });
    }
  }

  // Offsets count code points: PostgreSQL's char_length does too (UTF-8 databases).
  for (let i = 0; i < spanChecks.length; i += 1000) {
    const chunk = spanChecks.slice(i, i + 1000);
    const rows = rowsOf<{ i: number; n: number }>(
      await db.execute(sql`
        select t.i::int as i, char_length(p.paragraphs[t.paragraph + 1])::int as n
        from unnest(${sql.param(chunk.map((_, k) => k))}::int[], ${sql.param(chunk.map((c) => c.l.value.wikipediaId))}::text[], ${sql.param(chunk.map((c) => c.paragraph))}::int[]) as t(i, wikipedia_id, paragraph)
        join pages p on p.wikipedia_id = t.wikipedia_id`),
    );
    for (const r of rows) {
      const c = chunk[r.i]!;
      if (c.character > r.n) {
        problems.add(
          c.l.file,
          c.l.line,
          `${c.l.field}.${c.which}_character`,
          `${c.character} is out of range: paragraph ${c.paragraph} of page '${c.l.value.wikipediaId}' has ${r.n} characters (code points)`,
        );
      }
    }
    const seen = new Set<string>();
    for (const c of chunk) {
      const span = c.l.value.expectedSpan!;
      const key = `${c.l.line}:${c.l.field}`;
      if (c.which === "end" && span.startParagraphId === span.endParagraphId && span.startCharacter > span.endCharacter && !seen.has(key)) {
        seen.add(key);
        problems.add(c.l.file, c.l.line, `${c.l.field}.end_character`, `${span.endCharacter} comes before start_character ${span.startCharacter}`);
      }
    }
  }
  return paragraphCounts.size;
}
