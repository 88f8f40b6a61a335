import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { copyValue, openCopyStream, quoteIdent, textArrayLiteral, type CopyStream } from "@/db/bulk";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { FatalImportError, fieldPath, parseJsonLine, readLines, type ImportProblem } from "@/lib/kilt/jsonl";
import { knowledgeRecordSchema } from "@/lib/kilt/schemas";
import { importFailed, MAX_PROBLEMS } from "./import-problems";

/** A knowledge-source line may be long (a whole Wikipedia page), but not unbounded. */
export const MAX_KNOWLEDGE_LINE_BYTES = 16 * 1024 * 1024;

const STAGING_PREFIX = "kps_stage_pages_";

/**
 * Drops staging tables that an import left behind when its process died (older than a day, so an
 * import still running in another app instance keeps its own). Returns how many were dropped.
 */
export async function dropStaleStagingTables(db: Db, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  const tables = rowsOf<{ tablename: string }>(
    await db.execute(sql`select tablename from pg_tables where schemaname = 'public' and tablename like ${`${STAGING_PREFIX}%`}`),
  );
  let dropped = 0;
  for (const { tablename } of tables) {
    const started = Number(tablename.slice(STAGING_PREFIX.length).split("_")[0]);
    if (Number.isFinite(started) && Date.now() - started > olderThanMs) {
      await db.execute(sql.raw(`drop table if exists ${quoteIdent(tablename)}`));
      dropped++;
    }
  }
  return dropped;
}

async function supportsLz4(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ lz4: boolean }>(
    await db.execute(sql`select coalesce(bool_or('lz4' = any(enumvals)), false) as lz4 from pg_settings where name = 'default_toast_compression'`),
  );
  return !!row?.lz4;
}

export interface KnowledgeImportInput {
  fileName: string;
  source: AsyncIterable<Uint8Array>;
  /** Keep only these pages (the ones a batch's queries and candidates reference). */
  onlyPageIds?: ReadonlySet<string>;
  onProgress?: (progress: { bytes: number; lines: number; pages: number }) => void;
}

export interface KnowledgeImportResult {
  file: string;
  lines: number;
  /** Pages stored: inserted + updated. */
  pages: number;
  inserted: number;
  updated: number;
  /** Lines left out by `onlyPageIds`. */
  skipped: number;
  bytes: number;
}

/**
 * Imports KILT knowledge-source pages (plain or gzip JSONL), streamed with flat memory: lines are
 * validated and COPY'd into a staging table; only when every line is valid are the pages upserted by
 * `wikipedia_id`, in one statement. A file with any bad line stores nothing.
 */
export async function importKnowledge(db: Db, actor: Actor, input: KnowledgeImportInput): Promise<KnowledgeImportResult> {
  requireCoordinator(actor);
  const staging = `${STAGING_PREFIX}${Date.now()}_${randomBytes(4).toString("hex")}`;
  // lz4 compresses about twice as fast as the default pglz, and the upsert keeps the values as they
  // are (bench/import: the import takes half the time on PostgreSQL).
  const compression = (await supportsLz4(db)) ? " compression lz4" : "";
  await db.execute(
    sql.raw(
      `create unlogged table ${quoteIdent(staging)} (line_number integer not null, wikipedia_id text not null, title text not null, paragraphs text[]${compression} not null)`,
    ),
  );
  let copy: CopyStream | undefined;
  try {
    copy = await openCopyStream(db, staging, ["line_number", "wikipedia_id", "title", "paragraphs"]);
    const problems: ImportProblem[] = [];
    const file = input.fileName;
    let lines = 0;
    let staged = 0;
    let skipped = 0;
    let bytes = 0;
    const problem = (line: number, field: string, message: string) => problems.push({ file, line, field, message });

    for await (const line of readLines(input.source, { file, maxLineBytes: MAX_KNOWLEDGE_LINE_BYTES, onBytes: (b) => (bytes = b) })) {
      lines++;
      if (lines % 5000 === 0) input.onProgress?.({ bytes, lines, pages: staged });
      const json = parseJsonLine(line.text);
      if (!json.ok) {
        problem(line.lineNumber, json.field, json.message);
        if (problems.length >= MAX_PROBLEMS) break;
        continue;
      }
      const parsed = knowledgeRecordSchema.safeParse(json.value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) problem(line.lineNumber, fieldPath(issue.path), issue.message);
        if (problems.length >= MAX_PROBLEMS) break;
        continue;
      }
      const record = parsed.data;
      if (input.onlyPageIds && !input.onlyPageIds.has(record.wikipedia_id)) {
        skipped++;
        continue;
      }
      if (problems.length) continue; // keep validating, stop staging
      await copy.writeRow([
        String(line.lineNumber),
        copyValue(record.wikipedia_id),
        copyValue(record.wikipedia_title),
        copyValue(textArrayLiteral(record.text)),
      ]);
      staged++;
    }
    if (problems.length) {
      await copy.abort();
      copy = undefined;
      throw importFailed(problems);
    }
    await copy.end();
    copy = undefined;
    input.onProgress?.({ bytes, lines, pages: staged });

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

    const [counts] = rowsOf<{ inserted: number; updated: number }>(
      await db.execute(
        sql.raw(`with up as (
          insert into pages (wikipedia_id, title, paragraphs)
          select wikipedia_id, title, paragraphs from ${quoteIdent(staging)}
          on conflict (wikipedia_id) do update set title = excluded.title, paragraphs = excluded.paragraphs, updated_at = now()
          returning (xmax = 0) as inserted)
        select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated from up`),
      ),
    );
    const inserted = counts?.inserted ?? 0;
    const updated = counts?.updated ?? 0;
    return { file, lines, pages: inserted + updated, inserted, updated, skipped, bytes };
  } catch (error) {
    if (copy) await copy.abort();
    if (error instanceof FatalImportError) throw importFailed([error.problem]);
    throw error;
  } finally {
    await db.execute(sql.raw(`drop table if exists ${quoteIdent(staging)}`));
  }
}
