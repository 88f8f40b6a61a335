import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Problems } from "./import-problems";
import type { PassageDraft } from "./passage-drafts";
import type { Located } from "./read-batch-files";
import { membersOf } from "./set-drafts";

/**
 * Each page's paragraph count, read in chunks; a page holding passages of `text` is read whole, its
 * passages' text handed over, and dropped with its chunk (memory stays bounded by the chunk).
 */
async function readPages(db: Db, located: Located<PassageDraft>[], text: TextRequest | undefined): Promise<Map<string, number>> {
  const wanted = [...new Set(located.map((l) => l.value.wikipediaId))];
  const textOf = new Map<string, Located<PassageDraft>[]>();
  for (const l of text?.passages ?? []) {
    const list = textOf.get(l.value.wikipediaId);
    if (list) list.push(l);
    else textOf.set(l.value.wikipediaId, [l]);
  }
  const paragraphCounts = new Map<string, number>();
  const size = textOf.size ? 200 : 1000;
  for (let i = 0; i < wanted.length; i += size) {
    const ids = wanted.slice(i, i + size);
    const rows = rowsOf<{ wikipedia_id: string; title: string; n: number; paragraphs: string[] | null }>(
      await db.execute(sql`
        select wikipedia_id, title, cardinality(paragraphs)::int as n,
          case when wikipedia_id = any(${sql.param(ids.filter((id) => textOf.has(id)))}::text[]) then paragraphs end as paragraphs
        from pages where wikipedia_id = any(${sql.param(ids)}::text[])`),
    );
    for (const r of rows) {
      paragraphCounts.set(r.wikipedia_id, r.n);
      for (const l of r.paragraphs ? textOf.get(r.wikipedia_id)! : []) {
        const { startParagraphId: start, endParagraphId: end } = l.value;
        if (start <= end && end < r.n) text!.onText(l, r.paragraphs!.slice(start, end + 1).join(" "), r.title);
      }
    }
  }
  return paragraphCounts;
}

/** Passages whose text a caller wants while the pages are read (the answer-overlap filter). */
export interface TextRequest {
  passages: Located<PassageDraft>[];
  /** Called once per passage whose paragraph range lies inside its page: its paragraphs start..end, joined by spaces, and its page's title. */
  onText: (passage: Located<PassageDraft>, text: string, title: string) => void;
}

/**
 * Every passage's page must exist, its paragraph range must lie inside the page, and a gold span's
 * character offsets (code points) must lie inside their paragraphs. Returns the count of distinct pages.
 * An evidence set's members are checked each at its own item. With `text`, the same read of the
 * pages hands over the text of the passages asked for.
 */
export async function checkPages(db: Db, passages: Located<PassageDraft>[], problems: Problems, text?: TextRequest): Promise<number> {
  const located = passages.flatMap(membersOf); // a set's members, each checked at its own item
  const paragraphCounts = await readPages(db, located, text);
  const spanChecks: { l: Located<PassageDraft>; paragraph: number; character: number; which: "start" | "end" }[] = [];
  for (const l of located) {
    const d = l.value;
    const n = paragraphCounts.get(d.wikipediaId);
    if (n === undefined) {
      problems.add(l.file, l.line, `${l.field}.wikipedia_id`, `page '${d.wikipediaId}' is not in the knowledge source; import it first`);
      continue;
    }
    if (d.startParagraphId > d.endParagraphId) {
      problems.add(
        l.file,
        l.line,
        `${l.field}.end_paragraph_id`,
        `${d.endParagraphId} comes before start_paragraph_id ${d.startParagraphId}`,
      );
      continue;
    }
    if (d.endParagraphId >= n) {
      const field = d.startParagraphId >= n ? "start_paragraph_id" : "end_paragraph_id";
      const value = d.startParagraphId >= n ? d.startParagraphId : d.endParagraphId;
      problems.add(l.file, l.line, `${l.field}.${field}`, `${value} is out of range: page '${d.wikipediaId}' has paragraphs 0–${n - 1}`);
      continue;
    }
    if (d.expectedSpan) {
      spanChecks.push({ l, paragraph: d.expectedSpan.startParagraphId, character: d.expectedSpan.startCharacter, which: "start" });
      spanChecks.push({ l, paragraph: d.expectedSpan.endParagraphId, character: d.expectedSpan.endCharacter, which: "end" });
    }
  }

  // Offsets count code points: PostgreSQL's char_length does too (UTF-8 databases).
  for (let i = 0; i < spanChecks.length; i += 1000) {
    const chunk = spanChecks.slice(i, i + 1000);
    const rows = rowsOf<{ i: number; n: number }>(
      await db.execute(sql`
        select t.i::int as i, char_length(p.paragraphs[t.paragraph + 1])::int as n
        from unnest(${sql.param(chunk.map((_, k) => k))}::int[], ${sql.param(chunk.map((c) => c.l.value.wikipediaId))}::text[], ${sql.param(chunk.map((c) => c.paragraph))}::int[]) as t(i, wikipedia_id, paragraph)
        join pages p on p.wikipedia_id = t.wikipedia_id`),
    );
    for (const r of rows) {
      const c = chunk[r.i]!;
      if (c.character > r.n) {
        problems.add(
          c.l.file,
          c.l.line,
          `${c.l.field}.${c.which}_character`,
          `${c.character} is out of range: paragraph ${c.paragraph} of page '${c.l.value.wikipediaId}' has ${r.n} characters (code points)`,
        );
      }
    }
    const seen = new Set<string>();
    for (const c of chunk) {
      const span = c.l.value.expectedSpan!;
      const key = `${c.l.line}:${c.l.field}`;
      if (c.which === "end" && span.startParagraphId === span.endParagraphId && span.startCharacter > span.endCharacter && !seen.has(key)) {
        seen.add(key);
        problems.add(
          c.l.file,
          c.l.line,
          `${c.l.field}.end_character`,
          `${span.endCharacter} comes before start_character ${span.startCharacter}`,
        );
      }
    }
  }
  return paragraphCounts.size;
}
