// The cheater bench's campaign, with known truth: one knowledge-source page per question, its
// content paragraphs 3–5 sentences each; two of them hold the evidence sentence ("The Velmora
// lighthouse was first lit in 1871."), the others only filler about the lighthouse (with other
// years, never the answer's). The retrieval file names 5 of the page's 7 content paragraphs (both
// evidence paragraphs and 3 others), so the 2 left over are what decoys can be made of.
//
// Gold, at these densities of the work passages (a question has 5):
//   - sufficient gold: the task file's provenance, on one evidence paragraph, for `goldShare` of the
//     questions (0.5 → 10% of the passages), its expected span the answer (2 in 3) or the evidence
//     sentence (1 in 3);
//   - negative gold from the import: one filler candidate marked `"gold": "insufficient"` in
//     `negativeShare` of the questions (0.25 → 5%);
//   - decoys: the campaign's `decoysPer100` (made by the server from the 2 paragraphs left over).
// Training: `training` questions of their own, one passage each, `"training": true` with the answer as span.
import { sentencesOf } from "@/lib/kilt/sentences";
import { Rng } from "../rng";

export const CONTENT_PARAGRAPHS = 7;
export const CANDIDATES_PER_QUESTION = 5;
export const EVIDENCE_PER_QUESTION = 2;

const SYLLABLES = [
  "vel",
  "mor",
  "an",
  "tis",
  "ka",
  "ren",
  "dol",
  "ith",
  "sar",
  "bru",
  "nel",
  "ost",
  "quin",
  "hal",
  "mir",
  "tor",
  "ev",
  "lun",
  "gar",
  "pe",
];
const NOUNS = ["headland", "harbour", "reef", "cliff", "island", "bay", "pier", "channel", "village", "causeway", "dune", "estuary"];
const ADJECTIVES = ["narrow", "rocky", "windy", "quiet", "steep", "green", "grey", "sandy", "distant", "low"];
const THINGS = ["lamps", "lenses", "logbooks", "charts", "bells", "photographs", "ropes", "flags"];
const NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty"];
const MONTHS = ["spring", "summer", "autumn", "winter"];

export interface Paragraph {
  /** Paragraph id on the page (1.. content). */
  id: number;
  text: string;
  /** Holds the evidence sentence. */
  evidence: boolean;
}

