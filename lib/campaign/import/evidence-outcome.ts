import "server-only";
import type { EvidenceMatch } from "@/lib/kilt/map/match-answer";
import type { TextEvidenceItem } from "@/lib/kilt/schemas";
import {
  BLEU_BINS,
  bleuBin,
  MAX_DROPPED_EVIDENCE,
  MAX_DROPPED_LISTED,
  MAX_SHARED_LISTED,
  type DroppedItem,
  type EvidenceMapReport,
  type PageMatch,
  type SharedTitleItem,
} from "./evidence-map.contract";
import type { FoundPage } from "./evidence-pages";
import type { ParsedQuery } from "./read-batch-files";

/** What the import found for one item given as text: its page (null: not in the knowledge source) and best match there. */
export interface ItemOutcome {
  query: ParsedQuery;
  output: number;
  index: number;
  item: TextEvidenceItem;
  page: FoundPage | null;
  match: EvidenceMatch | null;
}

/** A BLEU score as the report gives it: 4 decimals. */
const rounded = (bleu: number) => Math.round(bleu * 10_000) / 10_000;

function droppedItem(o: ItemOutcome): DroppedItem {
  const { page, match } = o;
  return {
    line: o.query.lineNumber,
    id: o.query.kiltId,
    field: `output[${o.output}].provenance[${o.index}]`,
    evidence: o.item.evidence,
    page: o.item.title ?? o.item.wikipedia_id ?? "",
    reason: !page ? "unknown-page" : !match ? "no-match" : "below-threshold",
    best:
      page && match
        ? {
            wikipediaId: page.wikipediaId,
            title: page.title,
            paragraphId: match.paragraphId,
            startCharacter: match.startCharacter,
            endCharacter: match.endCharacter,
            bleu: rounded(match.bleu),
          }
        : null,
  };
}

function sharedTitleItem(o: ItemOutcome): SharedTitleItem {
  const page = o.page!;
  return {
    line: o.query.lineNumber,
    id: o.query.kiltId,
    title: o.item.title ?? "",
    pages: page.sharedBy!,
    wikipediaId: page.wikipediaId,
    pageTitle: page.title,
  };
}

/** The dropped items the answer lists: the first MAX_DROPPED_LISTED, within MAX_DROPPED_EVIDENCE characters of evidence. */
function listed(dropped: readonly ItemOutcome[]): ItemOutcome[] {
  let characters = 0;
  const out: ItemOutcome[] = [];
  for (const o of dropped.slice(0, MAX_DROPPED_LISTED)) {
    characters += o.item.evidence.length;
    if (characters > MAX_DROPPED_EVIDENCE) break;
    out.push(o);
  }
  return out;
}

/** The report of a batch's evidence given as text: counts, pages by how they were found, the BLEU bins, the dropped items. */
export function evidenceReport(
  file: string,
  minBleu: number,
  outcomes: readonly ItemOutcome[],
  kept: ReadonlyMap<TextEvidenceItem, ItemOutcome>,
): EvidenceMapReport {
  const pagesBy: Record<PageMatch, number> = { id: 0, title: 0, redirect: 0, folded: 0 };
  const bleuBins = Array.from({ length: BLEU_BINS }, () => 0);
  const dropped = outcomes.filter((o) => !kept.has(o.item));
  const shared = outcomes.filter((o) => o.page?.sharedBy);
  let exact = 0;
  for (const o of outcomes) {
    if (o.page) pagesBy[o.page.how] += 1;
    if (o.match) bleuBins[bleuBin(o.match.bleu)]! += 1;
    if (kept.has(o.item) && o.match!.exact) exact += 1;
  }
  return {
    file,
    minBleu,
    items: outcomes.length,
    exact,
    fuzzy: kept.size - exact,
    dropped: dropped.length,
    unknownPages: dropped.filter((o) => !o.page).length,
    pagesBy,
    sharedTitles: shared.length,
    sharedTitleItems: shared.slice(0, MAX_SHARED_LISTED).map(sharedTitleItem),
    bleuBins,
    droppedItems: listed(dropped).map(droppedItem),
  };
}
