// A batch's candidates, as the KILT campaign made them: the top K of each retriever's ranking
// (`perRetriever`), kept only when they share enough tokens with a gold answer (`minAnswerOverlap`),
// merged by location with every origin kept; and what each rule did, per retriever.
import "server-only";
import type { Db } from "@/db/client";
import { AppError, invalidField } from "@/lib/errors";
import { answerTokens, normalizeAnswer, passesAnswerOverlap } from "@/lib/kilt/answer-overlap";
import { retrievalQueryOf, type TaskKind } from "@/lib/kilt/task-kind";
import type { TextRequest } from "./check-pages";
import { answerOverlapRule, type RetrieverDefault, type RetrieverReport } from "./import-batch.contract";
import type { Problems } from "./import-problems";
import { candidateDraft, candidateOf, locationKey, namedRetriever, retrieverOf, type PassageDraft } from "./passage-drafts";
import type { ImportFile, Located, ParsedQuery, Ranking } from "./read-batch-files";
import { rankingSets } from "./candidate-sets";

/** A retrieval-output file, read: its retriever (the file's name without extension) and its rankings. */
export interface CandidateFile {
  file: ImportFile;
  retriever: string;
  ranking: Map<string, Ranking>;
}

/** One candidate of one question, from one retriever. */
export interface Candidate {
  kiltId: string;
  retriever: string;
  located: Located<PassageDraft>;
  dropped: boolean;
}

/** The per-retriever counts, in the order the retrievers first appear; and which lines took which retriever for want of their own. */
export class CandidateReport {
  private readonly rows = new Map<string, RetrieverReport>();
  readonly defaults: RetrieverDefault[] = [];
  row(retriever: string): RetrieverReport {
    let r = this.rows.get(retriever);
    if (!r) this.rows.set(retriever, (r = { retriever, read: 0, droppedByRank: 0, droppedByOverlap: 0, kept: 0, merged: 0 }));
    return r;
  }
  list(): RetrieverReport[] {
    return [...this.rows.values()];
  }
}

/**
 * The retriever of a file's items that name none in `meta.retriever`: the one the coordinator gave
 * (`given`), else the single one the file's other items name, else (no item names one) the file's
 * name. When the named ones are several and none was given, each line without one is a problem. The
 * report says how many lines took which retriever, unless every item of the file went by its name.
 */
function defaultRetriever(file: CandidateFile, given: string | undefined, problems: Problems, report: CandidateReport): string {
  const named = new Set<string>();
  const unnamed: Ranking[] = [];
  for (const r of file.ranking.values()) {
    let lacks = false;
    for (const item of r.ranking) {
      const name = namedRetriever(item);
      if (name === undefined) lacks = true;
      else named.add(name);
    }
    if (lacks) unnamed.push(r);
  }
  if (unnamed.length === 0 || (named.size === 0 && given === undefined)) return file.retriever;
  if (given === undefined && named.size > 1) {
    const names = [...named].sort().join(", ");
    for (const r of unnamed)
      problems.add(
        file.file.fileName,
        r.lineNumber,
        `output[${r.entry}].provenance.meta.retriever`,
        `is missing, and the file's other lines name several retrievers (${names}): give each item its meta.retriever, or give the retriever of the lines without one (the Retriever field, kps batch import --retriever)`,
      );
    return file.retriever;
  }
  const retriever = given ?? [...named][0]!;
  report.defaults.push({ file: file.file.fileName, lines: unnamed.length, retriever });
  return retriever;
}

/**
 * The top K candidates of every ranking of every file; an id that is no question of the batch is a
 * problem. Items without `meta.retriever` count as `retriever` when given (see defaultRetriever).
 */
