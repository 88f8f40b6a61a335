/**
 * `kps map`: evidence given as text, located in its page as KILT's `match_answer` does. Reads the
 * items first (each checked with zod; a problem names file, line and field), keeps from the
 * knowledge source only the pages they name, then maps every item. With any problem nothing is mapped.
 */
import { z } from "zod";
import { fieldPath, parseJsonLine, type ImportProblem, type JsonlLine } from "../jsonl";
import { kiltIdSchema, knowledgeRecordSchema } from "../schemas";
import { matchAnswerIn, PreparedPage, type EvidenceMatch } from "./match-answer";

/** The longest evidence string taken (a paragraph of Wikipedia is a few thousand characters). */
export const MAX_EVIDENCE_CHARACTERS = 100_000;
/** KILT kept a mapping when its BLEU was at least 0.5. */
export const DEFAULT_MIN_BLEU = 0.5;
/** Problems collected before the check stops counting. */
export const MAX_MAP_PROBLEMS = 200;

/** One line of the items file: evidence as text, with the page it comes from (id or title). */
export const evidenceItemSchema = z
  .object({
    id: kiltIdSchema,
    wikipedia_id: kiltIdSchema.optional(),
    title: z.string().min(1, "must not be empty").optional(),
    evidence: z
      .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
      .max(MAX_EVIDENCE_CHARACTERS, `is longer than ${MAX_EVIDENCE_CHARACTERS.toLocaleString("en")} characters`)
      .refine((s) => s.trim().length > 0, "must not be empty"),
  })
  .refine((item) => item.wikipedia_id !== undefined || item.title !== undefined, {
    message: "is missing: an item needs its page, as wikipedia_id or title",
    path: ["wikipedia_id"],
  });

export type EvidenceItem = z.infer<typeof evidenceItemSchema>;

export interface LineSource {
  file: string;
  lines: AsyncIterable<JsonlLine>;
}

/** One mapped item, in the shape of the mapping fixtures' expected.jsonl plus its page. */
export interface MappedItem {
  id: string;
  wikipedia_id: string;
  paragraph_id: number;
  bleu: number;
  start_character: number;
  end_character: number;
}

export type MapItemsResult =
  { ok: true; mapped: MappedItem[]; items: number; dropped: number; exact: number } | { ok: false; problems: ImportProblem[] };

class Problems {
  readonly list: ImportProblem[] = [];
  add(p: ImportProblem): void {
    if (this.list.length < MAX_MAP_PROBLEMS) this.list.push(p);
  }
}

async function readItems(source: LineSource, problems: Problems): Promise<{ item: EvidenceItem; line: number }[]> {
  const items: { item: EvidenceItem; line: number }[] = [];
  for await (const { lineNumber: line, text } of source.lines) {
    if (!text.trim()) continue;
    const parsed = parseJsonLine(text);
    if (!parsed.ok) {
      problems.add({ file: source.file, line, field: parsed.field, message: parsed.message });
      continue;
    }
    const result = evidenceItemSchema.safeParse(parsed.value);
    if (result.success) items.push({ item: result.data, line });
    else
      for (const issue of result.error.issues)
        problems.add({ file: source.file, line, field: fieldPath(issue.path), message: issue.message });
  }
  return items;
}

interface Pages {
  byId: Map<string, string[]>;
  byTitle: Map<string, { id: string; text: string[] }>;
}

/** Every `"wikipedia_id": …` and `"wikipedia_title": "…"` of a line (nested ones too), without parsing it. */
const PAGE_KEYS = /"wikipedia_(id|title)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|(\d+))/g;

/**
 * Whether a knowledge-source line may hold a page the items name: false only when the line shows
 * its page keys and none of their values is wanted, so most lines of a large source are never parsed.
 */
function mayBeWanted(text: string, ids: ReadonlySet<string>, titles: ReadonlySet<string>): boolean {
  let seen = false;
  for (const m of text.matchAll(PAGE_KEYS)) {
    seen = true;
    let value = m[3] ?? m[2]!;
    if (value.includes("\\")) {
      try {
        value = JSON.parse(`"${value}"`) as string;
      } catch {
        return true;
      }
    }
    if ((m[1] === "id" ? ids : titles).has(value)) return true;
  }
  return !seen;
}

