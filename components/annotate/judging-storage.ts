// What the judging screen keeps in this browser's localStorage: drafts (what the annotator has done
// on a claim, kept until the server acknowledges it), question numbers, and instructions seen.

import type { JudgmentFlag } from "@/lib/campaign/annotate/judgments.contract";
import type { Span } from "@/lib/kilt/words";
import type { FactLabel } from "@/lib/kilt/task-kind";
import type { JudgmentBody, Verdict } from "@/components/api/annotate";

export interface Draft {
  /** 2: keyed by the claim's handle (1 was keyed by its database id, and is dropped). */
  v: 2;
  campaignId: number;
  /** The claim's handle. */
  claim: string;
  verdict: Verdict | null;
  unreadable: boolean;
  /** The highlight as a KILT location (code points); its text is recomputed from the passage. Null on an evidence set (`spans`). */
  span: Omit<Span, "text"> | null;
  /** An evidence set: the highlight of each member, in member order (null: none yet); absent on a single passage. */
  spans?: (Omit<Span, "text"> | null)[];
  /** An evidence set: the member the keys act on and a phone shows (absent: the first). */
  member?: number;
  idempotencyKey: string;
  /** When the task appeared (ms since the epoch): durationMs counts from here, across reloads. */
  startedAt: number;
  /** The body being submitted: frozen until the server answers, so a retry sends the same body with the same key. */
  pending: JudgmentBody | null;
  /** Issue 14: a comment for the coordinators and flags (absent: none). */
  comment?: string;
  flags?: JudgmentFlag[];
  /** Fact checking: the label of a sufficient verdict (absent: none). */
  label?: FactLabel | null;
}

const DRAFT_PREFIX = "kps:draft:";
const DRAFT_MAX_AGE_MS = 3 * 24 * 3600 * 1000;
const draftKey = (campaignId: number, claim: string) => `${DRAFT_PREFIX}${campaignId}:${claim}`;

/** This browser's localStorage, or null where it is disabled (then drafts live only in memory). */
export function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled: drafts live only in memory
  }
}

export function loadDraft(campaignId: number, claim: string): Draft | null {
  const raw = storage()?.getItem(draftKey(campaignId, claim));
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as Draft;
    return d.v === 2 && d.claim === claim && d.campaignId === campaignId ? d : null;
  } catch {
    return null;
  }
}

export function saveDraft(draft: Draft): void {
  try {
    storage()?.setItem(draftKey(draft.campaignId, draft.claim), JSON.stringify(draft));
  } catch {
    // Quota exceeded or storage disabled: the draft stays in memory.
  }
}

export function dropDraft(campaignId: number, claim: string): void {
  storage()?.removeItem(draftKey(campaignId, claim));
}

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The time since `startedAt`, as a judgment's `durationMs` says it: whole milliseconds, under the server's bound of a day. */
export function durationSince(startedAt: number): number {
  return Math.min(Math.max(0, Math.round(Date.now() - startedAt)), 24 * 3600 * 1000 - 1);
}

export function newDraft(campaignId: number, claim: string): Draft {
  return {
    v: 2,
    campaignId,
    claim,
    verdict: null,
    unreadable: false,
    span: null,
    idempotencyKey: newIdempotencyKey(),
    startedAt: Date.now(),
    pending: null,
  };
}

/** Drafts of this campaign other than the given claims (a submission cut off by a reload, or a lapsed claim). */
export function otherDrafts(campaignId: number, except: string[]): Draft[] {
  const s = storage();
  if (!s) return [];
  const out: Draft[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(`${DRAFT_PREFIX}${campaignId}:`)) continue;
    const claim = key.slice(`${DRAFT_PREFIX}${campaignId}:`.length);
    if (except.includes(claim)) continue;
    const d = loadDraft(campaignId, claim);
    if (d) out.push(d);
    else s.removeItem(key);
  }
  return out;
}

/** Forgets drafts older than a few days, whatever their campaign. */
export function sweepOldDrafts(): void {
  const s = storage();
  if (!s) return;
  const stale: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (!key?.startsWith(DRAFT_PREFIX)) continue;
    try {
      const d = JSON.parse(s.getItem(key) ?? "") as Draft;
      if (!(Date.now() - d.startedAt < DRAFT_MAX_AGE_MS)) stale.push(key);
    } catch {
      stale.push(key);
    }
  }
  for (const key of stale) s.removeItem(key);
}

/**
 * "Question N": the questions this browser has shown in the campaign, in order (the API sends no
 * question number, and its counts are the annotator's own only).
 */
export function questionNumber(campaignId: number, queryId: string): number {
  const s = storage();
  const key = `kps:questions:${campaignId}`;
  let seen: string[] = [];
  try {
    seen = JSON.parse(s?.getItem(key) ?? "[]") as string[];
  } catch {
    seen = [];
  }
  let i = seen.indexOf(queryId);
  if (i < 0) {
    seen.push(queryId);
    i = seen.length - 1;
    try {
      s?.setItem(key, JSON.stringify(seen.slice(-5000)));
    } catch {
      // ignore
    }
  }
  return i + 1;
}

/** True on the first visit to a campaign in this browser (remembered from then on); false without storage. */
export function isFirstVisit(campaignId: number): boolean {
  const key = `kps:instructions-seen:${campaignId}`;
  try {
    if (localStorage.getItem(key)) return false;
  } catch {
    return false; // storage disabled
  }
  try {
    localStorage.setItem(key, "1");
  } catch {
    // quota exceeded: shown again next time
  }
  return true;
}
