import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { copyRows, copyTextArray, copyValue, dropStaleTables, quoteIdent, withStagingTable, type StagingColumn } from "@/db/bulk";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { invalidField } from "@/lib/errors";
import { indexAfterImport } from "@/lib/knowledge/index-build";
import type { KnowledgeImportResult } from "@/lib/knowledge/knowledge.contract";
import { FatalImportError, fieldPath, parseJsonLine, readLines, type JsonlLine } from "@/lib/kilt/jsonl";
import { knowledgeRecordSchema, type KnowledgeRecord } from "@/lib/kilt/schemas";
import { importFailed, MAX_PROBLEMS, Problems } from "@/lib/campaign/import/import-problems";
import { foldedTitle } from "@/lib/campaign/import/evidence-pages";
import { addReferencedPages, type ImportFile, type ReferencedPages } from "@/lib/campaign/import/read-batch-files";

/** A knowledge-source line may be long (a whole Wikipedia page), but not unbounded. */
export const MAX_KNOWLEDGE_LINE_BYTES = 16 * 1024 * 1024;

const STAGING_PREFIX = "kps_stage_pages_";
const STAGING_COLUMNS: StagingColumn[] = [
  { name: "line_number", type: "integer" },
  { name: "wikipedia_id", type: "text" },
  { name: "title", type: "text" },
  // lz4 compresses about twice as fast as the default pglz, and the upsert keeps the values as they
  // are (bench/import: the import takes half the time on PostgreSQL).
  { name: "paragraphs", type: "text[]", compress: true },
];

/**
 * Drops staging tables that an import left behind when its process died (older than a day, so an
 * import still running in another app instance keeps its own). Returns how many were dropped.
 */
export function dropStaleStagingTables(db: Db, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  return dropStaleTables(db, STAGING_PREFIX, olderThanMs);
}

type OnProgress = (progress: { bytes: number; lines: number; pages: number }) => void;

export interface KnowledgeFileInput extends ImportFile {
  /** Keep only these pages (the ones a batch's queries and candidates reference). */
  onlyPageIds?: ReadonlySet<string>;
  /** With `onlyPageIds`, keep also the pages of these titles (folded: `foldedTitle`), which items of evidence given as text name. */
  onlyPageTitles?: ReadonlySet<string>;
  onProgress?: OnProgress;
}

/**
 * An upload's parts (app/_server/uploads.ts): optional `references` files — task or retrieval files
 * whose cited pages are the only ones kept — then the knowledge `file`. Each is read to its end before
 * the next is pulled; importKnowledge pulls the first only once it has authorized the caller.
 */
export type KnowledgePart = { kind: "references" | "file"; file: ImportFile };

/** One file at hand (tests, the demo, the benchmark), or the parts of an upload. */
export type KnowledgeImportInput = KnowledgeFileInput | { parts: AsyncIterable<KnowledgePart>; onProgress?: OnProgress };

/** A knowledge import indexes at most this many new or changed pages itself; the rest wait for `kps knowledge index`. */
export const INDEX_AFTER_IMPORT_PAGES = 5000;

/**
 * Imports KILT knowledge-source pages (plain or gzip JSONL), streamed with flat memory: lines are
 * validated and COPY'd into a staging table; only when every line is valid are the pages upserted by
 * `wikipedia_id`, in one statement. A file with any bad line stores nothing.
 */
export async function importKnowledge(db: Db, actor: Actor, input: KnowledgeImportInput): Promise<KnowledgeImportResult> {
  requireCoordinator(actor);
  const result = "parts" in input ? await importParts(db, input) : await importKnowledgeFile(db, input);
  // Right after the upsert (one statement of its own): a changed page changes every export citing
  // it, closed batches' included, so who changed how many pages from which file is on record.
  const { file, lines, inserted, updated, unchanged, skipped, indexed } = result;
  await recordAudit(db, actor, {
    action: "knowledge.import",
    targetType: "knowledge",
    targetId: file,
    details: { file, lines, inserted, updated, unchanged, skipped, indexed },
  });
  return result;
}

async function importParts(db: Db, input: Extract<KnowledgeImportInput, { parts: unknown }>): Promise<KnowledgeImportResult> {
  // Only now, with the caller allowed, is the upload read.
  const problems = new Problems();
  let only: ReferencedPages | undefined;
  let result: KnowledgeImportResult | undefined;
  for await (const part of input.parts) {
    if (part.kind === "references") {
      await addReferencedPages(part.file, (only ??= { ids: new Set(), titles: new Set() }), problems);
      continue;
    }
    if (problems.list.length) throw importFailed(problems.list);
    result = await importKnowledgeFile(db, {
      ...part.file,
      onlyPageIds: only?.ids,
      onlyPageTitles: only?.titles,
      onProgress: input.onProgress,
    });
  }
  if (!result) throw invalidField("file", "a knowledge-source file is required");
  return result;
}

