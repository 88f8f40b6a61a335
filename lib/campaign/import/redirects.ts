import "server-only";
import { readLines } from "@/lib/kilt/jsonl";
import type { Problems } from "./import-problems";
import type { ImportFile } from "./read-batch-files";

/** A redirects file holds at most this many redirects (keep those of the file's titles). */
export const MAX_REDIRECTS = 2_000_000;
const MAX_REDIRECT_LINE_BYTES = 4096;

/** A title as Wikipedia's dumps write it (`Barack_Obama`) or as it reads (`Barack Obama`): spaces, trimmed. */
export function titleText(title: string): string {
  return title.replace(/_/g, " ").trim();
}

/**
 * Reads a redirects file (`redirects.tsv`): one redirect a line, the from-title, a tab, the
 * to-title, as a Wikipedia redirect dump gives them (underscores read as spaces). Blank lines are
 * skipped; a line without exactly two titles, or with a NUL, is a problem on its line. A title
 * redirected twice keeps its first target.
 */
export async function readRedirects(file: ImportFile, problems: Problems): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const line of readLines(file.source, { file: file.fileName, maxLineBytes: MAX_REDIRECT_LINE_BYTES })) {
    if (line.text.trim() === "") continue;
    const problem = (message: string) => problems.add(file.fileName, line.lineNumber, "(line)", message);
    const fields = line.text.split("\t");
    if (line.text.includes("\u0000")) problem("holds a NUL character (\\u0000)");
    else if (fields.length !== 2) problem(`must be the from-title, a tab, and the to-title (found ${fields.length} tab-separated fields)`);
    else if (!titleText(fields[0]!) || !titleText(fields[1]!)) problem("has an empty title");
    else if (out.size >= MAX_REDIRECTS) {
      problem(`a redirects file holds at most ${MAX_REDIRECTS.toLocaleString("en")} redirects: keep those of the evidence's titles`);
      break;
    } else {
      const from = titleText(fields[0]!);
      if (!out.has(from)) out.set(from, titleText(fields[1]!));
    }
    if (problems.full) break;
  }
  return out;
}
