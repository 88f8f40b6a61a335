import "server-only";
// The words of a free-text query, alike for every engine.

/** Words of a query kept for the text search (a question rarely has more). */
export const MAX_QUERY_WORDS = 32;

/**
 * The words of a free-text query: runs of letters and digits, nothing else. Every character that
 * means something to tsquery or websearch syntax (quotes, `-`, `&|!():*<->`) falls away here, so no
 * input can make an engine's query raise a syntax error.
 */
export function queryWords(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.toLowerCase() !== "or").slice(0, MAX_QUERY_WORDS);
}
