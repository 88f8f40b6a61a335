// Evidence sets at import: passages judged together (passages.set_members, in page order, member 0
// being the row's own location; set_key the members after the first as `wid:start-end|…`). A gold
// output whose provenance lists several places is one gold set; a retrieval file's items sharing a
// `set` key are one candidate set (candidate-sets.ts); `sets: "pairs"` pairs the top candidate pages.
import "server-only";
import type { PassageOrigin, SetMember } from "@/db/schema";
import type { TaskLine } from "@/lib/kilt/schemas";
import type { Problems } from "./import-problems";
import { goldPassagesOf, locationKey, type PassageDraft } from "./passage-drafts";
import type { Located } from "./read-batch-files";

/** A set holds 2 to 8 passages (the passages_set_members check). */
export const MIN_SET_MEMBERS = 2;
export const MAX_SET_MEMBERS = 8;

type Place = Pick<SetMember, "wikipediaId" | "startParagraphId" | "endParagraphId">;

/** A page's place in page order: numeric ids by their value, others after them by their text (as partial-sets.ts orders them). */
function pageOrder(wikipediaId: string): string {
  return /^[0-9]{1,18}$/.test(wikipediaId) ? wikipediaId.padStart(20, "0") : wikipediaId;
}

/** Page order of two places: page, then first paragraph, then last. */
export function comparePlaces(a: Place, b: Place): number {
  const pa = pageOrder(a.wikipediaId);
  const pb = pageOrder(b.wikipediaId);
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.startParagraphId - b.startParagraphId || a.endParagraphId - b.endParagraphId;
}

/** The set_key of members in page order: the members after the first, `wid:start-end` joined by `|`. */
export function setKeyOf(members: readonly Place[]): string {
  return members
    .slice(1)
    .map((m) => `${m.wikipediaId}:${m.startParagraphId}-${m.endParagraphId}`)
    .join("|");
}

/** A set passage over `members` (any order; sorted here), with its origin; gold expects sufficient. */
export function setDraft(members: readonly SetMember[], origin: PassageOrigin, gold: "sufficient" | "insufficient" | null): PassageDraft {
  const sorted = [...members].sort(comparePlaces);
  const first = sorted[0]!;
  return {
    wikipediaId: first.wikipediaId,
    startParagraphId: first.startParagraphId,
    endParagraphId: first.endParagraphId,
    origins: [origin],
    isGold: gold !== null,
    expectedVerdict: gold,
    isTraining: false,
    explanation: null,
    expectedSpan: null,
    setMembers: sorted,
  };
}

/** A set's members as single passages, each located at its own item, for the page and span checks. */
export function membersOf(l: Located<PassageDraft>): Located<PassageDraft>[] {
  const members = l.value.setMembers;
  if (!members) return [l];
  return members.map((m, i) => ({
    value: { ...l.value, ...m, setMembers: null, expectedSpan: m.expectedSpan ?? null },
    file: l.file,
    line: l.line,
    field: l.memberFields?.[i] ?? `${l.field}[${i}]`,
  }));
}

/**
 * A task line's gold, located. Each provenance item is a gold passage (goldPassagesOf), except that
 * the evidence items of one output (those not marked `"gold": "insufficient"`) at two or more places
 * form ONE gold set, expected sufficient, each member with its item's expected span. A set holds at
 * most 8 places, and no training item (crowd training takes single passages): both are problems
 * naming the file, line and field.
 */
export function locatedGoldOf(line: TaskLine, file: string, lineNumber: number, problems: Problems): Located<PassageDraft>[] {
  const drafts = goldPassagesOf(line);
  const out: Located<PassageDraft>[] = [];
  let i = 0;
  line.output.forEach((entry, e) => {
    const evidence: Located<PassageDraft>[] = [];
    (entry.provenance ?? []).forEach((_, p) => {
      const located = { value: drafts[i++]!, file, line: lineNumber, field: `output[${e}].provenance[${p}]` };
      (located.value.expectedVerdict === "insufficient" ? out : evidence).push(located);
    });
    const places = new Map<string, Located<PassageDraft>>();
    for (const l of evidence) if (!places.has(locationKey(l.value))) places.set(locationKey(l.value), l);
    if (places.size < MIN_SET_MEMBERS) {
      out.push(...evidence);
      return;
    }
    const distinct = [...places.values()];
    for (const l of evidence.filter((l) => l.value.isTraining))
      problems.add(file, lineNumber, `${l.field}.training`, trainingOnSet(evidence.length));
    if (distinct.length > MAX_SET_MEMBERS)
      problems.add(file, lineNumber, `output[${e}].provenance`, tooManyMembers(distinct.length, "this output's provenance lists"));
    const members = distinct.map((l) => ({ ...placeOf(l.value), expectedSpan: l.value.expectedSpan }));
    const value = setDraft(members, { kind: "gold" }, "sufficient");
    const fields = new Map(distinct.map((l) => [locationKey(l.value), l.field]));
    const memberFields = value.setMembers!.map((m) => fields.get(locationKey({ ...m, setMembers: null }))!);
    out.push({ value, file, line: lineNumber, field: `output[${e}].provenance`, memberFields });
  });
  return out;
}

function placeOf(d: Place): Place {
  return { wikipediaId: d.wikipediaId, startParagraphId: d.startParagraphId, endParagraphId: d.endParagraphId };
}

function trainingOnSet(items: number): string {
  return `is not allowed on an evidence set: this output's provenance lists ${items} items, judged together as one set; crowd training takes single passages only (give the training item its own output)`;
}

/** The message of a set with more than 8 places. */
export function tooManyMembers(n: number, what: string): string {
  return `${what} ${n} places: an evidence set holds ${MIN_SET_MEMBERS} to ${MAX_SET_MEMBERS} passages`;
}
