import "server-only";
import type { Db } from "@/db/client";
import type { KnowledgeEngine, RankedHit } from "./engine";
import { knowledgeEngine } from "./engines";
import { requireIndexBuilt } from "./index-build";

export { INDEX_NOT_BUILT, requireIndexBuilt } from "./index-build";
export { MAX_QUERY_WORDS, queryWords } from "./query";

/** A paragraph the text search ranked for a question (the batch import's text retrieval). */
export type RankedParagraph = RankedHit;

/**
 * The k paragraphs of the text index that best match `text`, best first ([] when none matches),
 * ranked by the process's engine. Internal (no actor): the batch import calls it after authorizing
 * its caller. Throws AppError conflict while the engine has not built the index.
 */
export async function rankParagraphs(
  db: Db,
  text: string,
  k: number,
  engine: KnowledgeEngine = knowledgeEngine(),
): Promise<RankedParagraph[]> {
  await requireIndexBuilt(db, engine);
  return engine.rank(db, text, k);
}

/**
 * rankParagraphs for many questions at once (the engine's rankMany: concurrently where it can):
 * results[i] is rankParagraphs(texts[i], k). Internal, like rankParagraphs.
 */
export async function rankParagraphsMany(
  db: Db,
  texts: string[],
  k: number,
  engine: KnowledgeEngine = knowledgeEngine(),
): Promise<RankedParagraph[][]> {
  await requireIndexBuilt(db, engine);
  return engine.rankMany(db, texts, k);
}
