import "server-only";
import type { MemberSpan, SetMember } from "@/db/schema";
import { codePointLength, type Location } from "@/lib/kilt/codepoints";
import { answerKeepingConsensus } from "../quality/consensus-answer";
import type { MemberRow } from "../set-members.internal";
import type { SetMemberView } from "./annotators.contract";

// Evidence sets on the coordinator's pages (the question view, the annotator's judgments): the
// members as read by `memberRowsSql`, and the consensus of the endorsing highlights in each member.

/** A set's members for the views, in page order; null for a single passage. */
export function memberViewsOf(rows: MemberRow[] | null, members: SetMember[] | null): SetMemberView[] | null {
  if (!rows || !members) return null;
  return rows.map((m, i) => ({
    wikipediaId: m.wikipedia_id,
    title: m.title,
    startParagraphId: m.start,
    endParagraphId: members[i]?.endParagraphId ?? m.start + m.paragraphs.length - 1,
    paragraphs: m.paragraphs.map((text, k) => ({ id: m.start + k, text })),
    expectedSpan: members[i]?.expectedSpan ?? null,
  }));
}

/**
 * Each member's consensus span, as the KILT export computes it (provenance-entry.ts): over the
 * endorsing judgments' highlights in that member, widened to an answer one of them holds; null for
 * a member nobody highlighted.
 */
export function memberConsensus(
  members: SetMemberView[],
  highlights: readonly (readonly MemberSpan[])[],
  threshold: number,
  answers: string[],
): (Location | null)[] {
  return members.map((m, i) => {
    const texts = m.paragraphs.map((p) => p.text);
    const shape = { startParagraphId: m.startParagraphId, paragraphLengths: texts.map(codePointLength) };
    const locations = highlights.flatMap((h) => {
      const span = h[i];
      if (!span) return [];
      const { text: _, ...location } = span;
      return [location];
    });
    return answerKeepingConsensus(shape, texts, locations, threshold, answers) ?? null;
  });
}
