// Evidence given as text, located at import: each provenance item of a task line that gives its
// `evidence` as a string, with its page by `wikipedia_id` or `title`, is found in its page
// (lib/kilt/map/match-answer.ts, KILT's match_answer) and kept as a located item with its
// `bleu_score` when the match scores at least minBleu; the line is rewritten so (the original gold
// of the leaderboard reads it), and its gold passages are made from the rewritten line.
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { matchAnswerIn, PreparedPage, type EvidenceMatch } from "@/lib/kilt/map/match-answer";
import { isTextEvidence, type TaskLine, type TextEvidenceItem } from "@/lib/kilt/schemas";
import type { Problems } from "./import-problems";
import type { ParsedQuery } from "./read-batch-files";
import { findPages, type FoundPage } from "./evidence-pages";
import { evidenceReport, type ItemOutcome } from "./evidence-outcome";
import type { EvidenceMapReport } from "./evidence-map.contract";
import { locatedGoldOf } from "./set-drafts";

export interface MapEvidenceOptions {
  minBleu: number;
  /** From-title → to-title (readRedirects). */
  redirects: ReadonlyMap<string, string>;
}

/** One provenance item given as text, at its place in its question's line. */
export interface TextItem {
  query: ParsedQuery;
  output: number;
  index: number;
  item: TextEvidenceItem;
}

const PAGE_CHUNK = 100;

/** The problem of an item given as text in a batch imported without mapEvidence. */
export const TEXT_EVIDENCE_HINT =
  "gives its evidence as text (evidence, with title or wikipedia_id): import with mapEvidence on (kps batch import --map-evidence) to locate it, or give its paragraph and character ids";

/** The fields of a question's items given as text (`output[0].provenance[1]`). */
export function textItemFields(query: ParsedQuery): string[] {
  return textItemsOf([query]).map((t) => `output[${t.output}].provenance[${t.index}]`);
}

/** The items given as text of the questions read with them (ParsedQuery.textLine). */
function textItemsOf(parsed: readonly ParsedQuery[]): TextItem[] {
  return parsed.flatMap((query) =>
    (query.textLine?.output ?? []).flatMap((entry, output) =>
      (entry.provenance ?? []).flatMap((item, index) =>
        isTextEvidence(item) ? [{ query, output, index, item: item as TextEvidenceItem }] : [],
      ),
    ),
  );
}

/** Each found item's best match in its page, reading the pages' paragraphs a chunk of pages at a time. */
async function matchItems(db: Db, items: readonly TextItem[], pages: readonly (FoundPage | null)[]): Promise<(EvidenceMatch | null)[]> {
  const byPage = new Map<string, number[]>();
  pages.forEach((p, i) => {
    if (!p) return;
    const list = byPage.get(p.wikipediaId);
    if (list) list.push(i);
    else byPage.set(p.wikipediaId, [i]);
  });
  const matches: (EvidenceMatch | null)[] = items.map(() => null);
  const ids = [...byPage.keys()];
  for (let i = 0; i < ids.length; i += PAGE_CHUNK) {
    const rows = rowsOf<{ wikipedia_id: string; paragraphs: string[] }>(
      await db.execute(
        sql`select wikipedia_id, paragraphs from pages where wikipedia_id = any(${sql.param(ids.slice(i, i + PAGE_CHUNK))}::text[])`,
      ),
    );
    for (const r of rows) {
      const page = new PreparedPage(r.paragraphs); // tokenised once for all the evidence of the page
      for (const k of byPage.get(r.wikipedia_id)!) matches[k] = matchAnswerIn(page, items[k]!.item.evidence);
    }
  }
  return matches;
}

/**
 * Locates the batch's evidence given as text and rewrites each such question: its original line
 * (kept items located, with bleu_score and the evidence in meta; dropped items left out) and its gold
 * (locatedGoldOf: the items of one output at two or more places are one evidence set). Returns the report.
 */
export async function mapTextEvidence(
  db: Db,
  file: string,
  parsed: readonly ParsedQuery[],
  options: MapEvidenceOptions,
  problems: Problems,
): Promise<EvidenceMapReport> {
  const items = textItemsOf(parsed);
  const pages = await findPages(
    db,
    items.map(({ item }) => ({ wikipediaId: item.wikipedia_id, title: item.title })),
    options.redirects,
  );
  const matches = await matchItems(db, items, pages);
  const outcomes: ItemOutcome[] = items.map((t, i) => ({ ...t, page: pages[i]!, match: matches[i]! }));
  const kept = new Map<TextEvidenceItem, Kept>();
  for (const o of outcomes) if (o.page && o.match && o.match.bleu >= options.minBleu) kept.set(o.item, o as Kept);
  for (const query of parsed) {
    if (!query.textLine) continue;
    const raw = JSON.parse(query.originalLine) as { output: { provenance?: unknown[] }[] };
    const line: TaskLine = {
      ...query.textLine,
      output: query.textLine.output.map((entry, e) => {
        const provenance = rewrite(entry.provenance, raw.output[e]!.provenance, kept);
        if (raw.output[e]!.provenance) raw.output[e]!.provenance = provenance.raw;
        return { ...entry, provenance: provenance.parsed };
      }),
    };
    query.originalLine = JSON.stringify(raw);
    query.gold = locatedGoldOf(line, file, query.lineNumber, problems);
    query.textLine = undefined;
  }
  return evidenceReport(file, options.minBleu, outcomes, kept);
}

type Provenance = NonNullable<TaskLine["output"][number]["provenance"]>;
type Kept = ItemOutcome & { page: FoundPage; match: EvidenceMatch };

/** An output's provenance with its kept text items located and the others left out, parsed and as JSON. */
function rewrite(parsed: readonly unknown[] | undefined, raw: unknown[] | undefined, kept: ReadonlyMap<TextEvidenceItem, Kept>) {
  const out: { parsed: Provenance; raw: unknown[] } = { parsed: [], raw: [] };
  (parsed ?? []).forEach((item, p) => {
    if (!isTextEvidence(item)) {
      out.parsed.push(item as Provenance[number]);
      out.raw.push(raw?.[p]);
      return;
    }
    const o = kept.get(item as TextEvidenceItem);
    if (!o) return;
    const { page, match } = o;
    const located = {
      wikipedia_id: page.wikipediaId,
      title: page.title,
      start_paragraph_id: match.paragraphId,
      start_character: match.startCharacter,
      end_paragraph_id: match.paragraphId,
      end_character: match.endCharacter,
      bleu_score: match.bleu,
    };
    const { evidence, title, wikipedia_id: _, ...rest } = raw?.[p] as Record<string, unknown>;
    const renamed = title !== undefined && title !== page.title ? { evidence_title: title } : {};
    const meta = { ...(rest.meta as Record<string, unknown> | undefined), evidence, ...renamed };
    out.parsed.push({ ...located, meta });
    out.raw.push({ ...rest, ...located, meta });
  });
  return out;
}