/** The pages the items name, from the knowledge source (the other lines are passed over unparsed). */
async function readPages(source: LineSource, ids: Set<string>, titles: Set<string>, problems: Problems): Promise<Pages> {
  const pages: Pages = { byId: new Map(), byTitle: new Map() };
  for await (const { lineNumber: line, text } of source.lines) {
    if (!text.trim() || !mayBeWanted(text, ids, titles)) continue;
    const parsed = parseJsonLine(text);
    if (!parsed.ok) {
      problems.add({ file: source.file, line, field: parsed.field, message: parsed.message });
      continue;
    }
    const value = parsed.value as { wikipedia_id?: unknown; wikipedia_title?: unknown } | null;
    const wanted = ids.has(String(value?.wikipedia_id)) || titles.has(String(value?.wikipedia_title));
    if (!wanted) continue;
    const result = knowledgeRecordSchema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues)
        problems.add({ file: source.file, line, field: fieldPath(issue.path), message: issue.message });
      continue;
    }
    const { wikipedia_id: id, wikipedia_title: title, text: paragraphs } = result.data;
    if (ids.has(id)) pages.byId.set(id, paragraphs);
    if (titles.has(title) && !pages.byTitle.has(title)) pages.byTitle.set(title, { id, text: paragraphs });
  }
  return pages;
}

/**
 * Each item's match (null where KILT's function would raise), found page by page so that a page is
 * tokenised once for all its items and let go after them; undefined for an item whose page is missing.
 */
function matchAll(pageOf: (string[] | undefined)[], items: readonly { item: EvidenceItem }[]): (EvidenceMatch | null | undefined)[] {
  const order = items.map((_, i) => i).filter((i) => pageOf[i]);
  const pageIndex = new Map<string[], number>();
  for (const i of order) if (!pageIndex.has(pageOf[i]!)) pageIndex.set(pageOf[i]!, pageIndex.size);
  order.sort((a, b) => pageIndex.get(pageOf[a]!)! - pageIndex.get(pageOf[b]!)! || a - b);
  const matches: (EvidenceMatch | null | undefined)[] = new Array(items.length);
  let page: PreparedPage | undefined;
  for (const i of order) {
    const current = page?.paragraphs === pageOf[i] ? page! : new PreparedPage(pageOf[i]!);
    matches[i] = matchAnswerIn(current, items[i]!.item.evidence);
    page = current;
  }
  return matches;
}

/** Maps every item of `items` onto its page of `knowledge`; items under `minBleu` are dropped. */
export async function mapItems(input: { items: LineSource; knowledge: LineSource; minBleu: number }): Promise<MapItemsResult> {
  const problems = new Problems();
  const items = await readItems(input.items, problems);
  const ids = new Set(items.flatMap(({ item }) => (item.wikipedia_id === undefined ? [] : [item.wikipedia_id])));
  const titles = new Set(items.flatMap(({ item }) => (item.wikipedia_id === undefined && item.title !== undefined ? [item.title] : [])));
  const pages = await readPages(input.knowledge, ids, titles, problems);
  const pageIdOf = items.map(({ item }) => (item.wikipedia_id !== undefined ? item.wikipedia_id : pages.byTitle.get(item.title!)?.id));
  const pageOf = items.map(({ item }, i) =>
    item.wikipedia_id !== undefined ? pages.byId.get(pageIdOf[i]!) : pages.byTitle.get(item.title!)?.text,
  );
  const matches = matchAll(pageOf, items);
  const mapped: MappedItem[] = [];
  let dropped = 0;
  let exact = 0;
  for (const [i, { item, line }] of items.entries()) {
    const where = { file: input.items.file, line };
    const match = matches[i];
    if (match === undefined) {
      const field = item.wikipedia_id !== undefined ? "wikipedia_id" : "title";
      const name = JSON.stringify(item.wikipedia_id ?? item.title);
      problems.add({ ...where, field, message: `names no page of ${input.knowledge.file} (${name})` });
    } else if (match === null) {
      problems.add({ ...where, field: "evidence", message: "has no word to look for (only characters KILT's normalisation removes)" });
    } else if (match.bleu < input.minBleu) {
      dropped++;
      if (match.exact) exact++;
    } else {
      if (match.exact) exact++;
      const { paragraphId, bleu, startCharacter: start_character, endCharacter: end_character } = match;
      mapped.push({ id: item.id, wikipedia_id: pageIdOf[i]!, paragraph_id: paragraphId, bleu, start_character, end_character });
    }
  }
  if (problems.list.length) return { ok: false, problems: problems.list };
  return { ok: true, mapped, items: items.length, dropped, exact };
}
