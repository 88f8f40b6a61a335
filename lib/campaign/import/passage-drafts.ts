import "server-only";
import type { PassageOrigin, SetMember } from "@/db/schema";
import type { ProvenanceItem, TaskLine } from "@/lib/kilt/schemas";

/** A passage to store: one location of one page for one query, with every origin that proposed it. */
export interface PassageDraft {
  wikipediaId: string;
  startParagraphId: number;
  endParagraphId: number;
  origins: PassageOrigin[];
  isGold: boolean;
  /** Gold only: the verdict it expects (`insufficient`: a negative control, imported or a decoy); null for a candidate. */
  expectedVerdict: "sufficient" | "insufficient" | null;
  /** An automatic decoy (lib/campaign/import/decoys.ts): negative gold, never exported. */
  isDecoy?: boolean;
  /** A gold passage crowd workers train on (the task file's `"training": true`). */
  isTraining: boolean;
  /** Shown to a worker after their training answer; only on a training passage. */
  explanation: string | null;
  expectedSpan: { startParagraphId: number; startCharacter: number; endParagraphId: number; endCharacter: number } | null;
  /** An evidence set (set-drafts.ts): every member in page order, member 0 this draft's own place; gold expected spans per member. */
  setMembers?: SetMember[] | null;
}

export interface QueryDraft {
  kiltId: string;
  input: string;
  answers: string[];
  originalLine: string;
  lineNumber: number;
  passages: PassageDraft[];
}

/** The answers of a task line, in order, without repeats. */
export function answersOf(line: TaskLine): string[] {
  return [...new Set(line.output.flatMap((o) => (o.answer === undefined ? [] : [o.answer])))];
}

/**
 * The gold passages of a task line: each provenance item becomes a gold passage over its
 * paragraph range, expecting `sufficient`, with the item's span when it gives character offsets,
 * and marked as training (with its explanation) when the item says so. An item marked
 * `"gold": "insufficient"` is negative gold: expected insufficient, without an expected span.
 */
export function goldPassagesOf(line: TaskLine): PassageDraft[] {
  const drafts: PassageDraft[] = [];
  for (const entry of line.output) {
    for (const item of entry.provenance ?? []) {
      const start = item.start_paragraph_id ?? 1;
      const end = item.end_paragraph_id ?? start;
      const hasSpan =
        item.start_paragraph_id !== undefined &&
        item.end_paragraph_id !== undefined &&
        (item.start_character ?? -1) >= 0 &&
        (item.end_character ?? -1) >= 0;
      const negative = item.gold === "insufficient";
      drafts.push({
        wikipediaId: item.wikipedia_id,
        startParagraphId: start,
        endParagraphId: end,
        origins: [{ kind: "gold" }],
        isGold: true,
        expectedVerdict: negative ? "insufficient" : "sufficient",
        isTraining: item.training === true,
        explanation: item.explanation ?? null,
        expectedSpan:
          hasSpan && !negative
            ? { startParagraphId: start, startCharacter: item.start_character!, endParagraphId: end, endCharacter: item.end_character! }
            : null,
      });
    }
  }
  return drafts;
}

/** A retrieval file's retriever: its name without the extension (`dpr.jsonl` → `dpr`). */
export function retrieverOfFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/(\.(jsonl|json|ndjson|txt))?(\.gz)?$/i, "") || base || "retriever";
}

/** A ranking item's own `meta.retriever`, when it names one. */
export function namedRetriever(item: ProvenanceItem): string | undefined {
  const name = item.meta?.retriever;
  return typeof name === "string" && name.trim() !== "" ? name : undefined;
}

/** A ranking item's retriever: its `meta.retriever` when given, else its file's. */
export function retrieverOf(item: ProvenanceItem, fileRetriever: string): string {
  return namedRetriever(item) ?? fileRetriever;
}

/**
 * Candidate passages from a retrieval-output ranking, top-k. An item without paragraph ids
 * (a page-level retriever) takes the page's first content paragraph, as the KILT campaign did.
 */
