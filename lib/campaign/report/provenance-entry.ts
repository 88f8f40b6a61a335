import "server-only";
import type { MemberSpan, PassageOrigin, SetMember } from "@/db/schema";
import { codePointLength, sectionOf, type Location } from "@/lib/kilt/codepoints";
import type { EndorsementRule } from "../quality/aggregation";
import { adjudicatedByMeta } from "../quality/adjudication";
import type { AdjudicationView } from "../quality/adjudication.contract";
import { consensusKeepingAnswer, locationHoldsAnswer } from "../quality/consensus-answer";
import type { PassageOutcome } from "../quality/outcome";
import type { MemberRow } from "../set-members.internal";
import { proposersOf } from "./question-responses";
import { spanOf, type JudgmentRow, type PassageOutcomeRow } from "./rows";

// One endorsed passage as a KILT output entry (pure): a single passage is `{"provenance": [item]}`,
// an evidence set `{"provenance": [one item per member, in page order]}`, each item located by the
// consensus of the endorsing highlights in it (or the whole passage).

/** A passage as the export reads it (kilt-provenance.ts). */
export interface PassageRow extends PassageOutcomeRow {
  id: number;
  query_id: number;
  batch_id: number;
  wikipedia_id: string;
  start_paragraph_id: number;
  end_paragraph_id: number;
  title: string;
  /** The passage's paragraphs (read as JSON: the driver's text[] parser is slow), and the section header above it (null for the lead). */
  paragraphs: string[];
  header_above: string | null;
  /** R and T of a closed batch as sealed at close; null while the batch is open (the campaign's then). */
  sealed_r: number | null;
  sealed_t: number | null;
  origins: PassageOrigin[];
  /** An evidence set's members (page order) and each one's page and paragraphs; null for a single passage. */
  set_members: SetMember[] | null;
  members: MemberRow[] | null;
  /** The coordinator's live decision, which overrides the vote (quality/adjudication.ts). */
  adjudication?: AdjudicationView;
}

export type OutcomePassage = PassageRow & { outcome: PassageOutcome };

/** A counted judgment's highlight: its span columns (a set's member 0), and a set's highlight per member. */
export type HighlightRow = Pick<
  JudgmentRow,
  "passage_id" | "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character" | "span_text"
> & { member_spans: MemberSpan[] | null };

/** An exported provenance item whose text holds none of its question's normalised answers (the export report lists them). */
export interface SpanWithoutAnswer {
  queryId: string;
  passageId: number;
  wikipediaId: string;
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
}

export interface EntryContext {
  campaignId: number;
  t: number;
  location: "span" | "passage";
  rule: EndorsementRule;
  kiltId: string;
  answers: string[];
  withoutAnswer: SpanWithoutAnswer[];
}

/** One paragraph range of a page: a single passage, or one member of a set. */
interface Range {
  wikipediaId: string;
  title: string;
  start: number;
  end: number;
  paragraphs: string[];
  headerAbove: string | null;
}

function rangesOf(p: PassageRow): Range[] {
  if (!p.members || !p.set_members) {
    const own = { start: p.start_paragraph_id, end: p.end_paragraph_id, paragraphs: p.paragraphs, headerAbove: p.header_above };
    return [{ wikipediaId: p.wikipedia_id, title: p.title, ...own }];
  }
  return p.members.map((m, i) => ({
    wikipediaId: m.wikipedia_id,
    title: m.title,
    start: m.start,
    end: p.set_members![i]?.endParagraphId ?? m.start + m.paragraphs.length - 1,
    paragraphs: m.paragraphs,
    headerAbove: m.header_above,
  }));
}

/** Member `i`'s highlights of the endorsing judgments (a single passage: its spans), with their texts. */
function highlightsIn(p: PassageRow, highlights: HighlightRow[], i: number): { locations: Location[]; texts: (string | null)[] } {
  if (!p.set_members) {
    const locations = highlights.map((h) => spanOf(h)).filter((l): l is Location => l !== null);
    return { locations, texts: highlights.map((h) => h.span_text) };
  }
  const spans = highlights.map((h) => h.member_spans?.[i]).filter((s): s is MemberSpan => s !== undefined);
  return { locations: spans.map(({ text: _, ...l }) => l), texts: spans.map((s) => s.text) };
}

