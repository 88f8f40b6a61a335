// KILT's five tasks (fact checking, slot filling, entity linking, open-domain QA, dialogue): which
// one a task file holds, what each line's `input` means for it, and how a line of each is checked.
// Pure: the import, the judging screen and the leaderboard share it.

import type { FactLabel, TaskKind } from "@/db/schema";

export type { FactLabel, TaskKind };

export const TASK_KINDS = ["qa", "fact-checking", "slot-filling", "entity-linking", "dialogue"] as const satisfies readonly TaskKind[];

export const TASK_KIND_NAMES: Record<TaskKind, string> = {
  qa: "open-domain QA",
  "fact-checking": "fact checking",
  "slot-filling": "slot filling",
  "entity-linking": "entity linking",
  dialogue: "dialogue",
};

/** FEVER's labels as KILT keeps them (claims without enough information were left out of KILT). */
export const FACT_LABELS = ["SUPPORTS", "REFUTES"] as const satisfies readonly FactLabel[];

/** KILT's downstream metrics (`kilt/eval_downstream.py`); each dataset leads with one. */
export type HeadlineMetric = "accuracy" | "em" | "f1" | "rougel";

interface DatasetInfo {
  name: string;
  kind: TaskKind;
  metric: HeadlineMetric;
  /** Spellings in file names (KILT's own: `fever-dev-kilt.jsonl`, `structured_zeroshot-dev-kilt.jsonl`, …) or `meta.dataset`. */
  aliases: string[];
}

/** KILT's eleven datasets, by the names KILT's files use. */
export const KILT_DATASETS: Record<string, DatasetInfo> = {
  fever: { name: "FEVER", kind: "fact-checking", metric: "accuracy", aliases: ["fever"] },
  trex: { name: "T-REx", kind: "slot-filling", metric: "accuracy", aliases: ["trex", "t-rex"] },
  structured_zeroshot: {
    name: "Zero Shot RE",
    kind: "slot-filling",
    metric: "accuracy",
    aliases: ["structured_zeroshot", "zsre", "zero_shot_re", "zeroshot"],
  },
  aidayago2: { name: "AIDA CoNLL-YAGO", kind: "entity-linking", metric: "accuracy", aliases: ["aidayago2", "aida"] },
  wned: { name: "WNED-WIKI", kind: "entity-linking", metric: "accuracy", aliases: ["wned", "wned-wiki", "wnedwiki"] },
  cweb: { name: "WNED-CWEB", kind: "entity-linking", metric: "accuracy", aliases: ["cweb", "wned-cweb", "wnedcweb"] },
  nq: { name: "Natural Questions", kind: "qa", metric: "em", aliases: ["nq", "natural_questions", "naturalquestions"] },
  hotpotqa: { name: "HotpotQA", kind: "qa", metric: "em", aliases: ["hotpotqa", "hotpot"] },
  triviaqa: { name: "TriviaQA", kind: "qa", metric: "em", aliases: ["triviaqa", "trivia"] },
  eli5: { name: "ELI5", kind: "qa", metric: "rougel", aliases: ["eli5"] },
  wow: { name: "Wizard of Wikipedia", kind: "dialogue", metric: "f1", aliases: ["wow", "wizard_of_wikipedia", "wizardofwikipedia"] },
};

/** The metric a kind leads with when its dataset is unknown. */
const KIND_METRIC: Record<TaskKind, HeadlineMetric> = {
  qa: "em",
  "fact-checking": "accuracy",
  "slot-filling": "accuracy",
  "entity-linking": "accuracy",
  dialogue: "f1",
};

/** The leaderboard's first figure for a batch: its dataset's KILT headline metric, else its kind's. */
export function headlineMetric(kind: TaskKind, dataset: string | null): HeadlineMetric {
  const info = dataset ? KILT_DATASETS[dataset] : undefined;
  return info && info.kind === kind ? info.metric : KIND_METRIC[kind];
}

export const SEP = "[SEP]";
export const ENT_START = "[START_ENT]";
export const ENT_END = "[END_ENT]";

/** What detection and checking read of one line. */
export interface TaskLineFacts {
  input: string;
  answers: readonly string[];
  meta?: unknown;
}

/** A KILT dataset named by a file name (`fever-dev-kilt.jsonl` → fever), or null. */
export function datasetOfFileName(fileName: string): string | null {
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).toLowerCase();
  const words = base.split(/[^a-z0-9_]+|_(?=dev|train|test|kilt)/).filter(Boolean);
  const joined = base.replace(/\.(jsonl|json|ndjson|txt)(\.gz)?$/, "");
  for (const [key, info] of Object.entries(KILT_DATASETS)) {
    if (info.aliases.some((a) => words.includes(a) || joined === a || joined.startsWith(`${a}-`) || joined.startsWith(`${a}_`))) return key;
  }
  return null;
}

