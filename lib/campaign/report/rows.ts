import "server-only";
import type { JudgmentFlag, Verdict } from "@/db/schema";
import type { Location } from "@/lib/kilt/codepoints";
import { passageOutcome, type OutcomeSettings, type PassageOutcome } from "../quality/outcome";

// Rows as the report queries read them with raw SQL: snake_case; bigint ids arrive as numbers or
// strings depending on the driver, times as strings or dates.

/** A judgment's own columns (the judgments export and the question view add what they need). */
export interface JudgmentRow {
  id: string | number;
  passage_id: string | number;
  verdict: Verdict;
  unreadable: boolean;
  start_paragraph_id: number | null;
  start_character: number | null;
  end_paragraph_id: number | null;
  end_character: number | null;
  span_text: string | null;
  /** The time the server measured (never the client's hint, client_duration_ms). */
  duration_ms: number;
  created_at: string | Date;
}

/** The judgment's span as a location; null for an insufficient verdict. */
export function spanOf(
  j: Pick<JudgmentRow, "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character">,
): Location | null {
  return j.start_paragraph_id === null
    ? null
    : {
        startParagraphId: j.start_paragraph_id,
        startCharacter: j.start_character!,
        endParagraphId: j.end_paragraph_id!,
        endCharacter: j.end_character!,
      };
}

/** The judgment's span with its text (as the annotator API sends it); null for an insufficient verdict. */
export function spanWithTextOf(
  j: Pick<JudgmentRow, "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character" | "span_text">,
): (Location & { text: string }) | null {
  const location = spanOf(j);
  return location && j.span_text !== null ? { ...location, text: j.span_text } : null;
}

/** A judgment's version as the revision and the history read it: its own columns and notes. */
export type JudgmentVersionRow = Omit<JudgmentRow, "id" | "passage_id" | "created_at"> & {
  comment: string | null;
  flags: JudgmentFlag[];
  revision: number;
};

/** The passage columns its outcome is read from. */
export interface PassageOutcomeRow {
  judgment_count: number;
  sufficient_count: number;
  is_decided: boolean;
  is_gold: boolean;
  expected_verdict: Verdict | null;
}

export function outcomeOfRow(p: PassageOutcomeRow, settings: Omit<OutcomeSettings, "earlyStop">): PassageOutcome {
  return passageOutcome(
    {
      judgmentCount: p.judgment_count,
      sufficientCount: p.sufficient_count,
      isDecided: p.is_decided,
      isGold: p.is_gold,
      expectedVerdict: p.expected_verdict,
    },
    settings,
  );
}

/** Rows by a numeric key, each group in the rows' order. */
export function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
