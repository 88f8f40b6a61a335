import type { Writable } from "node:stream";
import { rawClientOf, type Db } from "./client";

/** Escapes one value for PostgreSQL's COPY text format (`\N` is NULL). */
export function copyValue(value: string | number | boolean | null): string {
  if (value === null) return "\\N";
  const s = String(value);
  return /[\\\n\r\t]/.test(s) ? s.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t")) : s;
}

/** A PostgreSQL array literal of text values: `{"a","b \"c\""}`. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}

export interface CopyStream {
  /** Writes one row (already COPY-escaped values); resolves when the stream can take more. */
  writeRow(values: string[]): Promise<void>;
  /** Finishes the COPY; resolves when every row is stored. */
  end(): Promise<void>;
  /** Abandons the COPY (the rows written may or may not be stored: use a staging table). */
  abort(error: Error): Promise<void>;
}

const PGLITE_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * COPY … FROM STDIN into `table`, about ten times faster than batched inserts.
 * PostgreSQL: one streaming COPY with backpressure. PGlite: one COPY per 8 MiB chunk.
 * Not inside a drizzle transaction: copy into a staging table, then move the rows in one statement.
 */
export async function openCopyStream(db: Db, table: string, columns: readonly string[]): Promise<CopyStream> {
  const raw = rawClientOf(db);
  const target = `${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")})`;

  if (raw.kind === "postgres") {
    const stream: Writable = await raw.client.unsafe(`copy ${target} from stdin`).writable();
    let failure: Error | undefined;
    stream.on("error", (e) => (failure = e));
    const finished = new Promise<void>((resolve, reject) => {
      stream.on("finish", resolve);
      stream.on("close", resolve);
      stream.on("error", reject);
    });
    finished.catch(() => {});
    return {
      async writeRow(values) {
        if (failure) throw failure;
        if (!stream.write(values.join("\t") + "\n")) {
          await new Promise<void>((resolve, reject) => {
            stream.once("drain", resolve);
            stream.once("error", reject);
          });
        }
      },
      async end() {
        stream.end();
        await finished;
        if (failure) throw failure;
      },
      async abort(error) {
        stream.destroy(error);
        await finished.catch(() => {});
      },
    };
  }

  const client = raw.client;
  let parts: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!parts.length) return;
    const blob = new Blob(parts);
    parts = [];
    size = 0;
    await client.query(`copy ${target} from '/dev/blob'`, [], { blob });
  };
  return {
    async writeRow(values) {
      const line = values.join("\t") + "\n";
      parts.push(line);
      size += line.length;
      if (size >= PGLITE_CHUNK_BYTES) await flush();
    },
    end: flush,
    async abort() {
      parts = [];
      size = 0;
    },
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
