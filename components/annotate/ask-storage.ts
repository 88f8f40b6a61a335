// The Ask screen's draft (propose a passage or explain) in this browser's localStorage, per user,
// campaign and question, so a reload returns to it as it was; dropped when the answer is stored.
// Follows judging-storage.ts: versioned, checked on load, quota and disabled storage tolerated.

import type { Span } from "@/lib/kilt/words";
import type { ExplanationReason } from "@/components/api/ask";
import type { SearchMode } from "@/components/api/knowledge";
import { storage } from "./judging-storage";

export type AskPath = "propose" | "explain";
export type { SearchMode };
export type { ExplanationReason };

export interface AskDraft {
  v: 1;
  userId: number;
  campaignId: number;
  /** The question's KILT id. */
  queryId: string;
  path: AskPath | null;
  /** The search box and its mode. */
  q: string;
  mode: SearchMode;
  /** The page opened from the results (its Wikipedia id), or null. */
  page: string | null;
  /** The paragraphs picked (ids, inclusive), or null. */
  range: { start: number; end: number } | null;
  /** True once the paragraphs are chosen: the highlight step. */
  highlighting: boolean;
  /** The highlight as a KILT location (code points); its text is recomputed from the page. */
  span: Omit<Span, "text"> | null;
  /**
   * A first passage kept while a second is found (a proposal of passages from two pages,
   * sufficient together): its page, title, paragraphs and highlight. Absent in older drafts.
   */
  first?: ProposedFirst | null;
  reason: ExplanationReason | null;
  text: string;
  savedAt: number;
}

/** The first passage of a two-passage proposal, as kept in the draft. */
export interface ProposedFirst {
  page: string;
  title: string;
  range: { start: number; end: number };
  span: Span;
}

const PREFIX = "kps:ask:";
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const keyOf = (userId: number, campaignId: number, queryId: string) => `${PREFIX}${userId}:${campaignId}:${queryId}`;

export function newAskDraft(userId: number, campaignId: number, queryId: string): AskDraft {
  return {
    v: 1,
    userId,
    campaignId,
    queryId,
    path: null,
    q: "",
    mode: "title",
    page: null,
    range: null,
    highlighting: false,
    span: null,
    reason: null,
    text: "",
    savedAt: Date.now(),
  };
}

export function loadAskDraft(userId: number, campaignId: number, queryId: string): AskDraft | null {
  const raw = storage()?.getItem(keyOf(userId, campaignId, queryId));
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as AskDraft;
    const mine = d.v === 1 && d.userId === userId && d.campaignId === campaignId && d.queryId === queryId;
    return mine && Date.now() - d.savedAt < MAX_AGE_MS ? d : null;
  } catch {
    return null;
  }
}

export function saveAskDraft(draft: AskDraft): void {
  try {
    storage()?.setItem(keyOf(draft.userId, draft.campaignId, draft.queryId), JSON.stringify({ ...draft, savedAt: Date.now() }));
  } catch {
    // Quota exceeded or storage disabled: the draft stays in memory.
  }
}

export function dropAskDraft(userId: number, campaignId: number, queryId: string): void {
  try {
    storage()?.removeItem(keyOf(userId, campaignId, queryId));
  } catch {
    // storage disabled
  }
}
