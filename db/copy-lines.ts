import type { Readable } from "node:stream";
import { rawClientOf, type Db } from "./client";

/**
 * COPY's CSV format with a delimiter and a quote byte that the values never hold: such a value is
 * written exactly as it is, then "\n". (The text format would double every backslash; CSV quotes a
 * value only when it holds the delimiter, the quote, a line feed or a carriage return, or is empty
 * or `\.`.) JSON text never holds a raw byte below 0x20, and UTF-8 uses none inside a character.
 */
const LINES_FORMAT = `(format csv, delimiter e'\\x01', quote e'\\x02')`;
const QUOTE_BYTE = 0x02;

/** Bytes are handed out in chunks of about this size (one write each downstream). */
const CHUNK_BYTES = 64 * 1024;

/**
 * The rows of `select` — one text column; every value non-empty, never null, without line feeds,
 * carriage returns or the bytes 0x01/0x02 (JSON text qualifies) — as their UTF-8 bytes, each
 * followed by "\n", read with `COPY (select) TO …`: the driver decodes no row and no JavaScript runs
 * per row. A value that COPY would have to quote is an error, never altered bytes. The whole result
 * is returned (in chunks of ~64 KB of whole lines): the caller bounds it, a page at a time.
 *
 * `select` is SQL text (COPY takes no parameters): only inline values the caller has checked, such
 * as integers. PostgreSQL: `COPY … TO STDOUT` in a READ ONLY transaction, with `settings` set for
 * it (`set local`, e.g. `jit: "off"`); the pool's connections let several pages run on several
 * backends at once. PGlite: `COPY … TO '/dev/blob'` (the settings are for the server's planner and
 * JIT, which PGlite runs without).
 */
export async function copyLines(db: Db, select: string, options: { settings?: Record<string, string> } = {}): Promise<Buffer[]> {
  const copy = `copy (${select}) to`;
  const raw = rawClientOf(db);
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => {
    if (!/^[a-z_]+$/.test(name) || !/^[a-z0-9_.]+$/i.test(value)) throw new Error(`copyLines: not a setting: ${name} = ${value}`);
    return `set local ${name} = ${value}`;
  });
  const chunks =
    raw.kind === "postgres"
      ? ((await raw.client.begin("read only", async (tx) => {
          for (const s of settings) await tx.unsafe(s);
          return collect(await tx.unsafe(`${copy} stdout ${LINES_FORMAT}`).readable());
        })) as Buffer[])
      : await blobChunks((await raw.client.query(`${copy} '/dev/blob' ${LINES_FORMAT}`)).blob);
  for (const c of chunks) {
    if (c.includes(QUOTE_BYTE)) throw new Error("copyLines: a value was empty, `\\.` or held a line break or a byte 0x01/0x02, so COPY would have changed it");
  }
  return chunks;
}

/** Every byte of a COPY OUT stream of postgres.js, regrouped into ~64 KB chunks of whole lines (it pushes one row at a time). */
function collect(stream: Readable): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let group: Buffer[] = [];
    let size = 0;
    let ended = false;
    const flush = () => {
      if (size) chunks.push(Buffer.concat(group, size));
      group = [];
      size = 0;
    };
    stream.on("data", (b: Buffer) => {
      group.push(b);
      size += b.length;
      if (size >= CHUNK_BYTES) flush();
    });
    // postgres.js destroys the stream with the server's error (or the connection's) when one arrives mid-COPY.
    stream.once("error", reject);
    stream.once("end", () => {
      ended = true;
      flush();
      resolve(chunks);
    });
    stream.once("close", () => {
      if (!ended) reject(new Error("copyLines: the COPY stream closed before its end"));
    });
  });
}

async function blobChunks(blob: Blob | undefined): Promise<Buffer[]> {
  if (!blob) throw new Error("copyLines: COPY TO '/dev/blob' returned no blob");
  const bytes = Buffer.from(await blob.arrayBuffer());
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    // Cut after the last line feed within the next 64 KB (or the next one past it): whole lines per chunk, as on PostgreSQL.
    const within = start + CHUNK_BYTES >= bytes.length ? bytes.length - 1 : bytes.lastIndexOf(10, start + CHUNK_BYTES - 1);
    const cut = within >= start ? within : bytes.indexOf(10, start);
    const end = cut === -1 ? bytes.length : cut + 1;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}