export function fileCandidates(
  files: CandidateFile[],
  questions: ReadonlyMap<string, ParsedQuery>,
  taskFile: string,
  options: { perRetriever: number; retriever?: string },
  problems: Problems,
  report: CandidateReport,
): Candidate[] {
  const { perRetriever } = options;
  const out: Candidate[] = [];
  for (const candidateFile of files) {
    const { file, ranking } = candidateFile;
    const fileRetriever = defaultRetriever(candidateFile, options.retriever, problems, report);
    for (const [kiltId, r] of ranking) {
      if (!questions.has(kiltId)) {
        problems.add(file.fileName, r.lineNumber, "id", `'${kiltId}' is not a question of ${taskFile}`);
        continue;
      }
      out.push(...rankingSets(kiltId, r, { file: file.fileName, fileRetriever, perRetriever }, problems, report));
      r.ranking.forEach((item, rank) => {
        if (item.set !== undefined) return; // a member of a set (rankingSets)
        const retriever = retrieverOf(item, fileRetriever);
        // A candidate marked as negative gold is kept whatever its rank: the coordinator chose it as a control.
        if (rank >= perRetriever && item.gold === undefined) {
          report.row(retriever).droppedByRank++;
          return;
        }
        report.row(retriever).read++;
        const value = candidateOf(item, rank, fileRetriever);
        out.push({
          kiltId,
          retriever,
          dropped: false,
          located: { value, file: file.fileName, line: r.lineNumber, field: `output[${r.entry}].provenance[${rank}]` },
        });
      });
    }
  }
  return out;
}

/** Ranks paragraphs of the text index for many questions' texts, each best first (lib/knowledge/retrieve.ts rankParagraphsMany). */
export type RankParagraphsMany = (
  db: Db,
  texts: string[],
  k: number,
) => Promise<{ wikipediaId: string; paragraphId: number; score: number }[][]>;

export const TEXT_RETRIEVER = "retrieval:text";

/** Questions ranked per rankMany call: each call's statements run in parallel where the database allows; progress is reported between calls. */
export const TEXT_RANK_BATCH = 128;

/**
 * The best `k` paragraphs of the text index for each question, as candidates of origin
 * `retrieval:text`. The index is queried with what the input means for the batch's kind
 * (retrievalQueryOf: the claim, "subject relation", the mention in its context, the last turns, the
 * question), not with its markers, TEXT_RANK_BATCH questions per `rankMany` call; `onProgress` hears
 * 0 of M before the first call and the count after each. The candidates are those of ranking the
 * questions one by one, in the questions' order. Without a built index, a problem naming the `retrieve` field.
 */
export async function textCandidates(
  db: Db,
  rankMany: RankParagraphsMany,
  questions: ParsedQuery[],
  search: { k: number; kind: TaskKind; onProgress?: (done: number, total: number) => void },
  report: CandidateReport,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const row = report.row(TEXT_RETRIEVER);
  search.onProgress?.(0, questions.length);
  for (let start = 0; start < questions.length; start += TEXT_RANK_BATCH) {
    const batch = questions.slice(start, start + TEXT_RANK_BATCH);
    const ranked = await rankMany(
      db,
      batch.map((q) => retrievalQueryOf(search.kind, q.input)),
      search.k,
    ).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "conflict") {
        throw invalidField(
          "retrieve",
          "build the text index first: kps knowledge index (or Build the text index on the knowledge import page)",
        );
      }
      throw error;
    });
    batch.forEach((q, j) => out.push(...questionCandidates(q, ranked[j] ?? [], row)));
    search.onProgress?.(start + batch.length, questions.length);
  }
  return out;
}

/** One question's ranked paragraphs as candidates, counted as read. */
function questionCandidates(q: ParsedQuery, best: { wikipediaId: string; paragraphId: number }[], row: RetrieverReport): Candidate[] {
  return best.map((p, i) => {
    row.read++;
    const value = candidateDraft(p.wikipediaId, p.paragraphId, p.paragraphId, {
      kind: "retriever",
      retriever: TEXT_RETRIEVER,
      rank: i + 1,
    });
    return {
      kiltId: q.kiltId,
      retriever: TEXT_RETRIEVER,
      dropped: false,
      located: { value, file: "text retrieval", line: q.lineNumber, field: `input, paragraph ${i + 1}` },
    };
  });
}