/** A KILT dataset named by a line's `meta.dataset` (or `meta.task`), or null. */
export function datasetOfMeta(meta: unknown): string | null {
  if (!meta || typeof meta !== "object") return null;
  for (const field of ["dataset", "task"] as const) {
    const value = (meta as Record<string, unknown>)[field];
    if (typeof value !== "string") continue;
    const v = value.trim().toLowerCase();
    for (const [key, info] of Object.entries(KILT_DATASETS)) if (info.aliases.includes(v) || key === v) return key;
  }
  return null;
}

const isLabel = (a: string): a is FactLabel => (FACT_LABELS as readonly string[]).includes(a);
const hasMarkers = (input: string) => input.includes(ENT_START) && input.includes(ENT_END);
const turnsOf = (input: string) => input.split("\n");

export interface Detection {
  kind: TaskKind;
  /** The KILT dataset, when the file name or the lines' meta name one. */
  dataset: string | null;
  /** Why, in a sentence the import report shows. */
  reason: string;
}

/** "a fact checking", "an entity linking", "an open-domain QA": the kind's name with its article. */
const aKindName = (kind: TaskKind) => `${/^[aeiou]/i.test(TASK_KIND_NAMES[kind]) ? "an" : "a"} ${TASK_KIND_NAMES[kind]}`;

const share = (n: number, of: number) => `${n} of ${of} line${of === 1 ? "" : "s"}`;

/**
 * The task kind of a file. A KILT dataset named by the file name, or by `meta.dataset` on every
 * line, decides it. Otherwise the lines do, and only when all of them agree: every input marks a
 * mention with [START_ENT] … [END_ENT] (entity linking); every answer is SUPPORTS or REFUTES
 * (fact checking); every input is `subject [SEP] relation` (slot filling); most inputs hold
 * several turns, one per line (dialogue). Anything else is QA: a QA line that happens to hold
 * "[SEP]" is not slot filling unless the whole file says so.
 */
export function detectTaskKind(fileName: string, lines: readonly TaskLineFacts[]): Detection {
  const fromName = datasetOfFileName(fileName);
  if (fromName) {
    const info = KILT_DATASETS[fromName]!;
    return {
      kind: info.kind,
      dataset: fromName,
      reason: `the file name ${fileName} names ${info.name}, ${aKindName(info.kind)} dataset`,
    };
  }
  const metaNames = lines.map((l) => datasetOfMeta(l.meta));
  const metaName = metaNames[0];
  if (lines.length && metaName && metaNames.every((m) => m === metaName)) {
    const info = KILT_DATASETS[metaName]!;
    return { kind: info.kind, dataset: metaName, reason: `every line's meta names ${info.name}, ${aKindName(info.kind)} dataset` };
  }
  const n = lines.length;
  const none = { dataset: null };
  if (n === 0) return { kind: "qa", ...none, reason: "the file holds no lines; QA by default" };
  const marked = lines.filter((l) => hasMarkers(l.input)).length;
  if (marked === n) return { kind: "entity-linking", ...none, reason: `every line (${n}) marks a mention with ${ENT_START} … ${ENT_END}` };
  const labelled = lines.filter((l) => l.answers.length > 0 && l.answers.every(isLabel)).length;
  if (labelled === n) return { kind: "fact-checking", ...none, reason: `every line's answers (${n}) are SUPPORTS or REFUTES` };
  const slots = lines.filter((l) => slotOf(l.input) !== null).length;
  if (slots === n) return { kind: "slot-filling", ...none, reason: `every line (${n}) reads "subject ${SEP} relation"` };
  const dialogues = lines.filter((l) => turnsOf(l.input).length > 1).length;
  if (dialogues * 2 > n)
    return { kind: "dialogue", ...none, reason: `${share(dialogues, n)} hold a conversation of several turns, one per line` };
  const hints = [
    marked ? `${share(marked, n)} mark a mention` : "",
    slots ? `${share(slots, n)} read "subject ${SEP} relation"` : "",
    labelled ? `${share(labelled, n)} have SUPPORTS/REFUTES answers` : "",
  ].filter(Boolean);
  return {
    kind: "qa",
    ...none,
    reason: hints.length ? `only ${hints.join(", ")}, not all: QA` : "no line looks like another KILT task: QA",
  };
}

/** `subject [SEP] relation`, split; null unless the input holds exactly one [SEP] with text on both sides. */
export function slotOf(input: string): { subject: string; relation: string } | null {
  const parts = input.split(SEP);
  if (parts.length !== 2) return null;
  const subject = parts[0]!.trim();
  const relation = parts[1]!.trim();
  return subject && relation ? { subject, relation } : null;
}

/** The mention and its context; null unless the input holds one [START_ENT] before one [END_ENT], with a mention between. */
export function mentionOf(input: string): { before: string; mention: string; after: string } | null {
  const start = input.indexOf(ENT_START);
  const end = input.indexOf(ENT_END);
  if (start < 0 || end < start || input.indexOf(ENT_START, start + 1) >= 0 || input.indexOf(ENT_END, end + 1) >= 0) return null;
  const mention = input.slice(start + ENT_START.length, end).trim();
  if (!mention) return null;
  return { before: input.slice(0, start).trim(), mention, after: input.slice(end + ENT_END.length).trim() };
}

