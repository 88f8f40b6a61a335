import "server-only";
import { createRequire } from "node:module";

/**
 * What the LanceDB engine stores per content paragraph, the Arrow table a chunk's rows are handed
 * over in, and the folding it searches in (internal to lib/knowledge/engines/). The PostgreSQL engine
 * folds in SQL (index-sql.ts's foldText); this is the same folding in JavaScript, so both engines match
 * the same words.
 */

type Arrow = typeof import("apache-arrow");
let arrowModule: Arrow | undefined;

/**
 * apache-arrow as LanceDB loads it (CommonJS). A table made with the ES module's classes fails
 * LanceDB's checks: its sanitizing rebuilds a batch's schema in its own classes but keeps the data's
 * types, and the two then differ.
 */
function arrow(): Arrow {
  return (arrowModule ??= createRequire(import.meta.url)("apache-arrow") as Arrow);
}

/** A shard's columns: the page, the paragraph and the folded text (LanceRow). */
export function shardSchema() {
  const a = arrow();
  return new a.Schema([
    new a.Field("wikipedia_id", new a.Utf8(), false),
    new a.Field("paragraph_id", new a.Int32(), false),
    new a.Field("text", new a.Utf8(), false),
  ]);
}

/** A UTF-8 column of `values`: one buffer of their bytes and its offsets. */
function utf8Column(a: Arrow, values: string[]) {
  let bytes = 0;
  for (const v of values) bytes += Buffer.byteLength(v);
  const data = Buffer.allocUnsafe(bytes);
  const valueOffsets = new Int32Array(values.length + 1);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    at += data.write(values[i]!, at);
    valueOffsets[i + 1] = at;
  }
  return a.makeData({ type: new a.Utf8(), length: values.length, nullCount: 0, valueOffsets, data });
}

/**
 * The rows as an Arrow table of the shard's schema, built column by column. Given plain records,
 * LanceDB infers their schema row by row and builds each value through a builder, garbage the
 * build's process carries until it is collected; with this table the build's process peaked at
 * 479–502 MB at 1M, 5M and 10M paragraphs, against 498–733 MB before (bench/search/README.md).
 */
export function rowsTable(rows: readonly LanceRow[]) {
  const a = arrow();
  const schema = shardSchema();
  const children = [
    utf8Column(
      a,
      rows.map((r) => r.wikipedia_id),
    ),
    a.makeData({ type: new a.Int32(), length: rows.length, nullCount: 0, data: Int32Array.from(rows, (r) => r.paragraph_id) }),
    utf8Column(
      a,
      rows.map((r) => r.text),
    ),
  ];
  const batch = new a.RecordBatch(schema, a.makeData({ type: new a.Struct(schema.fields), length: rows.length, nullCount: 0, children }));
  return new a.Table(schema, batch);
}

/** One row of the LanceDB table: a content paragraph, with its page's folded title before its folded text. */
export type LanceRow = {
  wikipedia_id: string;
  paragraph_id: number;
  text: string;
};

const UNDECOMPOSED: Record<string, string> = { đ: "d", Đ: "D", ħ: "h", Ħ: "H", ł: "l", Ł: "L", ø: "o", Ø: "O", ŧ: "t", Ŧ: "T", ı: "i" };

/**
 * index-sql.ts's foldText in JavaScript: lower case, accents stripped (NFD, then the combining marks
 * U+0300–U+036F dropped, then the letters NFD does not decompose: đ ħ ł ø ŧ ı). ASCII text pays only
 * toLowerCase().
 */
export function foldText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(text)) return text.toLowerCase();
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[đĐħĦłŁøØŧŦı]/g, (c) => UNDECOMPOSED[c] ?? c)
    .toLowerCase();
}

const BULLET = /^BULLET::::-? ?/;

/**
 * The rows of one page: every content paragraph (neither paragraph 0, the title line, nor a
 * `Section::::` header, nor a blank one), its `BULLET::::` prefix stripped, with KILT's paragraph id.
 */
export function pageRows(wikipediaId: string, title: string, paragraphs: readonly string[]): LanceRow[] {
  const foldedTitle = foldText(title);
  const rows: LanceRow[] = [];
  for (let i = 1; i < paragraphs.length; i++) {
    const text = paragraphs[i]!;
    if (text.startsWith("Section::::") || /^[ \n\t]*$/.test(text)) continue;
    rows.push({ wikipedia_id: wikipediaId, paragraph_id: i, text: `${foldedTitle}\n${foldText(text.replace(BULLET, ""))}` });
  }
  return rows;
}

/** A Lance SQL filter selecting the rows of these pages (`'` doubled inside the literals). */
export function pagesFilter(ids: readonly string[]): string {
  return `wikipedia_id IN (${ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(", ")})`;
}
