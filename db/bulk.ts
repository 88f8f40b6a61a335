import { randomBytes } from "node:crypto";
import type { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import { rawClientOf, rowsOf, type Db } from "./client";

/** Escapes one value for PostgreSQL's COPY text format (`\N` is NULL). */
export function copyValue(value: string | number | boolean | null): string {
  if (value === null) return "\\N";
  const s = String(value);
  return /[\\\n\r\t]/.test(s)
    ? s.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"))
    : s;
}

/** A PostgreSQL array literal of text values: `{"a","b \"c\""}`. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}

const ARRAY_IN_COPY = /[\\"\n\r\t]/g;
const arrayInCopyEscape = (c: string) => (c === "\\" ? "\\\\\\\\" : c === '"' ? '\\\\"' : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t");

/**
 * `copyValue(textArrayLiteral(values))` in one pass over each value: the array literal's escapes
 * (`\` and `"`) and then COPY's (`\`, newline, carriage return, tab) applied together.
 */
export function copyTextArray(values: readonly string[]): string {
  if (!values.length) return "{}";
  let out = '{"';
  for (let i = 0; i < values.length; i++) out += (i ? '","' : "") + values[i]!.replace(ARRAY_IN_COPY, arrayInCopyEscape);
  return out + '"}';
}

export interface CopyStream {
  /** Writes one row (already COPY-escaped values); resolves when the stream can take more. */
  writeRow(values: string[]): Promise<void>;
  /** Finishes the COPY; resolves when every row is stored. */
  end(): Promise<void>;
  /** Abandons the COPY (the rows written may or may not be stored: use a staging table). */
  abort(): Promise<void>;
}

const PGLITE_CHUNK_BYTES = 1024 * 1024;
const encoder = new TextEncoder();
const TAB = 0x09;
const NEWLINE = 0x0a;

/**
 * COPY … FROM STDIN into `table`, about ten times faster than batched inserts.
 * PostgreSQL: one streaming COPY with backpressure. PGlite: one COPY per 1 MiB chunk.
 * Not inside a drizzle transaction: copy into a staging table, then move the rows in one statement.
 */
export async function openCopyStream(
  db: Db,
  table: string,
  columns: readonly string[],
  options: { finishTimeoutMs?: number } = {},
): Promise<CopyStream> {
  const raw = rawClientOf(db);
  const target = `${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")})`;

  if (raw.kind === "postgres") {
    // A connection of its own: postgres.js pipelines queries onto busy pool connections under load,
    // and a query sent into a COPY in progress breaks the protocol (the server ends the connection).
    const reserved = await raw.client.reserve();
    const query = reserved.unsafe(`copy ${target} from stdin`);
    const stream: Writable = await query.writable().catch((e: unknown) => {
      reserved.release();
      throw e;
    });
    // The stream finishes when the server has taken every row. A refusal by the server rejects the
    // query without always reaching the stream: it is watched too, and closes the stream.
    let failure: Error | undefined;
    query.catch((e: Error) => {
      failure ??= e;
      stream.destroy();
    });
    stream.on("error", (e) => (failure ??= e));
    const done = new Promise<void>((resolve) => {
      stream.once("finish", resolve);
      stream.once("close", resolve);
    });
    // Back to the pool once the stream has finished or closed (the query itself resolves as the COPY starts).
    void done.then(() => reserved.release());
    return {
      async writeRow(values) {
        if (failure || stream.destroyed) throw failure ?? new Error("The COPY stream closed early.");
        if (!stream.write(values.join("\t") + "\n") && !stream.destroyed) {
          await new Promise<void>((resolve) => {
            const settle = () => {
              stream.off("drain", settle);
              stream.off("close", settle);
              resolve();
            };
            stream.once("drain", settle);
            stream.once("close", settle);
          });
          if (failure || stream.destroyed) throw failure ?? new Error("The COPY stream closed early.");
        }
      },
      async end() {
        stream.end();
        // postgres.js loses a server error that arrives after end(): the stream then never
        // finishes. Rows are validated before they are written, so this is a last guard, not a path.
        const timeoutMs = options.finishTimeoutMs ?? 120_000;
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          done.then(() => true),
          new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
        ]);
        clearTimeout(timer);
        if (!finished) {
          stream.destroy();
          throw failure ?? new Error(`The server did not complete the COPY into ${table} within ${timeoutMs / 1000} s.`);
        }
        if (failure) throw failure;
      },
      async abort() {
        // Finish the COPY rather than cut it: the rows land in a staging table that is dropped.
        if (!stream.destroyed) stream.end();
        await done;
      },
    };
  }

  return pgliteCopyStream(raw.client, target);
}

/**
 * The bytes of one COPY chunk as the Blob PGlite reads `/dev/blob` from. PGlite 0.5 reads a blob
 * only through `arrayBuffer()`; this one hands over the chunk's own buffer instead of a copy. A
 * `new Blob([bytes])` would copy each chunk into native memory that V8 does not count, so the
 * garbage collector let hundreds of them pile up (bench/import: +230 MB of RSS for 20,000 pages).
 */
class ChunkBlob extends Blob {
  constructor(private readonly chunk: ArrayBuffer) {
    super([]);
  }
  override get size(): number {
    return this.chunk.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.chunk);
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.resolve(new Uint8Array(this.chunk));
  }
}