/**
 * What is wrong with a line for its kind (a message for the import's line-numbered report), or
 * null. Every answer of fact checking is one of KILT's labels; slot filling reads
 * `subject [SEP] relation`; entity linking marks one mention; no turn of a dialogue is empty.
 */
export function taskLineProblem(kind: TaskKind, line: TaskLineFacts): { field: string; message: string } | null {
  switch (kind) {
    case "fact-checking": {
      const i = line.answers.findIndex((a) => !isLabel(a));
      return i < 0
        ? null
        : { field: "output", message: `has the label '${line.answers[i]}'; fact checking takes KILT's labels SUPPORTS and REFUTES` };
    }
    case "slot-filling":
      return slotOf(line.input)
        ? null
        : { field: "input", message: `must read "subject ${SEP} relation" (one ${SEP}, text on both sides) for slot filling` };
    case "entity-linking":
      return mentionOf(line.input)
        ? null
        : { field: "input", message: `must mark one mention as ${ENT_START} mention ${ENT_END} for entity linking` };
    case "dialogue": {
      const turns = turnsOf(line.input);
      const empty = turns.findIndex((t) => t.trim() === "");
      return empty < 0
        ? null
        : { field: "input", message: `turn ${empty + 1} of ${turns.length} is empty; a dialogue's turns are its non-empty lines` };
    }
    default:
      return null;
  }
}

/** How a line shows on the judging screen and the question view. */
export type TaskDisplay =
  | { kind: "qa"; question: string }
  | { kind: "fact-checking"; claim: string }
  | { kind: "slot-filling"; subject: string; relation: string }
  | { kind: "entity-linking"; before: string; mention: string; after: string; trimmedBefore: boolean; trimmedAfter: boolean }
  | { kind: "dialogue"; turns: { speaker: "A" | "B"; text: string }[] };

/** Words of context kept on each side of an entity-linking mention. */
export const MENTION_CONTEXT_WORDS = 40;

function trimWords(text: string, keep: number, fromEnd: boolean): { text: string; trimmed: boolean } {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length <= keep) return { text: words.join(" "), trimmed: false };
  return { text: (fromEnd ? words.slice(-keep) : words.slice(0, keep)).join(" "), trimmed: true };
}

/**
 * A line's input as its kind shows it. A line that does not read as its kind (it was checked at
 * import, so only an older batch could hold one) shows as a question. Dialogue turns alternate
 * speakers counted back from the last turn (speaker A), so the reply to ground is speaker B's.
 */
export function taskDisplayOf(kind: TaskKind, input: string): TaskDisplay {
  switch (kind) {
    case "fact-checking":
      return { kind, claim: input };
    case "slot-filling": {
      const slot = slotOf(input);
      return slot ? { kind, ...slot } : { kind: "qa", question: input };
    }
    case "entity-linking": {
      const m = mentionOf(input);
      if (!m) return { kind: "qa", question: input };
      const before = trimWords(m.before, MENTION_CONTEXT_WORDS, true);
      const after = trimWords(m.after, MENTION_CONTEXT_WORDS, false);
      return {
        kind,
        before: before.text,
        mention: m.mention,
        after: after.text,
        trimmedBefore: before.trimmed,
        trimmedAfter: after.trimmed,
      };
    }
    case "dialogue": {
      const turns = turnsOf(input).filter((t) => t.trim() !== "");
      return { kind, turns: turns.map((text, i) => ({ speaker: (turns.length - 1 - i) % 2 === 0 ? "A" : "B", text: text.trim() })) };
    }
    default:
      return { kind: "qa", question: input };
  }
}

/** Turns of a dialogue the text retrieval queries with (the last ones). */
export const RETRIEVAL_TURNS = 2;
/** Words of context on each side of a mention in the text retrieval's query. */
export const RETRIEVAL_CONTEXT_WORDS = 15;

/**
 * The text the text retrieval (`--retrieve text`) ranks paragraphs for: the claim; the subject and
 * relation; the mention with some context; the last turns of a dialogue; the question.
 */
export function retrievalQueryOf(kind: TaskKind, input: string): string {
  const shown = taskDisplayOf(kind, input);
  switch (shown.kind) {
    case "fact-checking":
      return shown.claim;
    case "slot-filling":
      return `${shown.subject} ${shown.relation}`;
    case "entity-linking": {
      const context = (text: string, fromEnd: boolean) => trimWords(text, RETRIEVAL_CONTEXT_WORDS, fromEnd).text;
      return [context(shown.before, true), shown.mention, context(shown.after, false)].filter(Boolean).join(" ");
    }
    case "dialogue":
      return Array.from(shown.turns.slice(-RETRIEVAL_TURNS), (t) => t.text).join(" ");
    default:
      return shown.question;
  }
}
