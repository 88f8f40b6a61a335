/** A judgment's span: its shape, and the check against the stored passage (by code points). */
import "server-only";
import { z } from "zod";
import { invalidField } from "@/lib/errors";
import { sliceLocation } from "@/lib/kilt/codepoints";

const offset = z.number().int().min(0, "must be 0 or more");

export const spanSchema = z.object({
  startParagraphId: offset,
  /** Code points, like Python string indexes. */
  startCharacter: offset,
  endParagraphId: offset,
  /** Code points, end exclusive. */
  endCharacter: offset,
  text: z.string().min(1, "must not be empty").max(100_000),
});

/** The span must lie inside the passage, and the stored page sliced by code points must read `text`. */
export function checkSpan(
  passage: { start_paragraph_id: number; end_paragraph_id: number; slice: string[] | null },
  span: z.infer<typeof spanSchema>,
  field = "span",
): void {
  if (span.startParagraphId < passage.start_paragraph_id || span.endParagraphId > passage.end_paragraph_id) {
    throw invalidField(
      field,
      `paragraphs ${span.startParagraphId}–${span.endParagraphId} are outside the passage (${passage.start_paragraph_id}–${passage.end_paragraph_id})`,
      "lies outside the passage",
    );
  }
  // Only the passage's paragraphs, placed at their ids (the span lies within them, checked above).
  const paragraphs: string[] = [];
  passage.slice?.forEach((text, i) => (paragraphs[passage.start_paragraph_id + i] = text));
  const text = passage.slice ? sliceLocation(paragraphs, span) : undefined;
  if (text === undefined) {
    throw invalidField(field, "the character offsets lie outside their paragraphs", "character offsets out of range (code points)");
  }
  if (text !== span.text) {
    throw invalidField(
      `${field}.text`,
      "does not match the passage at these offsets (counted in code points)",
      `the passage reads ${JSON.stringify(text.slice(0, 200))} there`,
    );
  }
}
