// Evidence sets in the judging screen's draft: a set's members are judged together, with a
// highlight in each member (`Draft.spans`, in member order); a single passage keeps its one `span`.

import type { TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import type { Span } from "@/lib/kilt/words";
import type { Task } from "@/components/api/annotate";
import type { Draft } from "./judging-storage";

/** A highlight as a KILT location (code points), without its text. */
export type SpanLocation = Omit<Span, "text">;

/** The passages a task shows: an evidence set's members in page order, or its one passage. */
export function passagesOf(task: Task): TaskPassage[] {
  return task.members ?? [task.passage];
}

/** The member the keys act on (a phone shows it): the draft's, within the set; 0 on a single passage. */
export function activeMember(count: number, draft: Pick<Draft, "member"> | null): number {
  const m = draft?.member ?? 0;
  return m >= 0 && m < count ? m : 0;
}

/** The highlight of each passage: a set's `spans` (one per member, null where none is made yet), or the one `span`. */
export function highlightsOf(draft: Pick<Draft, "span" | "spans">, count: number, set: boolean): (SpanLocation | null)[] {
  if (!set) return [draft.span];
  return Array.from({ length: count }, (_, i) => draft.spans?.[i] ?? null);
}

/** The draft with passage `i`'s highlight set (or cleared with null); a set's `span` stays null. */
export function withHighlight(d: Draft, set: boolean, count: number, i: number, location: SpanLocation | null): Draft {
  if (!set) return { ...d, span: location };
  const spans = highlightsOf(d, count, true);
  spans[i] = location;
  return { ...d, span: null, spans };
}

/** The draft without any highlight (a verdict of not sufficient). */
export function withoutHighlights(d: Draft, set: boolean): Draft {
  return set ? { ...d, span: null, spans: (d.spans ?? []).map(() => null) } : { ...d, span: null };
}

/** The first member without a highlight, or -1 when every one has one. */
export function memberWithoutHighlight(highlights: readonly (SpanLocation | Span | null)[]): number {
  return highlights.findIndex((h) => h === null);
}

/** "passage 2 of 2 (“Page title”)": how prompts name a member of a set. */
export function memberName(members: readonly { title: string }[], i: number): string {
  return `passage ${i + 1} of ${members.length} (“${members[i]?.title ?? ""}”)`;
}

/** The prompt for a set judged sufficient while one member has no highlight: names that member. */
export function setHighlightPrompt(members: readonly { title: string }[], i: number): string {
  return `Highlight the evidence in ${memberName(members, i)} too: "Together sufficient" needs a highlight in each passage.`;
}