/** ES2024's resizable ArrayBuffer (Node 20 has it; the project's TypeScript lib is ES2023). */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

/**
 * PGlite takes COPY input only as a whole Blob (`/dev/blob`), so rows are encoded into one reused,
 * resizable buffer and each 1 MiB is sent as its own COPY: the rows never exist as strings and bytes
 * at once, and no chunk is copied again on its way in.
 */
function pgliteCopyStream(client: PGlite, target: string): CopyStream {
  const statement = `copy ${target} from '/dev/blob'`;
  const memory = new ResizableArrayBuffer(PGLITE_CHUNK_BYTES, { maxByteLength: PGLITE_CHUNK_BYTES });
  const buffer = new Uint8Array(memory); // tracks the buffer's length
  let used = 0;
  const flush = async () => {
    if (!used) return;
    memory.resize(used);
    used = 0;
    try {
      await client.query(statement, [], { blob: new ChunkBlob(memory) });
    } finally {
      memory.resize(PGLITE_CHUNK_BYTES);
    }
  };
  return {
    async writeRow(values) {
      // At most 3 UTF-8 bytes per UTF-16 code unit, plus the tabs and the newline.
      let worst = values.length;
      for (const v of values) worst += 3 * v.length;
      if (used + worst > PGLITE_CHUNK_BYTES) {
        await flush();
        if (worst > PGLITE_CHUNK_BYTES) {
          const row = encoder.encode(values.join("\t") + "\n");
          await client.query(statement, [], { blob: new ChunkBlob(row.buffer) });
          return;
        }
      }
      for (let i = 0; i < values.length; i++) {
        if (i) buffer[used++] = TAB;
        used += encoder.encodeInto(values[i]!, buffer.subarray(used)).written;
      }
      buffer[used++] = NEWLINE;
    },
    end: flush,
    async abort() {
      used = 0;
    },
  };
}

export interface StagingColumn {
  name: string;
  /** The SQL type, e.g. `text[]`; every column is `not null`. */
  type: string;
  /** Large values: compressed with lz4 when the server has it (about twice as fast as pglz). */
  compress?: boolean;
}

/**
 * A new staging table's name: `prefix`, the start time in ms (read by `dropStaleTables`) and a random
 * tail, so concurrent imports never share one.
 */
export function stagingTableName(prefix: string): string {
  return `${prefix}${Date.now()}_${randomBytes(4).toString("hex")}`;
}

/** Creates an unlogged table to COPY rows into (no WAL: it is dropped once its rows are moved). */
export async function createStagingTable(db: Db, table: string, columns: readonly StagingColumn[]): Promise<void> {
  const compression = columns.some((c) => c.compress) && (await supportsLz4(db)) ? " compression lz4" : "";
  const definitions = columns.map((c) => `${quoteIdent(c.name)} ${c.type}${c.compress ? compression : ""} not null`);
  await db.execute(sql.raw(`create unlogged table ${quoteIdent(table)} (${definitions.join(", ")})`));
}

/**
 * Runs `work` with a new staging table (named by `stagingTableName(prefix)`), dropped when `work`
 * ends, however it ends.
 */
export async function withStagingTable<T>(
  db: Db,
  prefix: string,
  columns: readonly StagingColumn[],
  work: (table: string) => Promise<T>,
): Promise<T> {
  const table = stagingTableName(prefix);
  await createStagingTable(db, table, columns);
  try {
    return await work(table);
  } finally {
    await dropTable(db, table);
  }
}

/**
 * COPYs into `table` the rows `write` sends (COPY-escaped values in the order of `columns`), and
 * finishes the COPY once `write` returns. When `write` throws, the COPY is abandoned and the error
 * passed on: a file with a bad line stores nothing.
 */
export async function copyRows<T>(
  db: Db,
  table: string,
  columns: readonly StagingColumn[],
  write: (writeRow: (values: string[]) => Promise<void>) => Promise<T>,
): Promise<T> {
  const copy = await openCopyStream(
    db,
    table,
    columns.map((c) => c.name),
  );
  let result: T;
  try {
    result = await write((values) => copy.writeRow(values));
  } catch (error) {
    await copy.abort();
    throw error;
  }
  await copy.end();
  return result;
}

export async function dropTable(db: Db, table: string): Promise<void> {
  await db.execute(sql.raw(`drop table if exists ${quoteIdent(table)}`));
}

/**
 * Drops the staging tables named by `stagingTableName(prefix)` that are older than `olderThanMs`
 * (left behind by a process that died; a younger one may belong to an import still running in
 * another process). Returns how many were dropped.
 */
export async function dropStaleTables(db: Db, prefix: string, olderThanMs: number): Promise<number> {
  const tables = rowsOf<{ tablename: string }>(
    await db.execute(sql`select tablename from pg_tables where schemaname = 'public' and tablename like ${`${prefix}%`}`),
  );
  let dropped = 0;
  for (const { tablename } of tables) {
    const started = Number(tablename.slice(prefix.length).split("_")[0]);
    if (Number.isFinite(started) && Date.now() - started > olderThanMs) {
      await dropTable(db, tablename);
      dropped++;
    }
  }
  return dropped;
}

async function supportsLz4(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ lz4: boolean }>(
    await db.execute(
      sql`select coalesce(bool_or('lz4' = any(enumvals)), false) as lz4 from pg_settings where name = 'default_toast_compression'`,
    ),
  );
  return !!row?.lz4;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