async function importKnowledgeFile(db: Db, input: KnowledgeFileInput): Promise<KnowledgeImportResult> {
  return withStagingTable(db, STAGING_PREFIX, STAGING_COLUMNS, async (staging) => {
    try {
      const { lines, staged, skipped, bytes, paragraphs, textBytes } = await stageLines(db, staging, input);
      await refuseDuplicatePages(db, staging, input.fileName);
      const { inserted, updated } = await upsertPages(db, staging);
      const indexed = inserted + updated ? await indexAfterImport(db, INDEX_AFTER_IMPORT_PAGES) : 0;
      return {
        file: input.fileName,
        lines,
        pages: staged,
        inserted,
        updated,
        unchanged: staged - inserted - updated,
        skipped,
        bytes,
        paragraphs,
        textBytes,
        indexed,
      };
    } catch (error) {
      if (error instanceof FatalImportError) throw importFailed([error.problem]);
      throw error;
    }
  });
}

/** Reads, checks and COPYs every line into the staging table; any bad line fails the whole file. */
async function stageLines(db: Db, staging: string, input: KnowledgeFileInput) {
  const counts = await copyRows(db, staging, STAGING_COLUMNS, async (writeRow) => {
    const problems = new Problems();
    const file = input.fileName;
    let lines = 0;
    let staged = 0;
    let skipped = 0;
    let bytes = 0;
    const text = { paragraphs: 0, textBytes: 0 };
    for await (const line of readLines(input.source, { file, maxLineBytes: MAX_KNOWLEDGE_LINE_BYTES, onBytes: (b) => (bytes = b) })) {
      lines++;
      if (lines % 5000 === 0) input.onProgress?.({ bytes, lines, pages: staged });
      const record = parseRecord(file, line, problems);
      if (problems.full) break;
      if (!record) continue;
      if (
        input.onlyPageIds &&
        !input.onlyPageIds.has(record.wikipedia_id) &&
        !input.onlyPageTitles?.has(foldedTitle(record.wikipedia_title))
      ) {
        skipped++;
        continue;
      }
      if (problems.list.length) continue; // keep validating, stop staging
      await writeRow([
        String(line.lineNumber),
        copyValue(record.wikipedia_id),
        copyValue(record.wikipedia_title),
        copyTextArray(record.text),
      ]);
      staged++;
      countText(record.text, text);
    }
    if (problems.list.length) throw importFailed(problems.list);
    return { lines, staged, skipped, bytes, ...text };
  });
  input.onProgress?.({ bytes: counts.bytes, lines: counts.lines, pages: counts.staged });
  return counts;
}

/**
 * Adds a page's content paragraphs (what a text index holds: neither paragraph 0, the title line, nor
 * a `Section::::` header, nor a blank one) and the UTF-8 bytes of all its paragraphs to `into`: the
 * figures that size a text index for this source (bench/search extrapolates from them).
 */
function countText(text: readonly string[], into: { paragraphs: number; textBytes: number }): void {
  for (let i = 0; i < text.length; i++) {
    const t = text[i]!;
    into.textBytes += Buffer.byteLength(t);
    if (i > 0 && !t.startsWith("Section::::") && !/^[ \n\t]*$/.test(t)) into.paragraphs++;
  }
}

function parseRecord(file: string, line: JsonlLine, problems: Problems): KnowledgeRecord | undefined {
  const json = parseJsonLine(line.text);
  if (!json.ok) {
    problems.add(file, line.lineNumber, json.field, json.message);
    return undefined;
  }
  const parsed = knowledgeRecordSchema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) problems.add(file, line.lineNumber, fieldPath(issue.path), issue.message);
  return undefined;
}

/** A page twice in one file is refused, naming both lines. */
async function refuseDuplicatePages(db: Db, staging: string, file: string): Promise<void> {
  const duplicates = rowsOf<{ wikipedia_id: string; lines: number[] }>(
    await db.execute(
      sql.raw(
        `select wikipedia_id, array_agg(line_number order by line_number) as lines from ${quoteIdent(staging)} group by wikipedia_id having count(*) > 1 order by min(line_number) limit ${MAX_PROBLEMS}`,
      ),
    ),
  );
  if (duplicates.length) {
    throw importFailed(
      duplicates.map((d) => ({
        file,
        line: d.lines[1]!,
        field: "wikipedia_id",
        message: `'${d.wikipedia_id}' appears again (first on line ${d.lines[0]})`,
      })),
    );
  }
}

/**
 * Moves the staged pages into `pages` in one statement, updating those already there that differ;
 * a page the same as stored keeps its row (and its `updated_at`, so the text index leaves it be).
 */
async function upsertPages(db: Db, staging: string): Promise<{ inserted: number; updated: number }> {
  const [counts] = rowsOf<{ inserted: number; updated: number }>(
    await db.execute(
      sql.raw(`with up as (
        insert into pages (wikipedia_id, title, paragraphs)
        select wikipedia_id, title, paragraphs from ${quoteIdent(staging)}
        on conflict (wikipedia_id) do update set title = excluded.title, paragraphs = excluded.paragraphs, updated_at = now()
          where pages.title is distinct from excluded.title or pages.paragraphs is distinct from excluded.paragraphs
        returning (xmax = 0) as inserted)
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated from up`),
    ),
  );
  return { inserted: counts?.inserted ?? 0, updated: counts?.updated ?? 0 };
}
