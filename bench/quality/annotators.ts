// The simulated annotators' kinds: what each answers on a passage, given the truth the bench knows.
import type { Span } from "@/lib/kilt/words";
import { Rng } from "../rng";
import { evidenceSpans, type PassageTruth } from "./synthetic";

export const GOOD_KINDS = ["careful", "honest-75"] as const;
export const BOT_KINDS = ["always-sufficient", "always-insufficient", "random", "fast", "first-word"] as const;
export type Kind = (typeof GOOD_KINDS)[number] | (typeof BOT_KINDS)[number];

export const KIND_NOTES: Record<Kind, string> = {
  careful: "follows the truth; highlights the evidence sentence, or (1 in 4) the answer alone",
  "honest-75": "the right verdict 3 times in 4; a careful span when rightly sufficient, a random sentence when wrongly",
  "always-sufficient": "sufficient on everything, the whole passage highlighted",
  "always-insufficient": "insufficient on everything",
  random: "a random verdict; when sufficient, a random run of words",
  fast: "careful's answers (it follows the truth), 100 ms between judgments while claiming durationMs 7000: only the speed rule can stop it",
  "first-word": "sufficient on everything, only the passage's first word highlighted",
};

export interface Answer {
  verdict: "sufficient" | "insufficient";
  span: Span | null;
}

function spanOf(paragraph: { id: number; text: string }, start: number, end: number): Span {
  const cps = Array.from(paragraph.text);
  return {
    startParagraphId: paragraph.id,
    startCharacter: start,
    endParagraphId: paragraph.id,
    endCharacter: end,
    text: cps.slice(start, end).join(""),
  };
}

/** Word ranges (code points) of a paragraph's text. */
function words(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const cps = Array.from(text);
  let i = 0;
  while (i < cps.length) {
    while (i < cps.length && /\s/u.test(cps[i]!)) i++;
    const s = i;
    while (i < cps.length && !/\s/u.test(cps[i]!)) i++;
    if (i > s) out.push({ start: s, end: i });
  }
  return out;
}

/** The careful highlight of an evidence paragraph: its evidence sentence, or (answerShare) the answer. */
export function carefulSpan(paragraph: { id: number; text: string }, answer: string, rng: Rng, answerShare = 0.25): Span {
  const spans = evidenceSpans(paragraph.text, answer);
  const s = rng.chance(answerShare) ? spans.answer : spans.sentence;
  return spanOf(paragraph, s.start, s.end);
}

function wholePassage(paragraph: { id: number; text: string }): Span {
  return spanOf(paragraph, 0, Array.from(paragraph.text.replace(/\n$/, "")).length);
}

function randomSentenceLike(paragraph: { id: number; text: string }, rng: Rng): Span {
  const ws = words(paragraph.text);
  const from = rng.int(0, ws.length - 1);
  const to = Math.min(ws.length - 1, from + rng.int(0, 12));
  return spanOf(paragraph, ws[from]!.start, ws[to]!.end);
}

/** What an annotator of `kind` answers on a passage (given by the task's first paragraph; the bench's passages are one paragraph). */
export function answerOf(kind: Kind, truth: PassageTruth | undefined, paragraph: { id: number; text: string }, rng: Rng): Answer {
  const sufficient = truth?.sufficient ?? false;
  const careful = (): Answer =>
    sufficient
      ? { verdict: "sufficient", span: carefulSpan(paragraph, truth!.question.answer, rng) }
      : { verdict: "insufficient", span: null };
  switch (kind) {
    case "careful":
    case "fast":
      return careful();
    case "honest-75": {
      if (rng.chance(0.75)) return careful();
      return sufficient ? { verdict: "insufficient", span: null } : { verdict: "sufficient", span: randomSentenceLike(paragraph, rng) };
    }
    case "always-sufficient":
      return { verdict: "sufficient", span: wholePassage(paragraph) };
    case "always-insufficient":
      return { verdict: "insufficient", span: null };
    case "random":
      return rng.chance(0.5)
        ? { verdict: "sufficient", span: randomSentenceLike(paragraph, rng) }
        : { verdict: "insufficient", span: null };
    case "first-word": {
      const w = words(paragraph.text)[0]!;
      return { verdict: "sufficient", span: spanOf(paragraph, w.start, w.end) };
    }
  }
}

/** A pool of `size` annotators with `botShare` bots (their kinds in turn from `botOffset`), the rest careful and honest half and half. */
export function poolOf(size: number, botShare: number, botOffset: number): Kind[] {
  const bots = Math.round(size * botShare);
  const kinds: Kind[] = [];
  for (let i = 0; i < bots; i++) kinds.push(BOT_KINDS[(botOffset + i) % BOT_KINDS.length]!);
  const good = size - bots;
  for (let i = 0; i < good; i++) kinds.push(i < Math.floor(good / 2) ? "careful" : "honest-75");
  return kinds;
}