/**
 * The answer-overlap filter as a request for the passages' text while the pages are checked, by the
 * batch's kind (answerOverlapRule): each candidate of a question with answers is dropped unless
 * `passesAnswerOverlap` (one answer's token share in the passage's paragraphs start..end ≥
 * `threshold`; for slot filling the answers are the object and its aliases), or, for entity linking,
 * unless its page's title is one of the answers (Wikipedia titles), both normalised as KILT does.
 * Fact checking's answers are labels: no request, nothing dropped. A candidate at one of its
 * question's gold locations (a gold set's members included) is never dropped: gold passages are not
 * filtered, and the origin says the retriever found it. Questions without answers keep every candidate, and sets are never dropped.
 */
export function answerOverlapFilter(
  candidates: Candidate[],
  questions: ReadonlyMap<string, ParsedQuery>,
  threshold: number,
  kind: TaskKind,
): TextRequest | undefined {
  const rule = answerOverlapRule(kind);
  if (rule === "off") return undefined;
  const keeps = new Map<string, Keep | null>();
  const gold = new Map<string, Set<string>>();
  const byPassage = new Map<Located<PassageDraft>, Candidate>();
  for (const c of candidates) {
    const q = questions.get(c.kiltId)!;
    if (!keeps.has(c.kiltId)) {
      keeps.set(c.kiltId, keepOf(rule, q.answers, threshold));
      // A gold set's members count as gold places too: the second page of a two-page answer rarely holds the answer's words.
      const places = q.gold.flatMap((g) => (g.value.setMembers ?? [g.value]).map((m) => locationKey({ ...m, setMembers: null })));
      gold.set(c.kiltId, new Set(places));
    }
    // Negative gold (a candidate marked "gold": "insufficient") is a control: never filtered either; nor is a set.
    if (
      !keeps.get(c.kiltId) ||
      c.located.value.isGold ||
      c.located.value.setMembers ||
      gold.get(c.kiltId)!.has(locationKey(c.located.value))
    )
      continue;
    c.dropped = true; // until its text shows enough overlap
    byPassage.set(c.located, c);
  }
  return {
    passages: [...byPassage.keys()],
    onText: (passage, text, title) => {
      const c = byPassage.get(passage)!;
      c.dropped = !keeps.get(c.kiltId)!(text, title);
    },
  };
}

/** Whether a candidate is kept, by its passage's text and its page's title. */
type Keep = (text: string, title: string) => boolean;

/** A question's rule; null when it has no answer to compare (none left once normalised): it keeps every candidate. */
function keepOf(rule: "tokens" | "titles", answers: readonly string[], threshold: number): Keep | null {
  if (rule === "titles") {
    const titles = new Set(answers.map(normalizeAnswer).filter((t) => t !== ""));
    return titles.size ? (_text, title) => titles.has(normalizeAnswer(title)) : null;
  }
  const tokens = answers.map(answerTokens).filter((a) => a.size > 0);
  return tokens.length ? (text) => passesAnswerOverlap(tokens, text, threshold) : null;
}

/** Adds the kept candidates to their questions' passages and counts, per retriever, what was dropped, kept and merged. */
export function addKeptCandidates(candidates: Candidate[], drafts: Map<string, Located<PassageDraft>[]>, report: CandidateReport): void {
  const kept = candidates.filter((c) => !c.dropped);
  for (const c of candidates) report.row(c.retriever)[c.dropped ? "droppedByOverlap" : "kept"]++;
  const origins = new Map<string, number>();
  const key = (kiltId: string, d: PassageDraft) => `${kiltId}\u0000${locationKey(d)}`;
  for (const [kiltId, own] of drafts) for (const l of own) origins.set(key(kiltId, l.value), (origins.get(key(kiltId, l.value)) ?? 0) + 1);
  for (const c of kept) origins.set(key(c.kiltId, c.located.value), (origins.get(key(c.kiltId, c.located.value)) ?? 0) + 1);
  for (const c of kept) {
    if (origins.get(key(c.kiltId, c.located.value))! > 1) report.row(c.retriever).merged++;
    drafts.get(c.kiltId)!.push(c.located);
  }
}