export function candidatePassagesOf(
  ranking: readonly (ProvenanceItem & { gold?: "insufficient" })[],
  topK: number,
  fileRetriever = "retriever",
): PassageDraft[] {
  return ranking.slice(0, topK).map((item, index) => candidateOf(item, index, fileRetriever));
}

/** The candidate of ranking item `index` (0-based); one marked `"gold": "insufficient"` is negative gold. */
export function candidateOf(item: ProvenanceItem & { gold?: "insufficient" }, index: number, fileRetriever: string): PassageDraft {
  const start = item.start_paragraph_id ?? 1;
  const draft = candidateDraft(item.wikipedia_id, start, item.end_paragraph_id ?? start, {
    kind: "retriever",
    retriever: retrieverOf(item, fileRetriever),
    rank: index + 1,
  });
  return item.gold === "insufficient" ? { ...draft, isGold: true, expectedVerdict: "insufficient" } : draft;
}

/** A candidate passage: not gold, one origin. */
export function candidateDraft(wikipediaId: string, startParagraphId: number, endParagraphId: number, origin: PassageOrigin): PassageDraft {
  return {
    wikipediaId,
    startParagraphId,
    endParagraphId,
    origins: [origin],
    isGold: false,
    expectedVerdict: null,
    isTraining: false,
    explanation: null,
    expectedSpan: null,
  };
}

/** The key of a passage's location: same page and paragraph range (and, for a set, the same other members), same passage. */
export function locationKey(d: Pick<PassageDraft, "wikipediaId" | "startParagraphId" | "endParagraphId" | "setMembers">): string {
  const others = (d.setMembers ?? []).slice(1).map((m) => `${m.wikipediaId}:${m.startParagraphId}-${m.endParagraphId}`);
  return `${d.wikipediaId}\u0000${d.startParagraphId}\u0000${d.endParagraphId}\u0000${others.join("|")}`;
}

/** Merges passages proposed more than once (same page and range): one passage, all its origins. */
export function mergePassages(drafts: readonly PassageDraft[]): PassageDraft[] {
  const byLocation = new Map<string, PassageDraft>();
  for (const d of drafts) {
    const key = locationKey(d);
    const seen = byLocation.get(key);
    if (!seen) {
      byLocation.set(key, { ...d, origins: [...d.origins] });
      continue;
    }
    seen.origins.push(...d.origins);
    if (d.isGold) {
      seen.isGold = true;
      // Sufficient and negative gold at one location are refused at import (conflictingGold); sufficient wins here.
      seen.expectedVerdict = seen.expectedVerdict === "sufficient" || d.expectedVerdict === "sufficient" ? "sufficient" : d.expectedVerdict;
      seen.isDecoy ||= d.isDecoy ?? false;
      seen.expectedSpan ??= d.expectedSpan;
      seen.isTraining ||= d.isTraining;
      seen.explanation ??= d.explanation;
      if (d.setMembers) seen.setMembers = d.setMembers; // the gold set's members carry its expected spans
    }
  }
  return [...byLocation.values()];
}

/**
 * Gold of one question that expects both verdicts at one location (a provenance item as evidence,
 * another item or a candidate marked `"gold": "insufficient"` there): each later such draft, for a
 * problem naming its file, line and field, with the first one's field.
 */
export function conflictingGold<T extends { value: PassageDraft; field: string }>(drafts: readonly T[]): { draft: T; other: T }[] {
  const firstOf = new Map<string, Map<string, T>>();
  const out: { draft: T; other: T }[] = [];
  for (const d of drafts) {
    if (!d.value.isGold || !d.value.expectedVerdict) continue;
    const key = locationKey(d.value);
    const seen = firstOf.get(key) ?? new Map<string, T>();
    firstOf.set(key, seen);
    const other = [...seen.entries()].find(([verdict]) => verdict !== d.value.expectedVerdict)?.[1];
    if (other) out.push({ draft: d, other });
    if (!seen.has(d.value.expectedVerdict)) seen.set(d.value.expectedVerdict, d);
  }
  return out;
}
