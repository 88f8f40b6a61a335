import "server-only";

/**
 * What the LanceDB engine stores per content paragraph, and the folding it searches in (internal to
 * lib/knowledge/engines/lance.ts). The PostgreSQL engine folds in SQL (index-sql.ts's foldText); this is
 * the same folding in JavaScript, so both engines match the same words.
 */

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