export interface Question {
  kiltId: string;
  input: string;
  answer: string;
  wikipediaId: string;
  title: string;
  paragraphs: Paragraph[];
  /** The candidate paragraphs (retrieval order). */
  candidates: number[];
  /** The sufficient gold paragraph (task-file provenance), with its expected span. */
  gold: { paragraphId: number; start: number; end: number; kind: "answer" | "sentence" } | null;
  /** The candidate imported as `"gold": "insufficient"`. */
  negativeGold: number | null;
  training: boolean;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function nameOf(rng: Rng): string {
  const n = rng.int(2, 3);
  let s = "";
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return capitalise(s);
}

function fillerSentence(rng: Rng, name: string, answerYear: number): string {
  let other = rng.int(1780, 1990);
  if (other === answerYear) other += 7;
  switch (rng.int(0, 7)) {
    case 0:
      return `The ${name} lighthouse stands on a ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} above the ${rng.pick(NOUNS)}.`;
    case 1:
      return `Its lantern room was rebuilt after a storm in ${other}.`;
    case 2:
      return `Visitors reach the tower by a ${rng.pick(ADJECTIVES)} path from the ${rng.pick(NOUNS)}.`;
    case 3:
      return `The light can be seen from ${rng.pick(NUMBER_WORDS)} kilometres at sea on a clear night.`;
    case 4:
      return `Local families still tell stories about the keepers of the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}.`;
    case 5:
      return `A small museum beside the tower shows old ${rng.pick(THINGS)} and ${rng.pick(THINGS)}.`;
    case 6:
      return `In ${other} the keepers' cottages were sold to the ${rng.pick(NOUNS)} council.`;
    default:
      return `Every ${rng.pick(MONTHS)} the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} fills with ${rng.pick(THINGS)} and visitors.`;
  }
}

function paragraphText(rng: Rng, name: string, year: number, evidence: boolean): string {
  const n = rng.int(3, 5);
  const sentences = Array.from({ length: n }, () => fillerSentence(rng, name, year));
  if (evidence) {
    const at = rng.int(0, n - 1);
    sentences[at] = rng.chance(0.5)
      ? `The ${name} lighthouse was first lit in ${year}.`
      : `After ${rng.pick(NUMBER_WORDS)} years of building, the ${name} light was first lit in ${year}.`;
  }
  return `${sentences.join(" ")}\n`;
}

/** The code-point range of the evidence sentence and of the answer in an evidence paragraph. */
export function evidenceSpans(
  text: string,
  answer: string,
): { sentence: { start: number; end: number }; answer: { start: number; end: number } } {
  const cps = Array.from(text);
  const idx = text.indexOf(answer);
  if (idx < 0) throw new Error(`no answer '${answer}' in '${text}'`);
  const start = Array.from(text.slice(0, idx)).length;
  const answerSpan = { start, end: start + Array.from(answer).length };
  const sentence = sentencesOf(text.replace(/\n$/, "")).find((s) => s.start <= answerSpan.start && s.end >= answerSpan.end);
  if (!sentence || sentence.end > cps.length) throw new Error(`no sentence holds the answer in '${text}'`);
  return { sentence, answer: answerSpan };
}

export interface Dataset {
  questions: Question[];
  knowledge: string;
  queries: string;
  candidates: string;
  counts: { workPassages: number; evidencePassages: number; sufficientGold: number; negativeGold: number; training: number };
}

export function makeDataset(o: { seed: number; questions: number; training: number; goldShare: number; negativeShare: number }): Dataset {
  const rng = new Rng(o.seed);
  const questions: Question[] = [];
  const usedNames = new Set<string>();
  const total = o.questions + o.training;
  for (let q = 0; q < total; q++) {
    const training = q >= o.questions;
    let name = nameOf(rng);
    while (usedNames.has(name)) name = nameOf(rng);
    usedNames.add(name);
    const year = rng.int(1800, 1960);
    const wikipediaId = `kpsq-${o.seed}-${q}`;
    const paragraphCount = training ? 1 : CONTENT_PARAGRAPHS;
    const ids = Array.from({ length: paragraphCount }, (_, i) => i + 1);
    // Training: one evidence paragraph; work: two evidence paragraphs at random places.
    const shuffled = shuffle(rng, ids);
    const evidenceIds = new Set(training ? [1] : shuffled.slice(0, EVIDENCE_PER_QUESTION));
    const paragraphs = ids.map((id) => ({ id, text: paragraphText(rng, name, year, evidenceIds.has(id)), evidence: evidenceIds.has(id) }));
    const fillers = shuffled.filter((id) => !evidenceIds.has(id));
    const candidates = training ? [] : shuffle(rng, [...evidenceIds, ...fillers.slice(0, CANDIDATES_PER_QUESTION - EVIDENCE_PER_QUESTION)]);
    let gold: Question["gold"] = null;
    if (training || every(q, o.goldShare)) {
      const paragraphId = training ? 1 : [...evidenceIds][0]!;
      const spans = evidenceSpans(paragraphs[paragraphId - 1]!.text, String(year));
      const kind = training || rng.chance(2 / 3) ? "answer" : "sentence";
      gold = { paragraphId, ...(kind === "answer" ? spans.answer : spans.sentence), kind };
    }
    const negativeGold = !training && every(q + 1, o.negativeShare) ? candidates.find((id) => !evidenceIds.has(id))! : null;
    questions.push({
      kiltId: `kpsq-${o.seed}-q${q}`,
      input: training ? `When was the ${name} lighthouse first lit? (training)` : `When was the ${name} lighthouse first lit?`,
      answer: String(year),
      wikipediaId,
      title: `${name} Lighthouse`,
      paragraphs,
      candidates,
      gold,
      negativeGold,
      training,
    });
  }
  const knowledge = questions.map((q) =>
    JSON.stringify({
      _id: q.wikipediaId,
      wikipedia_id: q.wikipediaId,
      wikipedia_title: q.title,
      text: [`${q.title}\n`, ...q.paragraphs.map((p) => p.text)],
    }),
  );
  const queries = questions.map((q) => {
    const provenance = q.gold
      ? [
          {
            wikipedia_id: q.wikipediaId,
            start_paragraph_id: q.gold.paragraphId,
            end_paragraph_id: q.gold.paragraphId,
            start_character: q.gold.start,
            end_character: q.gold.end,
            ...(q.training ? { training: true, explanation: `The passage says when the lighthouse was first lit: ${q.answer}.` } : {}),
          },
        ]
      : undefined;
    return JSON.stringify({ id: q.kiltId, input: q.input, output: [{ answer: q.answer, ...(provenance ? { provenance } : {}) }] });
  });
  const candidates = questions
    .filter((q) => !q.training)
    .map((q) =>
      JSON.stringify({
        id: q.kiltId,
        output: [
          {
            provenance: q.candidates.map((id) => ({
              wikipedia_id: q.wikipediaId,
              start_paragraph_id: id,
              end_paragraph_id: id,
              ...(id === q.negativeGold ? { gold: "insufficient" } : {}),
            })),
          },
        ],
      }),
    );
  const work = questions.filter((q) => !q.training);
  return {
    questions,
    knowledge: knowledge.join("\n") + "\n",
    queries: queries.join("\n") + "\n",
    candidates: candidates.join("\n") + "\n",
    counts: {
      workPassages: work.length * CANDIDATES_PER_QUESTION,
      evidencePassages: work.length * EVIDENCE_PER_QUESTION,
      sufficientGold: work.filter((q) => q.gold).length,
      negativeGold: work.filter((q) => q.negativeGold !== null).length,
      training: o.training,
    },
  };
}

/** Exactly `share` of the indexes, spread evenly (0.5: every second one). */
function every(i: number, share: number): boolean {
  return Math.floor((i + 1) * share) > Math.floor(i * share);
}

function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** What the bench knows of a passage it is given: by page and first paragraph. */
export interface PassageTruth {
  question: Question;
  paragraph: Paragraph;
  sufficient: boolean;
  /** gold (sufficient, task file), negative (imported "gold": "insufficient"), training (a training passage: hidden gold when not trained on), decoy (not imported: made by the server), or none. */
  gold: "sufficient" | "negative" | "training" | "decoy" | null;
}

export function truthIndex(questions: Question[]): (wikipediaId: string, paragraphId: number) => PassageTruth | undefined {
  const byPage = new Map(questions.map((q) => [q.wikipediaId, q]));
  return (wikipediaId, paragraphId) => {
    const question = byPage.get(wikipediaId);
    const paragraph = question?.paragraphs[paragraphId - 1];
    if (!question || !paragraph) return undefined;
    const gold: PassageTruth["gold"] = question.training
      ? "training"
      : question.gold?.paragraphId === paragraphId
        ? "sufficient"
        : question.negativeGold === paragraphId
          ? "negative"
          : question.candidates.includes(paragraphId)
            ? null
            : "decoy";
    return { question, paragraph, sufficient: paragraph.evidence, gold };
  };
}
