// What a batch import answers (POST /api/campaigns/:id/batches): the import form shows it, and so
// does `kps batches import`.
import type { Batch } from "@/db/schema";
import { TASK_KIND_NAMES, type TaskKind } from "@/lib/kilt/task-kind";
import type { EvidenceMapReport } from "./evidence-map.contract";

/** What the import did with one retriever's candidates. */
export interface RetrieverReport {
  retriever: string;
  /** Candidates read: within the top K of each ranking (text retrieval: the paragraphs it proposed). */
  read: number;
  /** Ranked below the top K (`perRetriever`), left out. */
  droppedByRank: number;
  /** Read, but holding too small a share of every answer's tokens (`minAnswerOverlap`). */
  droppedByOverlap: number;
  /** Stored: read and not dropped. */
  kept: number;
  /** Of those kept, how many share their passage with another origin (gold, another retriever, another rank). */
  merged: number;
}

/** Lines of a candidates file some of whose items named no `meta.retriever`: they counted as `retriever`. */
export interface RetrieverDefault {
  file: string;
  lines: number;
  retriever: string;
}

/** The report's sentence for one such file (the import form and the CLI). */
export function retrieverDefaultText(d: RetrieverDefault): string {
  return `${d.lines} line${d.lines === 1 ? "" : "s"} of ${d.file} had no meta.retriever; ${d.lines === 1 ? "it was" : "they were"} counted as ${d.retriever}.`;
}

/** The batch's KILT task, and why the import took it. */
export interface BatchTask {
  kind: TaskKind;
  /** What detection said (the same as `kind` unless the import's task option chose another). */
  detected: TaskKind;
  /** The KILT dataset the file name or the lines' meta named (fever, trex, …), or null. */
  dataset: string | null;
  /** The report's sentence: what was detected and why, or what was chosen over it. */
  reason: string;
}

/**
 * How the answer-overlap filter (`minAnswerOverlap`) reads a kind's answers: as text whose tokens a
 * candidate must hold (QA, dialogue, and slot filling, whose answers are the object and its
 * aliases); as Wikipedia titles its page must bear (entity linking); not at all (fact checking,
 * whose answers are labels, not text).
 */
export type AnswerOverlapRule = "tokens" | "titles" | "off";

export function answerOverlapRule(kind: TaskKind): AnswerOverlapRule {
  return kind === "fact-checking" ? "off" : kind === "entity-linking" ? "titles" : "tokens";
}

/** What the answer-overlap filter did for the batch's kind. */
export interface AnswerOverlapReport {
  threshold: number;
  rule: AnswerOverlapRule;
}

/** The import report's sentence on the answer-overlap filter. */
export function answerOverlapText(r: AnswerOverlapReport, kind: TaskKind): string {
  const name = TASK_KIND_NAMES[kind];
  switch (r.rule) {
    case "off":
      return `The answer-overlap filter (${r.threshold}) was off for ${name}: its answers are labels (SUPPORTS, REFUTES), not text, so no candidate was dropped for overlap.`;
    case "titles":
      return `The answer-overlap filter for ${name} kept a candidate when its page's title is one of the line's answers (Wikipedia titles, compared normalised); the threshold ${r.threshold} does not apply.`;
    case "tokens":
      return `The answer-overlap filter kept a candidate when it holds at least ${r.threshold} of the words of one answer${kind === "slot-filling" ? " (the object or one of its aliases)" : ""}.`;
  }
}

export interface BatchImportResult {
  batch: Pick<Batch, "id" | "name" | "status" | "campaignId">;
  task: BatchTask;
  queries: number;
  passages: number;
  /** Gold of both kinds, decoys included. */
  goldPassages: number;
  /** Of the gold, the automatic decoys made (the campaign's decoysPer100). */
  decoys: number;
  candidatePassages: number;
  /** Of the gold, the training items for crowd workers (`"training": true`). */
  trainingPassages: number;
  /** Evidence sets stored (gold sets, sets of a candidates file's `set` key, and `sets: "pairs"`), counted in `passages`. */
  sets: number;
  /** Whether the batch asks annotators for "part of the evidence" on single passages (the `partialEvidence` option, or its default). */
  partialEvidence: boolean;
  pages: number;
  /** Per retriever (file or text retrieval), what the import did with its candidates. */
  retrievers: RetrieverReport[];
  /** Per candidates file whose items named no retriever on some lines: the retriever those lines were counted as. */
  retrieverDefaults: RetrieverDefault[];
  /** With `minAnswerOverlap`: how the filter read the batch's answers (by its kind); else null. */
  answerOverlap: AnswerOverlapReport | null;
  /** With `mapEvidence`: what became of the provenance items given as text (evidence-map.contract.ts); else null. */
  evidence: EvidenceMapReport | null;
}

/**
 * Progress of the slow part of an import, text retrieval (`retrieve: "text"`): `done` of `total`
 * questions ranked. The import reports 0 of M when it starts ranking and again after each batch of
 * questions; the CLI prints "ranked N of M questions", and the API streams it (NDJSON) to a client
 * that accepts `application/x-ndjson`.
 */
export interface ImportProgress {
  step: "retrieve";
  done: number;
  total: number;
}

/** The sentence of a progress report (the CLI and the import form). */
export function importProgressText(p: ImportProgress): string {
  return `Text retrieval: ranked ${p.done.toLocaleString("en-US")} of ${p.total.toLocaleString("en-US")} questions`;
}
