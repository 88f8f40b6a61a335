// Evidence sets and partial evidence on the judging path: which verdicts a passage takes
// (a set is judged together, with one highlight per member; "part of the evidence" only on single
// passages of batches that ask for it), each member's highlight checked against the stored page, and
// how a stored row reads back as the verdict the annotator gave.
import "server-only";
import type { MemberSpan, SetMember } from "@/db/schema";
import { invalidField } from "@/lib/errors";
import type { TaskKind } from "@/lib/kilt/task-kind";
import type { GoldMember } from "../quality/standings";
import { checkSpan } from "./judgment-span";
import type { JudgmentSpan, VerdictName } from "./judgments.contract";

/** What the verdict rules read of the judged passage. */
export interface SetFacts {
  task_kind: TaskKind;
  /** The set's members (null: a single passage). */
  set_members: SetMember[] | null;
  /** Each member's paragraphs, in member order (read for a set when spans are checked, and for gold). */
  member_slices: string[][] | null;
  /** The batch asks for "part of the evidence". */
  partial_evidence: boolean;
}

interface SetInput {
  verdict: VerdictName;
  span: unknown;
  spans?: readonly JudgmentSpan[] | null;
}

/**
 * The rules that depend on whether the passage is a set, as a 422 naming the field: a set takes no
 * `span` and no partial verdict, and its sufficient verdict one highlight per member (entity linking:
 * none, or one per member); a single passage takes no `spans`, and `partial` only where its batch
 * asks for partial evidence. Then each member's highlight is checked against the stored page.
 */
export function checkSetVerdict(p: SetFacts, input: SetInput): void {
  const members = p.set_members;
  if (!members) {
    if (input.spans) throw invalidField("spans", "only goes with an evidence set; this passage is a single one (send `span`)");
    if (input.verdict === "partial" && !p.partial_evidence)
      throw invalidField("verdict", "'partial' is not asked for in this batch (it does not collect partial evidence)");
    return;
  }
  if (input.verdict === "partial")
    throw invalidField("verdict", "'partial' is for single passages; a set is judged together: 'sufficient' or 'insufficient'");
  if (input.span) throw invalidField("span", "must be null on an evidence set: send one highlight per member in `spans`");
  if (input.verdict !== "sufficient") return;
  if (!input.spans) {
    if (p.task_kind === "entity-linking") return;
    throw invalidField("spans", `is required: a set is sufficient together only with a highlight in each of its ${members.length} members`);
  }
  if (input.spans.length !== members.length)
    throw invalidField("spans", `must hold one highlight per member: this set has ${members.length}, the body gives ${input.spans.length}`);
  input.spans.forEach((span, i) => {
    const m = members[i]!;
    const slice = p.member_slices?.[i] ?? null;
    checkSpan({ start_paragraph_id: m.startParagraphId, end_paragraph_id: m.endParagraphId, slice }, span, `spans.${i}`);
  });
}

/** The span columns of a stored judgment: a set's first member's highlight, else the single highlight. */
export function storedSpan<S>(input: { span: S | null; spans?: readonly S[] | null }): S | null {
  return input.spans ? (input.spans[0] ?? null) : input.span;
}

/** The `member_spans` of a stored judgment (null for a single passage), as JSON text for a statement parameter. */
export function memberSpansJson(spans: readonly JudgmentSpan[] | null | undefined): string | null {
  return spans ? JSON.stringify(spans.map((s): MemberSpan => ({ ...s }))) : null;
}

/** The verdict as given from the stored one: a partial judgment is stored as insufficient with its highlight. */
export function verdictName(verdict: "sufficient" | "insufficient", partial: boolean | null | undefined): VerdictName {
  return partial ? "partial" : verdict;
}

/** The stored verdict of a given one ("partial" is stored as insufficient, judgments.partial). */
export function storedVerdict(verdict: VerdictName): "sufficient" | "insufficient" {
  return verdict === "partial" ? "insufficient" : verdict;
}

/** A gold set's members as the gold check reads them (standings.ts isGoldCorrect). */
export function goldMembersOf(members: SetMember[] | null, slices: string[][] | null): GoldMember[] | null {
  if (!members) return null;
  return members.map((m, i) => ({
    startParagraphId: m.startParagraphId,
    paragraphs: slices?.[i] ?? null,
    expectedSpan: m.expectedSpan ?? null,
  }));
}
