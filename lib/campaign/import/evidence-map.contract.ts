// What a batch import that maps evidence given as text answers about it (the `evidence` of
// BatchImportResult): the import form and `kps batch import --map-evidence` show it, and both offer
// the dropped items as a JSONL download.

/** How an item's page was found: its wikipedia_id, its exact title, a redirect, or its title folded for case and accents. */
export type PageMatch = "id" | "title" | "redirect" | "folded";

/** An item whose page was found by a title that, folded for case and accents, several pages share: the one of smallest wikipedia_id was taken. */
export interface SharedTitleItem {
  line: number;
  /** The question's KILT id. */
  id: string;
  /** The title the item gave (found through a redirect: the redirect's target is the shared title). */
  title: string;
  /** How many pages share the folded title. */
  pages: number;
  /** The page taken. */
  wikipediaId: string;
  pageTitle: string;
}

/** The best place the import found for a dropped item (below the threshold), or null when none. */
export interface BestCandidate {
  wikipediaId: string;
  title: string;
  paragraphId: number;
  startCharacter: number;
  endCharacter: number;
  bleu: number;
}

/** A provenance item given as text that the import did not keep. */
export interface DroppedItem {
  line: number;
  /** The question's KILT id. */
  id: string;
  /** Its place in the line, e.g. `output[0].provenance[1]`. */
  field: string;
  evidence: string;
  /** The page it named: its title, or its wikipedia_id when it gave no title. */
  page: string;
  /** `below-threshold`: its best match scored under minBleu; `no-match`: its page holds no text like it; `unknown-page`: its page is not in the knowledge source. */
  reason: "below-threshold" | "no-match" | "unknown-page";
  best: BestCandidate | null;
}

/** At most this many dropped items are sent back (the counts count them all)… */
export const MAX_DROPPED_LISTED = 10_000;
/** …holding at most this many characters of evidence together. */
export const MAX_DROPPED_EVIDENCE = 16 * 1024 * 1024;

/** Ten bins of BLEU: [0, 0.1), [0.1, 0.2), …, [0.9, 1]. */
export const BLEU_BINS = 10;

export interface EvidenceMapReport {
  /** The questions file. */
  file: string;
  minBleu: number;
  /** Provenance items given as text. */
  items: number;
  /** Kept: found verbatim in a paragraph (BLEU 1). */
  exact: number;
  /** Kept: found approximately, with a BLEU of at least minBleu. */
  fuzzy: number;
  /** Not kept: below minBleu, no match, or page unknown (`unknownPages` of them). */
  dropped: number;
  /** Of the dropped, those whose page is not in the knowledge source. */
  unknownPages: number;
  /** Of the items whose page was found, how: by wikipedia_id, exact title, redirect, folded title. */
  pagesBy: Record<PageMatch, number>;
  /** Of the items whose page was found, those found by a folded title several pages share. */
  sharedTitles: number;
  /** Those items (the first MAX_SHARED_LISTED), in line order. */
  sharedTitleItems: SharedTitleItem[];
  /** The best match's BLEU of every item matched in its page (kept or not), counted in BLEU_BINS bins. */
  bleuBins: number[];
  /** The dropped items (the first MAX_DROPPED_LISTED, within MAX_DROPPED_EVIDENCE characters of evidence), in line order. */
  droppedItems: DroppedItem[];
}

/** The bin of a BLEU score in BLEU_BINS bins (1 falls in the last). */
export function bleuBin(bleu: number): number {
  return Math.min(BLEU_BINS - 1, Math.max(0, Math.floor(bleu * BLEU_BINS)));
}

/** A bin's label: `0–0.1`, …, `0.9–1`. */
export function bleuBinLabel(bin: number): string {
  return `${bin / BLEU_BINS}–${(bin + 1) / BLEU_BINS}`;
}

/** The report's sentences (the import form and the CLI). */
export function evidenceMapLines(r: EvidenceMapReport): string[] {
  const by = r.pagesBy;
  const unknown = r.unknownPages ? ` (${r.unknownPages} whose page is not in the knowledge source)` : "";
  return [
    `Evidence given as text in ${r.file}: ${r.items} item${r.items === 1 ? "" : "s"}, ${r.exact} mapped exactly, ${r.fuzzy} mapped fuzzily (BLEU ≥ ${r.minBleu}), ${r.dropped} dropped${unknown}.`,
    `Pages found by wikipedia_id ${by.id}, by exact title ${by.title}, by redirect ${by.redirect}, by title folded for case and accents ${by.folded}.`,
    `BLEU of the best match: ${r.bleuBins.map((n, i) => `${bleuBinLabel(i)}: ${n}`).join(", ")}.`,
    ...unknownPageLines(r),
    ...sharedTitleLines(r),
  ];
}

const UNKNOWN_LISTED = 20;
/** The items found by a shared folded title that the report lists. */
export const MAX_SHARED_LISTED = 20;

/** The line of the items whose page was found by a folded title several pages share (the first 20), or none. */
export function sharedTitleLines(r: EvidenceMapReport): string[] {
  if (!r.sharedTitles) return [];
  const more = r.sharedTitles - r.sharedTitleItems.length;
  const listed = r.sharedTitleItems.map((s) => `line ${s.line} ("${s.title}": ${s.pages} pages; ${s.wikipediaId} "${s.pageTitle}" taken)`);
  return [
    `Titles that several pages share once folded for case and accents (the page of smallest wikipedia_id was taken; give a wikipedia_id or the exact title to choose): ${listed.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`,
  ];
}

/** The line of the items whose page is not in the knowledge source (the first 20), or none. */
export function unknownPageLines(r: EvidenceMapReport): string[] {
  if (!r.unknownPages) return [];
  const listed = r.droppedItems.filter((d) => d.reason === "unknown-page").slice(0, UNKNOWN_LISTED);
  const more = r.unknownPages - listed.length;
  return [
    `Pages not in the knowledge source: ${listed.map((d) => `line ${d.line} (${d.page})`).join(", ")}${more > 0 ? `, and ${more} more` : ""}.`,
  ];
}

/** The dropped items as JSONL: one object per line (line, id, field, evidence, page, reason, best page/paragraph/bleu). */
export function droppedItemsJsonl(items: readonly DroppedItem[]): string {
  return items
    .map((d) =>
      JSON.stringify({
        line: d.line,
        id: d.id,
        field: d.field,
        evidence: d.evidence,
        page: d.page,
        reason: d.reason,
        best_wikipedia_id: d.best?.wikipediaId ?? null,
        best_title: d.best?.title ?? null,
        best_paragraph_id: d.best?.paragraphId ?? null,
        best_bleu: d.best?.bleu ?? null,
      }),
    )
    .map((l) => `${l}\n`)
    .join("");
}
