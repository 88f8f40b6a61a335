// Automatic decoys: negative gold made at import. A decoy is one paragraph the question's answer
// cannot be found in, by its kind's rule (decoy-rules.ts): for QA, slot filling and dialogue a content
// paragraph of one of the question's pages holding none of its normalised answer tokens (KILT's
// normalize_answer, lib/kilt/answer-overlap.ts); for fact checking one holding none of the claim's
// content words; for entity linking the lead of another page of the batch, not titled by an answer.
// Never one of that question's passages already. It is stored as gold expected insufficient,
// `is_decoy`, origin {kind: "decoy"}, hidden among the question's passages like any gold, and never
// exported.
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { sha256 } from "@/lib/auth/crypto";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { seededRandom } from "@/lib/seeded-random";
import { forbiddenOf, holdsAnswerToken, isContentParagraph, isOtherEntity } from "./decoy-rules";
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
  /** What a decoy must not hold (tokens), or for entity linking the normalised titles its page must not have. */
  forbidden: Set<string>;
  /** The pages of the question's own passages, sorted. */
  pages: string[];
  /** Paragraphs of each page inside one of the question's passages (decoys included): never a decoy. */
  taken: Map<string, { start: number; end: number }[]>;
}

interface PageText {
  title: string;
  paragraphs: string[];
}

/** Entity linking's pool: every page the batch's passages come from (its lead only), and how many questions use each. */
interface LeadPool {
  pages: string[];
  users: Map<string, number>;
  texts: Map<string, PageText>;
}

type Place = { wikipediaId: string; index: number };

/**
 * Adds about `per100` decoys per 100 of the batch's passages to `drafts` (per question, KILT id →
 * its passages), spread over the questions: the questions with answers (fact checking: a claim with
 * a content word), in a seeded order, one decoy each, then a second round, until the target is
 * reached or no question has a place left. Returns how many it made. Pages are read a chunk of
 * questions at a time (entity linking: every page's lead once).
 */
export async function addDecoys(
  db: Db,
  input: { questions: readonly ParsedQuery[]; drafts: Map<string, Located<PassageDraft>[]>; per100: number; kind: TaskKind },
): Promise<number> {
  const passageCount = [...input.drafts.values()].reduce((n, own) => n + mergePassages(own.map((l) => l.value)).length, 0);
  const target = decoyTarget(passageCount, input.per100);
  if (target === 0) return 0;
  const random = seededRandom(decoySeed(input.questions));
  const eligible = eligibleQuestions(input);
  const pool = input.kind === "entity-linking" ? await leadPool(db, input.drafts) : undefined;
  let order = shuffled(eligible, random);
  let made = 0;
  // Rounds: each question still holding a free place gets at most one decoy per round.
  while (made < target && order.length) {
    const next: Eligible[] = [];
    for (let i = 0; i < order.length && made < target;) {
      const chunk = order.slice(i, i + Math.min(50, target - made));
      i += chunk.length;
      const texts = pool?.texts ?? (await readPages(db, [...new Set(chunk.flatMap((e) => e.pages))], false));
      for (const e of chunk) {
        const options = pool ? leadOptions(e, pool) : paragraphOptions(e, texts);
        if (!options.length) continue;
        const decoy = decoyDraft(options[Math.floor(random() * options.length)]!);
        input.drafts.get(e.query.kiltId)!.push({ value: decoy, file: "decoys", line: e.query.lineNumber, field: "decoy" });
        const taken = e.taken.get(decoy.wikipediaId) ?? [];
        taken.push({ start: decoy.startParagraphId, end: decoy.endParagraphId });
        e.taken.set(decoy.wikipediaId, taken);
        made++;
        next.push(e);
      }
    }
    order = next;
  }
  return made;
}

/** The questions that may get a decoy (something forbidden to go by, and passages), in file order. */
function eligibleQuestions(input: { questions: readonly ParsedQuery[]; drafts: Map<string, Located<PassageDraft>[]>; kind: TaskKind }) {
  const eligible: Eligible[] = [];
  for (const query of input.questions) {
    const forbidden = forbiddenOf(input.kind, query);
    const own = input.drafts.get(query.kiltId) ?? [];
    if (forbidden.size === 0 || own.length === 0) continue;
    const taken = new Map<string, { start: number; end: number }[]>();
    for (const m of own.flatMap((l) => l.value.setMembers ?? [l.value])) {
      const list = taken.get(m.wikipediaId) ?? [];
      list.push({ start: m.startParagraphId, end: m.endParagraphId });
      taken.set(m.wikipediaId, list);
    }
    eligible.push({ query, forbidden, pages: [...taken.keys()].sort(), taken });
  }
  return eligible;
}

function isTaken(e: Eligible, wikipediaId: string, index: number): boolean {
  return (e.taken.get(wikipediaId) ?? []).some((t) => t.start <= index && index <= t.end);
}

/** QA, slot filling, dialogue, fact checking: the free content paragraphs of the question's pages holding nothing forbidden. */
function paragraphOptions(e: Eligible, texts: ReadonlyMap<string, PageText>): Place[] {
  const options: Place[] = [];
  for (const wikipediaId of e.pages) {
    (texts.get(wikipediaId)?.paragraphs ?? []).forEach((text, index) => {
      if (!isContentParagraph(index, text) || isTaken(e, wikipediaId, index)) return;
      if (!holdsAnswerToken(text, e.forbidden)) options.push({ wikipediaId, index });
    });
  }
  return options;
}

/** Entity linking: the leads of pages other questions of the batch use, not titled by one of this question's answers, not its passages. */
function leadOptions(e: Eligible, pool: LeadPool): Place[] {
  const options: Place[] = [];
  for (const wikipediaId of pool.pages) {
    const others = pool.users.get(wikipediaId)! - (e.pages.includes(wikipediaId) ? 1 : 0);
    const page = pool.texts.get(wikipediaId);
    if (others === 0 || !page || !isContentParagraph(1, page.paragraphs[1] ?? "") || isTaken(e, wikipediaId, 1)) continue;
    if (isOtherEntity(page.title, e.forbidden)) options.push({ wikipediaId, index: 1 });
  }
  return options;
}

async function leadPool(db: Db, drafts: ReadonlyMap<string, readonly Located<PassageDraft>[]>): Promise<LeadPool> {
  const users = new Map<string, number>();
  for (const own of drafts.values()) for (const id of new Set(own.map((l) => l.value.wikipediaId))) users.set(id, (users.get(id) ?? 0) + 1);
  const pages = [...users.keys()].sort();
  return { pages, users, texts: await readPages(db, pages, true) };
}

function decoyDraft({ wikipediaId, index }: Place): PassageDraft {
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

/** The pages' titles and paragraphs (`leadOnly`: the title paragraph and the lead, 0 and 1, only). */
async function readPages(db: Db, ids: string[], leadOnly: boolean): Promise<Map<string, PageText>> {
  if (!ids.length) return new Map();
  const paragraphs = leadOnly ? sql`paragraphs[1:2]` : sql`paragraphs`;
  const rows = rowsOf<{ wikipedia_id: string; title: string; paragraphs: string[] }>(
    await db.execute(
      sql`select wikipedia_id, title, ${paragraphs} as paragraphs from pages where wikipedia_id = any(${sql.param(ids)}::text[])`,
    ),
  );
  return new Map(rows.map((r) => [r.wikipedia_id, { title: r.title, paragraphs: r.paragraphs }]));
}
