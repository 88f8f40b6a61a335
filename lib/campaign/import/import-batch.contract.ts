// What a batch import answers (POST /api/campaigns/:id/batches): the import form shows it, and so
// does `kps batches import`.
import type { Batch } from "@/db/schema";
import type { TaskKind } from "@/lib/kilt/task-kind";

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
  pages: number;
  /** Per retriever (file or text retrieval), what the import did with its candidates. */
  retrievers: RetrieverReport[];
  /** Per candidates file whose items named no retriever on some lines: the retriever those lines were counted as. */
  retrieverDefaults: RetrieverDefault[];
}
