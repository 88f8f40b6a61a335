// A campaign's annotators as the coordinator's screens see them: the annotators table, one
// annotator's page (figures, warnings, judgments) and the dashboard's warnings.
import type { Location } from "@/lib/kilt/codepoints";

/** One row of a campaign's annotators table: their tallies and standing. */
export interface AnnotatorRow {
  userId: number;
  username: string;
  status: "active" | "paused";
  pauseReason: "coordinator" | "gold_rule" | "speed_rule" | null;
  judgments: number;
  /** Every gold judgment (both kinds) and the right ones. */
  goldJudged: number;
  goldCorrect: number;
  /** (0.5 + correct) / (1 + judged), over both kinds */
  goldAccuracy: number;
  /** Of those, on sufficient gold (the span check applies) … */
  sufficientGoldJudged: number;
  sufficientGoldCorrect: number;
  /** … and on negative gold (expected insufficient, decoys included). The gold rule weighs each kind apart. */
  negativeGoldJudged: number;
  negativeGoldCorrect: number;
  /** Share of judgments on finished passages whose verdict matches the outcome; null before any. */
  agreement: number | null;
  compared: number;
  medianSeconds: number | null;
  shareUnder2s: number | null;
}

/** The campaign's warning thresholds (campaigns.warn_*). */
export interface WarningThresholds {
  warnFastShare: number;
  warnMinAgreement: number;
  warnMinJudgments: number;
}

export type AnnotatorWarning = { kind: "fast"; shareUnder2s: number } | { kind: "agreement"; agreement: number };

export interface AnnotatorDetail {
  campaign: { id: number; name: string } & WarningThresholds;
  annotator: AnnotatorRow;
  warnings: AnnotatorWarning[];
  /** Judgments per speed bin (from the duration tallies). */
  speed: { fromSeconds: number; toSeconds: number | null; judgments: number }[];
  /** Per UTC day with judgments: how many, how many compared with the outcome, how many agreed. */
  agreementByDay: { day: string; judgments: number; compared: number; agreed: number }[];
}

/** One member of an evidence set as the coordinator's pages show it: its page, paragraphs and (gold) expected span. */
export interface SetMemberView {
  wikipediaId: string;
  title: string;
  startParagraphId: number;
  endParagraphId: number;
  paragraphs: { id: number; text: string }[];
  expectedSpan: Location | null;
}

/** A set judgment's highlight in one member (code points, end exclusive), with its text. */
export type MemberSpanView = Location & { text: string };

/** A judgment's verdict and highlights, as the coordinator's pages show them (the question view, the annotator page). */
export interface JudgedVerdict {
  verdict: "sufficient" | "insufficient";
  unreadable: boolean;
  span: Location | null;
  spanText: string | null;
  /** "Part of the evidence": stored as insufficient with its `span`. */
  partial: boolean;
  /** An evidence set's sufficient judgment: its highlight per member (the span is member 0's); null otherwise. */
  memberSpans: MemberSpanView[] | null;
}

export interface AnnotatorJudgment extends JudgedVerdict {
  id: number;
  createdAt: string;
  durationMs: number;
  /** Whether it matches the passage's outcome; null while the passage is not finished. */
  agrees: boolean | null;
  query: { id: number; kiltId: string; input: string };
  /** The passage (an evidence set's: member 0), and a set's members in page order (null for a single passage). */
  passage: { id: number; wikipediaId: string; title: string; paragraphs: { id: number; text: string }[]; members: SetMemberView[] | null };
  /** Gold passages only: the expected verdict and span, and whether this judgment got it right (the gold rule's check). */
  gold: { expectedVerdict: "sufficient" | "insufficient"; expectedSpan: Location | null; correct: boolean } | null;
}

/** A flagged annotator on the dashboard. */
export interface FlaggedAnnotator {
  userId: number;
  username: string;
  judgments: number;
  warnings: AnnotatorWarning[];
}
