// What a batch import answers (POST /api/campaigns/:id/batches): the import form shows it, and so
// does `kps batches import`.
import type { Batch } from "@/db/schema";

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

export interface BatchImportResult {
  batch: Pick<Batch, "id" | "name" | "status" | "campaignId">;
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
}
