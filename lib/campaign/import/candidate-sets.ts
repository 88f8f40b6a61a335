// Candidate evidence sets: the items of one ranking sharing a `set` key (a retriever that proposes
// passages together), and, with the import's `sets: "pairs"`, every pair of each question's top
// candidate pages; and whether a batch asks for "part of the evidence" by default.
import "server-only";
import type { SetMember } from "@/db/schema";
import { datasetOfFileName, datasetOfMeta } from "@/lib/kilt/task-kind";
import type { Candidate, CandidateReport } from "./candidates";
import type { Problems } from "./import-problems";
import { candidateOf, locationKey, retrieverOf, type PassageDraft } from "./passage-drafts";
import type { Located, ParsedQuery, Ranking } from "./read-batch-files";
import { comparePlaces, MAX_SET_MEMBERS, MIN_SET_MEMBERS, setDraft, tooManyMembers } from "./set-drafts";

/** At most this many pairs per question (`sets: "pairs"`): C(6, 2), every pair of the top 6 pages. */
export const MAX_PAIRS_PER_QUESTION = 15;

/**
 * The sets of one ranking: its items grouped by their `set` value (strings and numbers alike by
 * their text), each group one candidate at the rank of its first item, of that item's retriever;
 * marked as negative gold when one of its items is. A group of 1 or more than 8 distinct places, or
 * listing one place twice, is a problem naming the file, line and field. Beyond `perRetriever` (by
 * its first item's rank), a set is dropped by rank like a single candidate.
 */
export function rankingSets(
  kiltId: string,
  r: Ranking,
  at: { file: string; fileRetriever: string; perRetriever: number },
  problems: Problems,
  report: CandidateReport,
): Candidate[] {
  const groups = new Map<string, number[]>();
  r.ranking.forEach((item, rank) => {
    if (item.set === undefined) return;
    const key = String(item.set);
    groups.set(key, [...(groups.get(key) ?? []), rank]);
  });
  const out: Candidate[] = [];
  for (const [key, ranks] of groups) {
    const fields = ranks.map((rank) => `output[${r.entry}].provenance[${rank}]`);
    const items = ranks.map((rank) => candidateOf(r.ranking[rank]!, rank, at.fileRetriever));
    const places = new Set(items.map((d) => locationKey(d)));
    const problem =
      places.size !== items.length
        ? `'${key}' lists one passage twice (the same page and paragraphs): a set's members are distinct`
        : items.length < MIN_SET_MEMBERS
          ? `'${key}' names a set of 1 item: a set holds ${MIN_SET_MEMBERS} to ${MAX_SET_MEMBERS} passages (give the others the same set, or drop the key)`
          : items.length > MAX_SET_MEMBERS
            ? tooManyMembers(items.length, `'${key}' names a set of`)
            : null;
    if (problem) {
      problems.add(at.file, r.lineNumber, `${fields[0]}.set`, problem);
      continue;
    }
    const first = r.ranking[ranks[0]!]!;
    const retriever = retrieverOf(first, at.fileRetriever);
    if (ranks[0]! >= at.perRetriever && !items.some((d) => d.isGold)) {
      report.row(retriever).droppedByRank++;
      continue;
    }
    report.row(retriever).read++;
    const origin = { kind: "retriever" as const, retriever, rank: ranks[0]! + 1 };
    const value = setDraft(items.map(placeOf), origin, items.some((d) => d.isGold) ? "insufficient" : null);
    const fieldOf = new Map(items.map((d, i) => [locationKey(d), fields[i]!]));
    const memberFields = value.setMembers!.map((m) => fieldOf.get(locationKey({ ...m, setMembers: null }))!);
    out.push({ kiltId, retriever, dropped: false, located: { value, file: at.file, line: r.lineNumber, field: fields[0]!, memberFields } });
  }
  return out;
}

function placeOf(d: PassageDraft): SetMember {
  return { wikipediaId: d.wikipediaId, startParagraphId: d.startParagraphId, endParagraphId: d.endParagraphId };
}

/** A candidate's best (lowest) rank over its origins. */
function bestRank(d: PassageDraft): number {
  return Math.min(...d.origins.map((o) => (o.kind === "retriever" ? o.rank : Number.MAX_SAFE_INTEGER)));
}

/**
 * `sets: "pairs"`: per question, its kept single candidates (not negative gold) grouped by page, each
 * page by its best candidate (lowest rank over retrievers; ties in page order); the `setPages` pages
 * with the best ranks; and every pair of two of them as a set of their two best candidates, in page
 * order, origin `pair`, at most MAX_PAIRS_PER_QUESTION per question. Returns the sets, located at the
 * first member's candidate.
 */
export function pairSets(candidates: readonly Candidate[], setPages: number): { kiltId: string; located: Located<PassageDraft> }[] {
  const pagesOf = new Map<string, Map<string, Candidate>>();
  for (const c of candidates) {
    const d = c.located.value;
    if (c.dropped || d.setMembers || d.isGold) continue;
    const pages = pagesOf.get(c.kiltId) ?? new Map<string, Candidate>();
    pagesOf.set(c.kiltId, pages);
    const seen = pages.get(d.wikipediaId);
    const better =
      !seen ||
      bestRank(d) < bestRank(seen.located.value) ||
      (bestRank(d) === bestRank(seen.located.value) && comparePlaces(d, seen.located.value) < 0);
    if (better) pages.set(d.wikipediaId, c);
  }
  const out: { kiltId: string; located: Located<PassageDraft> }[] = [];
  for (const [kiltId, pages] of pagesOf) {
    const top = [...pages.values()]
      .sort((a, b) => bestRank(a.located.value) - bestRank(b.located.value) || comparePlaces(a.located.value, b.located.value))
      .slice(0, setPages)
      .sort((a, b) => comparePlaces(a.located.value, b.located.value));
    let made = 0;
    for (let i = 0; i < top.length; i++)
      for (let j = i + 1; j < top.length && made < MAX_PAIRS_PER_QUESTION; j++, made++) {
        const value = setDraft([placeOf(top[i]!.located.value), placeOf(top[j]!.located.value)], { kind: "pair" }, null);
        const memberFields = [top[i]!.located.field, top[j]!.located.field];
        out.push({ kiltId, located: { ...top[i]!.located, value, memberFields } });
      }
  }
  return out;
}

/**
 * Whether a batch asks for "part of the evidence" when the import does not say: yes when it pairs
 * candidates (`sets: "pairs"`) or is HotpotQA-like (its file name, a line's id or meta names
 * HotpotQA, or a gold output's provenance spans two pages), no otherwise.
 */
export function partialEvidenceByDefault(fileName: string, questions: readonly ParsedQuery[], pairs: boolean): boolean {
  if (pairs || datasetOfFileName(fileName) === "hotpotqa") return true;
  return questions.some(
    (q) =>
      /hotpot/i.test(q.kiltId) ||
      datasetOfMeta(q.meta) === "hotpotqa" ||
      q.gold.some((g) => new Set((g.value.setMembers ?? []).map((m) => m.wikipediaId)).size > 1),
  );
}
