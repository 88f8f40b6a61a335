// Picking the paragraphs of a proposed passage on the Ask screen (components/annotate/ask-reader.tsx):
// a contiguous run of a page's content paragraphs. Pure and client-safe.
import { paragraphKind } from "@/lib/kilt/words";

/** Paragraph ids, inclusive. */
export interface ParagraphRange {
  start: number;
  end: number;
}

/** The paragraphs an annotator may pick on a page: not the title line (0), not section headers. */
export function pickableIds(page: { paragraphs: readonly { id: number; text: string }[] }): number[] {
  return page.paragraphs.filter((p) => p.id > 0 && paragraphKind(p.text).kind !== "section").map((p) => p.id);
}

/**
 * A contiguous range of picked paragraphs after (un)checking one: the next pickable paragraph on
 * either side extends it (headers between are taken along), any other starts a new range; unchecking
 * an end shrinks it, unchecking a middle one cuts the range there.
 */
export function pickParagraph(range: ParagraphRange | null, ids: readonly number[], id: number, checked: boolean): ParagraphRange | null {
  const at = ids.indexOf(id);
  if (at < 0) return range;
  const start = range ? ids.indexOf(range.start) : -1;
  const end = range ? ids.indexOf(range.end) : -1;
  if (checked) {
    if (!range || start < 0 || end < 0) return { start: id, end: id };
    if (at === start - 1) return { start: id, end: range.end };
    if (at === end + 1) return { start: range.start, end: id };
    return at >= start && at <= end ? range : { start: id, end: id };
  }
  if (!range || at < start || at > end) return range;
  if (start === end) return null;
  if (at === start) return { start: ids[start + 1]!, end: range.end };
  return { start: range.start, end: ids[at - 1]! };
}
