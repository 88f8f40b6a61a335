import { rawClientOf, type Db } from "./client";

/**
 * COPY's CSV format with a delimiter and a quote byte that the values never hold: such a value is
 * written exactly as it is, then "\n". (The text format would double every backslash; CSV quotes a
 * value only when it holds the delimiter, the quote, a line feed or a carriage return, or is empty
 * or `\.`.) JSON text never holds a raw byte below 0x20, and UTF-8 uses none inside a character.
 */
const LINES_FORMAT = `(format csv, delimiter e'\\x01', quote e'\\x02')`;
const QUOTE_BYTE = 0x02;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Bytes are handed out in chunks of about this size (one write each downstream). */
const CHUNK_BYTES = 64 * 1024;

const CHANGED = "copyLines: a value was empty, `\\.` or held a line break or a byte 0x01/0x02, so COPY would have changed it";

/**
 * The rows of `select` — one text column; every value non-empty, never null, without line feeds,
 * carriage returns or the bytes 0x01/0x02 (JSON text qualifies) — as their UTF-8 bytes, each
 * followed by "\n", with no value decoded into a JavaScript string. A value that breaks those rules
 * is an error, never altered bytes. The whole result is returned (in chunks of ~64 KB of whole
 * lines): the caller bounds it, a page at a time.
 *
 * `select` is SQL text: only inline values the caller has checked, such as integers. PostgreSQL: the
 * select in a READ ONLY transaction with `settings` set for it (`set local`, e.g. `jit: "off"`), its
 * rows taken raw (postgres.js `.raw()`: each value the bytes PostgreSQL sent); the pool's
 * connections let several pages run on several backends at once. Not `COPY … TO STDOUT`: a
 * postgres.js COPY stream can stall and never end (porsager/postgres#917), which once left a
 * download hanging in the end-to-end tests. PGlite: `COPY … TO '/dev/blob'` (the settings are for
 * the server's planner and JIT, which PGlite runs without).
 */
export async function copyLines(db: Db, select: string, options: { settings?: Record<string, string> } = {}): Promise<Buffer[]> {
  const raw = rawClientOf(db);
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => {
    if (!/^[a-z_]+$/.test(name) || !/^[a-z0-9_.]+$/i.test(value)) throw new Error(`copyLines: not a setting: ${name} = ${value}`);
    return `set local ${name} = ${value}`;
  });
  if (raw.kind === "postgres") {
    const rows = await raw.client.begin("read only", async (tx) => {
      for (const s of settings) await tx.unsafe(s);
      return tx.unsafe(select).raw();
    });
    return linesOf(rows as unknown as (Buffer | null)[][]);
  }
  const chunks = await blobChunks((await raw.client.query(`copy (${select}) to '/dev/blob' ${LINES_FORMAT}`)).blob);
  for (const c of chunks) if (c.includes(QUOTE_BYTE)) throw new Error(CHANGED);
  return chunks;
}

/** Raw one-column rows as lines, in ~64 KB chunks of whole lines, under the rules above. */
function linesOf(rows: readonly (Buffer | null)[][]): Buffer[] {
  const chunks: Buffer[] = [];
  let group: Buffer[] = [];
  let size = 0;
  const newline = Buffer.from([NEWLINE]);
  for (const row of rows) {
    const value = row[0];
    if (
      !value ||
      value.length === 0 ||
      value.includes(NEWLINE) ||
      value.includes(CARRIAGE_RETURN) ||
      value.includes(0x01) ||
      value.includes(QUOTE_BYTE)
    )
      throw new Error(CHANGED);
    if (value.length === 2 && value[0] === 0x5c && value[1] === 0x2e) throw new Error(CHANGED); // `\.`
    group.push(value, newline);
    size += value.length + 1;
    if (size >= CHUNK_BYTES) {
      chunks.push(Buffer.concat(group, size));
      group = [];
      size = 0;
    }
  }
  if (size) chunks.push(Buffer.concat(group, size));
  return chunks;
}

async function blobChunks(blob: Blob | undefined): Promise<Buffer[]> {
  if (!blob) throw new Error("copyLines: COPY TO '/dev/blob' returned no blob");
  const bytes = Buffer.from(await blob.arrayBuffer());
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    // Cut after the last line feed within the next 64 KB (or the next one past it): whole lines per chunk, as on PostgreSQL.
    const within = start + CHUNK_BYTES >= bytes.length ? bytes.length - 1 : bytes.lastIndexOf(10, start + CHUNK_BYTES - 1);
    const cut = within >= start ? within : bytes.indexOf(10, start);
    const end = cut === -1 ? bytes.length : cut + 1;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}
