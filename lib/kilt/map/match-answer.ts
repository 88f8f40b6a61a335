/**
 * KILT's `match_answer` (kilt/kilt_utils.py, facebookresearch/KILT) with `nlp=None`: where in a page
 * a piece of evidence given as text lies. An exact find first, paragraph by paragraph; then the
 * paragraphs sharing the most tokens with it; then the span of those with the best BLEU.
 */
import { codePointLength } from "../codepoints";
import { isNotBlank } from "./bleu";
import { answerTokensOf, normalizeAnswer, paragraphTokenOf, splitTokens } from "./normalize";
import { goldModelOf } from "./gold-model";
import { searchSpans, type SearchState } from "./span-search";

export interface EvidenceMatch {
  paragraphId: number;
  bleu: number;
  /**
   * Code points in that paragraph, end exclusive. Found as text: KILT's start, and the end of the
   * text found (KILT adds the evidence's own length, which differs when the normalised text was
   * found). Found by tokens: the first and last chosen tokens' offsets in the raw paragraph (KILT
   * gives -1, or 0 and a token's length on its exact token match).
   */
  startCharacter: number;
  endCharacter: number;
  /** Found as text by KILT's substring find (BLEU 1); false: located by its tokens. */
  exact: boolean;
}

/** KILT's `MAX_PARAGRAPH_CANDIDATE`: tied groups of paragraphs are taken until at least this many. */
const CANDIDATES = 3;

interface Paragraph {
  tokens: string[];
  /** Code-point offsets of each token's first character in the raw paragraph, and one past its last. */
  starts: number[];
  ends: number[];
}

/**
 * A page's paragraphs, each tokenised the first time a search reaches it and kept: mapping many
 * pieces of evidence to one page tokenises it once (KILT does it again for each).
 */
export class PreparedPage {
  private readonly prepared: (Paragraph | undefined)[] = [];
  constructor(readonly paragraphs: readonly string[]) {}

  paragraph(idx: number): Paragraph {
    let p = this.prepared[idx];
    if (!p) {
      const raw = splitTokens(this.paragraphs[idx]!);
      const tokens = raw.map((t) => paragraphTokenOf(t.text));
      this.prepared[idx] = p = { tokens, starts: raw.map((t) => t.start), ends: raw.map((t) => t.end) };
    }
    return p;
  }
}

function findText(paragraph: string, answer: string, evidence: string): { start: number; end: number } | null {
  for (const needle of [answer, evidence]) {
    const at = paragraph.indexOf(needle);
    if (at >= 0) {
      const start = codePointLength(paragraph.slice(0, at));
      return { start, end: start + codePointLength(needle) };
    }
  }
  return null;
}

/**
 * KILT's `len(set(paragraph_tokens).intersection(set(answer_tokens)))`, without a set per paragraph:
 * `stamps` holds each answer token with the last paragraph it was counted in.
 */
function intersectionSize(tokens: readonly string[], stamps: Map<string, number>, idx: number): number {
  let n = 0;
  for (const t of tokens) {
    const stamp = stamps.get(t);
    if (stamp !== undefined && stamp !== idx) {
      stamps.set(t, idx);
      n++;
    }
  }
  return n;
}

/**
 * KILT's first exact token match (the tokens other than blank ones, in order, from a token equal to
 * the answer's first to one equal to its last): the first and last token indexes, or null.
 */
function tokenRunOf(tokens: readonly string[], answerTokens: readonly string[]): [number, number] | null {
  const words = answerTokens.filter(isNotBlank);
  const first = answerTokens[0];
  const last = answerTokens[answerTokens.length - 1];
  for (let s = 0; s < tokens.length; s++) {
    if (tokens[s] !== first) continue;
    let k = 0;
    for (let e = s; e < tokens.length; e++) {
      const t = tokens[e]!;
      if (isNotBlank(t)) {
        if (k < words.length && t === words[k]) k++;
        else break;
      }
      if (k === words.length && t === last) return [s, e];
    }
  }
  return null;
}

function indexOfSequence(tokens: readonly string[], answerTokens: readonly string[]): number {
  outer: for (let i = 0; i + answerTokens.length <= tokens.length; i++) {
    for (let j = 0; j < answerTokens.length; j++) if (tokens[i + j] !== answerTokens[j]) continue outer;
    return i;
  }
  return -1;
}

function candidatesOf(groups: Map<number, number[]>): number[] {
  const candidates: number[] = [];
  for (const key of [...groups.keys()].sort((a, b) => b - a)) {
    candidates.push(...groups.get(key)!);
    if (candidates.length >= CANDIDATES) break;
  }
  return candidates;
}

function tokenMatch(p: Paragraph, paragraphId: number, bleu: number, start: number, end: number): EvidenceMatch {
  return { paragraphId, bleu, startCharacter: p.starts[start]!, endCharacter: p.ends[end]!, exact: false };
}

/**
 * The paragraph and BLEU KILT's `match_answer` gives `evidence` in a page of `paragraphs`, with the
 * code-point offsets of the text found (or of the tokens chosen, where KILT gives -1). null when the
 * page has no paragraph, or where KILT's function raises (evidence with no token but blank ones, a
 * page with no token in its candidate paragraphs).
 */
export function matchAnswer(paragraphs: readonly string[], evidence: string): EvidenceMatch | null {
  return matchAnswerIn(new PreparedPage(paragraphs), evidence);
}

/** `matchAnswer` on a prepared page (its paragraphs tokenised once for all the evidence mapped to it). */
export function matchAnswerIn(page: PreparedPage, evidence: string): EvidenceMatch | null {
  const answer = normalizeAnswer(evidence);
  const answerTokens = answerTokensOf(evidence);
  const stamps = new Map(answerTokens.map((t) => [t, -1]));
  const groups = new Map<number, number[]>();
  for (const [idx, text] of page.paragraphs.entries()) {
    const found = findText(text, answer, evidence);
    if (found) return { paragraphId: idx, bleu: 1, startCharacter: found.start, endCharacter: found.end, exact: true };
    if (answerTokens.length === 0) continue;
    const p = page.paragraph(idx);
    const intersection = intersectionSize(p.tokens, stamps, idx);
    if (intersection === answerTokens.length) {
      const run = tokenRunOf(p.tokens, answerTokens);
      if (run) return tokenMatch(p, idx, 1, run[0], run[1]);
    }
    const group = groups.get(intersection);
    if (group) group.push(idx);
    else groups.set(intersection, [idx]);
  }
  if (answerTokens.length === 0) return null;
  return searchCandidates(page, candidatesOf(groups), answerTokens);
}

function searchCandidates(page: PreparedPage, candidates: readonly number[], answerTokens: readonly string[]): EvidenceMatch | null {
  const gold = answerTokens.filter(isNotBlank);
  const model = gold.length > 0 ? goldModelOf(gold) : null;
  const state: SearchState = { bleu: null, paragraphId: -1, start: -1, end: -1 };
  let found = false;
  for (const idx of candidates) {
    const tokens = page.paragraph(idx).tokens;
    const at = indexOfSequence(tokens, answerTokens);
    if (at >= 0) {
      found = true;
      Object.assign(state, { bleu: 1, paragraphId: idx, start: at, end: at + answerTokens.length - 1 });
    }
    if (found) continue;
    if (!model) return null;
    if (searchSpans(tokens, model, state, idx)) break;
  }
  if (state.bleu === null) return null;
  return tokenMatch(page.paragraph(state.paragraphId), state.paragraphId, state.bleu, state.start, state.end);
}
