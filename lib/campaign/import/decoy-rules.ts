// What a decoy may be, per task kind (docs/quality-control.md "Decoys"):
// - QA, slot filling, dialogue: a content paragraph of one of the question's pages holding none of
//   the question's normalised answer tokens.
// - Fact checking: the answer is a label (SUPPORTS/REFUTES) whose words say nothing of the claim, so
//   the claim's own content words stand in for it: a content paragraph of one of the question's pages
//   holding none of them cannot decide the claim.
// - Entity linking: the answer is the page (its title); the unit is the page's lead (paragraph 1), so a
//   decoy is the lead of another page of the batch whose title is not one of the question's answers.
import "server-only";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { answerTokens, normalizeAnswer } from "@/lib/kilt/answer-overlap";
import type { ParsedQuery } from "./read-batch-files";

/**
 * English function words: dropped from a claim's tokens before the fact-checking decoy rule, since
 * a paragraph holding "was" or "in" says nothing of the claim. The list is the one place they are
 * kept; words are as `normalizeAnswer` leaves them (lower case, no punctuation; "a", "an" and
 * "the" are removed by it already and listed for completeness).
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the is are was were am be been being do does did has have had having " +
    "in of and to for on by with as at from into onto over under about after before since until than then " +
    "that it its he she they we you i him her his hers them their theirs us our ours your yours me my " +
    "not no nor or but so if also only very which who whom whose what when where why how " +
    "this these those there here can could will would shall should may might must"
  ).split(" "),
);

/** A claim's content tokens: its tokens normalised as KILT does (`answerTokens`), minus FUNCTION_WORDS. */
export function claimContentTokens(claim: string): Set<string> {
  return new Set([...answerTokens(claim)].filter((t) => !FUNCTION_WORDS.has(t)));
}

/**
 * The tokens a decoy of this question must not hold (QA, slot filling, dialogue: the answers'
 * tokens; fact checking: the claim's content tokens), or for entity linking the normalised titles
 * the decoy's page must not have (the answers). Empty: the question gets no decoy.
 */
export function forbiddenOf(kind: TaskKind, query: ParsedQuery): Set<string> {
  if (kind === "fact-checking") return claimContentTokens(query.input);
  if (kind === "entity-linking") return new Set(query.answers.map(normalizeAnswer).filter((a) => a !== ""));
  return new Set(query.answers.flatMap((a) => [...answerTokens(a)]));
}

/** Whether a paragraph holds any of the tokens (normalised as KILT does). */
export function holdsAnswerToken(text: string, tokens: ReadonlySet<string>): boolean {
  for (const token of answerTokens(text)) if (tokens.has(token)) return true;
  return false;
}

/** A content paragraph may be a decoy: not the title (0), not a `Section::::` header, not blank or a bullet marker alone. */
export function isContentParagraph(index: number, text: string): boolean {
  if (index === 0) return false;
  const t = text.trim();
  if (t.startsWith("Section::::")) return false;
  return /[\p{L}\p{N}]/u.test(t) && Array.from(t).length >= 20;
}

/** Entity linking: a page's lead (paragraph 1) is a decoy for a question when its title is not one of the question's answers. */
export function isOtherEntity(title: string, answerTitles: ReadonlySet<string>): boolean {
  return !answerTitles.has(normalizeAnswer(title));
}
