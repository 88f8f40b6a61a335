// CSV as RFC 4180 writes it (pure): fields separated by commas, records ended by CRLF, a field
// quoted when it holds a comma, a double quote, CR or LF (its quotes doubled).
//
// Spreadsheet formula injection: a cell that starts with `=`, `+`, `-` or `@` (or a tab or CR,
// which some spreadsheets skip before reading a formula) would run as a formula when the file is
// opened in Excel, LibreOffice or Google Sheets — and platform ids, codes and pseudonyms are text
// that others chose. Such a text cell gets a leading `'`, which the spreadsheets read as "text" and
// do not show. Numbers are written as numbers (a negative one is not text anyone chose).
import "server-only";

/** A cell's value: text, a number, a boolean, or nothing (an empty cell). */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field, guarded against formulas and quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(",") + "\r\n";
}
