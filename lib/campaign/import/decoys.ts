// Automatic decoys: negative gold made at import. A decoy is one content paragraph of a page that a
// question's passages come from, holding none of the question's normalised answer tokens (KILT's
// normalize_answer, lib/kilt/answer-overlap.ts), and not already one of that question's passages. It is
// stored as gold expected insufficient, `is_decoy`, origin {kind: "decoy"}, hidden among the
// question's passages like any gold, and never exported.
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { sha256 } from "@/lib/auth/crypto";
import { answerTokens } from "@/lib/kilt/answer-overlap";
import { seededRandom } from "@/lib/seeded-random";
import { mergePassages, type PassageDraft } from "./passage-drafts";
import type { Located, ParsedQuery } from "./read-batch-files";

/** The batch's seed: from its questions (ids, inputs, answers), so the same batch gets the same decoys in any campaign. */
export function decoySeed(questions: readonly ParsedQuery[]): number {
  const digest = sha256(JSON.stringify(questions.map((q) => [q.kiltId, q.input, q.answers])));
  return Number.parseInt(digest.slice(0, 8), 16);
}

/** How many decoys a batch of `passages` passages gets at `per100` decoys per 100 passages (rounded, at least 1 when per100 > 0 and there are passages). */
export function decoyTarget(passages: number, per100: number): number {
  if (per100 <= 0 || passages <= 0) return 0;
  return Math.max(1, Math.round((passages * per100) / 100));
}

/** A content paragraph may be a decoy: not the title (0), not a `Section::::` header, not blank or a bullet marker alone. */
export function isContentParagraph(index: number, text: string): boolean {
  if (index === 0) return false;
  const t = text.trim();
  if (t.startsWith("Section::::")) return false;
  return /[\p{L}\p{N}]/u.test(t) && Array.from(t).length >= 20;
}

/** Whether a paragraph holds any of the answer tokens (normalised as KILT does). */
export function holdsAnswerToken(text: string, answerTokenSet: ReadonlySet<string>): boolean {
  for (const token of answerTokens(text)) if (answerTokenSet.has(token)) return true;
  return false;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface Eligible {
  query: ParsedQuery;
  tokens: Set<string>;
  pages: string[];
  /** Paragraphs of each page inside one of the question's passages: never a decoy. */
  taken: Map<string, { start: number; end: number }[]>;
}

/**
 * Adds about `per100` decoys per 100 of the batch's passages to `drafts` (per question, KILT id →
 * its passages), spread over the questions: the questions with answers, in a seeded order, one
 * decoy each, then a second round, until the target is reached or no question has a paragraph left.
 * Returns how many it made. Pages are read a chunk of questions at a time.
 */
export async function addDecoys(
  db: Db,
  input: { questions: readonly ParsedQuery[]; drafts: Map<string, Located<PassageDraft>[]>; per100: number },
): Promise<number> {
  const passageCount = [...input.drafts.values()].reduce((n, own) => n + mergePassages(own.map((l) => l.value)).length, 0);
  const target = decoyTarget(passageCount, input.per100);
  if (target === 0) return 0;
  const random = seededRandom(decoySeed(input.questions));
  const eligible: Eligible[] = [];
  for (const query of input.questions) {
    const tokens = new Set(query.answers.flatMap((a) => [...answerTokens(a)]));
    const own = input.drafts.get(query.kiltId) ?? [];
    if (tokens.size === 0 || own.length === 0) continue;
    const taken = new Map<string, { start: number; end: number }[]>();
    for (const l of own) {
      const list = taken.get(l.value.wikipediaId) ?? [];
      list.push({ start: l.value.startParagraphId, end: l.value.endParagraphId });
      taken.set(l.value.wikipediaId, list);
    }
    eligible.push({ query, tokens, pages: [...taken.keys()].sort(), taken });
  }
  let order = shuffled(eligible, random);
  let made = 0;
  // Rounds: each question still holding a free paragraph gets at most one decoy per round.
  while (made < target && order.length) {
    const next: Eligible[] = [];
    for (let i = 0; i < order.length && made < target;) {
      const chunk = order.slice(i, i + Math.min(50, target - made));
      i += chunk.length;
      const paragraphs = await readParagraphs(db, [...new Set(chunk.flatMap((e) => e.pages))]);
      for (const e of chunk) {
        const decoy = pickDecoy(e, paragraphs, random);
        if (!decoy) continue;
        input.drafts.get(e.query.kiltId)!.push({ value: decoy, file: "decoys", line: e.query.lineNumber, field: "decoy" });
        e.taken.get(decoy.wikipediaId)!.push({ start: decoy.startParagraphId, end: decoy.endParagraphId });
        made++;
        next.push(e);
      }
    }
    order = next;
  }
  return made;
}

/** One paragraph of the question's pages fit to be its decoy, chosen at random; undefined when none is left. */
function pickDecoy(e: Eligible, paragraphs: ReadonlyMap<string, string[]>, random: () => number): PassageDraft | undefined {
  const options: { wikipediaId: string; index: number }[] = [];
  for (const wikipediaId of e.pages) {
    const texts = paragraphs.get(wikipediaId) ?? [];
    const taken = e.taken.get(wikipediaId) ?? [];
    texts.forEach((text, index) => {
      if (!isContentParagraph(index, text) || taken.some((t) => t.start <= index && index <= t.end)) return;
      if (!holdsAnswerToken(text, e.tokens)) options.push({ wikipediaId, index });
    });
  }
  if (!options.length) return undefined;
  const { wikipediaId, index } = options[Math.floor(random() * options.length)]!;
  return {
    wikipediaId,
    startParagraphId: index,
    endParagraphId: index,
    origins: [{ kind: "decoy" }],
    isGold: true,
    expectedVerdict: "insufficient",
    isDecoy: true,
    isTraining: false,
    explanation: null,
    expectedSpan: null,
  };
}

async function readParagraphs(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  if (!ids.length) return new Map();
  const rows = rowsOf<{ wikipedia_id: string; paragraphs: string[] }>(
    await db.execute(sql`select wikipedia_id, paragraphs from pages where wikipedia_id = any(${sql.param(ids)}::text[])`),
  );
  return new Map(rows.map((r) => [r.wikipedia_id, r.paragraphs]));
}