/**
 * Where range `r` is exported: the adjudicated span when given, else the consensus of `locations`
 * (widened to an answer an endorser highlighted, consensus-answer.ts), else the whole range with -1
 * characters; with its section and whether it holds an answer (null: the question has none).
 */
function locate(r: Range, locations: Location[], adjudicated: Location | undefined, ctx: EntryContext) {
  const shape = { startParagraphId: r.start, paragraphLengths: r.paragraphs.map(codePointLength) };
  const consensus =
    ctx.location === "span" && !adjudicated ? consensusKeepingAnswer(shape, r.paragraphs, locations, ctx.t, ctx.answers) : undefined;
  const where: Location = adjudicated ??
    consensus?.location ?? { startParagraphId: r.start, startCharacter: -1, endParagraphId: r.end, endCharacter: -1 };
  // The section of the span's first paragraph: a header inside the range before it, else the header
  // above the range, else the lead. (A stand-in title at index 0, as in a page.)
  const section = sectionOf(["", r.headerAbove ?? "", ...r.paragraphs], where.startParagraphId - r.start + 2);
  // Whether it holds an answer: found while the consensus was made, else read from the text.
  const holds =
    consensus?.location && consensus.holds !== null ? consensus.holds : locationHoldsAnswer(shape, r.paragraphs, where, ctx.answers);
  return { where, section, holds };
}

/**
 * One endorsed passage as a KILT output entry (JSON text): `{"provenance": [item]}` for a single
 * passage, one item per member (page order) for an evidence set, each located by the consensus of
 * the endorsing highlights in it. An adjudicated span replaces the consensus of a single passage
 * (adjudication refuses a span on a set).
 * When no item's text holds an answer, the first item is listed in `ctx.withoutAnswer`.
 */
export function provenanceEntry(p: PassageRow, highlights: HighlightRow[], ctx: EntryContext): string {
  const ranges = rangesOf(p);
  const located = ranges.map((r, i) => {
    const { locations, texts } = highlightsIn(p, highlights, i);
    const adjudicated = ctx.location === "span" && !p.set_members ? locationOf(p.adjudication?.span) : undefined;
    const place = locate(r, locations, adjudicated, ctx);
    return { r, texts, ...place };
  });
  if (located.every((l) => l.holds === false)) {
    const { where, r } = located[0]!;
    ctx.withoutAnswer.push({ queryId: ctx.kiltId, passageId: Number(p.id), wikipediaId: r.wikipediaId, ...where });
  }
  const items = located.map(({ r, texts, where, section }, i) => ({
    wikipedia_id: r.wikipediaId,
    title: r.title,
    section,
    start_paragraph_id: where.startParagraphId,
    start_character: where.startCharacter,
    end_paragraph_id: where.endParagraphId,
    end_character: where.endCharacter,
    bleu_score: -1,
    meta: {
      evidence_span: texts,
      passage: { start_paragraph_id: r.start, end_paragraph_id: r.end },
      // An evidence set's member: which of how many (all are needed together).
      ...(p.set_members ? { evidence_set: { member: i, members: ranges.length } } : {}),
      votes: { sufficient: p.sufficient_count, insufficient: p.judgment_count - p.sufficient_count },
      campaign: ctx.campaignId,
      batch: Number(p.batch_id),
      // What endorsed it, and how surely: its posterior (dawid-skene) or its share of sufficient votes (majority).
      aggregation: ctx.rule.aggregation,
      confidence: ctx.rule.confidence(Number(p.id), { sufficient: p.sufficient_count, judgments: p.judgment_count }),
      // A passage an annotator proposed names its origins, the proposers by pseudonym (imported passages: as before, none).
      ...(proposersOf(p.origins).length ? { origins: p.origins } : {}),
      ...(p.adjudication ? { adjudicated_by: adjudicatedByMeta(p.adjudication) } : {}),
    },
  }));
  return JSON.stringify({ provenance: items });
}

/** An adjudicated span's location (its text left aside). */
function locationOf(span: (Location & { text: string }) | null | undefined): Location | undefined {
  if (!span) return undefined;
  const { text: _, ...location } = span;
  return location;
}
