import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { batches, passages, queries, type Campaign } from "@/db/schema";
import type { BatchImportResult, BatchTask, RetrieverDefault, RetrieverReport } from "./import-batch.contract";
import { mergePassages, type PassageDraft } from "./passage-drafts";
import { setKeyOf } from "./set-drafts";
import type { Located, ParsedQuery } from "./read-batch-files";

export interface CheckedBatch {
  campaign: Pick<Campaign, "id" | "judgmentsPerPassage">;
  name: string;
  createdBy: number | null;
  task: BatchTask;
  queries: ParsedQuery[];
  /** Per question (KILT id), its gold and candidate passages. */
  drafts: Map<string, Located<PassageDraft>[]>;
  pageCount: number;
  retrievers: RetrieverReport[];
  retrieverDefaults: RetrieverDefault[];
  /** Whether annotators may answer "part of the evidence" on its single passages (batches.partial_evidence). */
  partialEvidence: boolean;
}

/** Stores a checked batch as a draft, with its questions and passages, in one transaction. */
export async function writeBatch(db: Db, input: CheckedBatch): Promise<Omit<BatchImportResult, "answerOverlap" | "evidence">> {
  const { campaign } = input;
  return db.transaction(async (tx) => {
    const [batch] = await tx
      .insert(batches)
      .values({
        campaignId: campaign.id,
        name: input.name,
        createdBy: input.createdBy,
        taskKind: input.task.kind,
        dataset: input.task.dataset,
        taskKindReason: input.task.reason,
        partialEvidence: input.partialEvidence,
      })
      .returning({ id: batches.id, name: batches.name, status: batches.status, campaignId: batches.campaignId });
    if (!batch) throw new Error("insert returned no row");
    let passageCount = 0;
    let goldCount = 0;
    let decoyCount = 0;
    let trainingCount = 0;
    let setCount = 0;
    for (let i = 0; i < input.queries.length; i += 500) {
      const chunk = input.queries.slice(i, i + 500);
      const inserted = await tx
        .insert(queries)
        .values(
          chunk.map((q) => ({
            campaignId: campaign.id,
            batchId: batch.id,
            kiltId: q.kiltId,
            input: q.input,
            answers: q.answers,
            originalLine: q.originalLine,
            lineNumber: q.lineNumber,
          })),
        )
        .returning({ id: queries.id, kiltId: queries.kiltId });
      const rows = inserted.flatMap((q) => passageRows(input, batch.id, q.id, input.drafts.get(q.kiltId)!));
      for (let j = 0; j < rows.length; j += 1000) await tx.insert(passages).values(rows.slice(j, j + 1000));
      passageCount += rows.length;
      goldCount += rows.filter((r) => r.isGold).length;
      decoyCount += rows.filter((r) => r.isDecoy).length;
      trainingCount += rows.filter((r) => r.isTraining).length;
      setCount += rows.filter((r) => r.setMembers).length;
    }
    const { pageCount } = input;
    await tx
      .update(batches)
      .set({ queryCount: input.queries.length, passageCount, goldPassageCount: goldCount, pageCount })
      .where(eq(batches.id, batch.id));
    return {
      batch,
      task: input.task,
      queries: input.queries.length,
      passages: passageCount,
      goldPassages: goldCount,
      decoys: decoyCount,
      candidatePassages: passageCount - goldCount,
      trainingPassages: trainingCount,
      sets: setCount,
      partialEvidence: input.partialEvidence,
      pages: pageCount,
      retrievers: input.retrievers,
      retrieverDefaults: input.retrieverDefaults,
    };
  });
}

/** A question's passages as rows: drafts of the same paragraphs merged, each with R open slots. */
function passageRows({ campaign }: CheckedBatch, batchId: number, queryId: number, drafts: Located<PassageDraft>[]) {
  return mergePassages(drafts.map((d) => d.value)).map((d) => ({
    queryId,
    campaignId: campaign.id,
    batchId,
    wikipediaId: d.wikipediaId,
    startParagraphId: d.startParagraphId,
    endParagraphId: d.endParagraphId,
    origins: d.origins,
    isGold: d.isGold,
    isTraining: d.isTraining,
    explanation: d.explanation,
    expectedVerdict: d.isGold ? (d.expectedVerdict ?? "sufficient") : null,
    isDecoy: d.isDecoy ?? false,
    expectedStartParagraphId: d.expectedSpan?.startParagraphId ?? null,
    expectedStartCharacter: d.expectedSpan?.startCharacter ?? null,
    expectedEndParagraphId: d.expectedSpan?.endParagraphId ?? null,
    expectedEndCharacter: d.expectedSpan?.endCharacter ?? null,
    setMembers: d.setMembers ?? null,
    setKey: d.setMembers ? setKeyOf(d.setMembers) : "",
    openSlots: campaign.judgmentsPerPassage,
  }));
}
