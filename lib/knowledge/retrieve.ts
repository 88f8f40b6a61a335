// PLACEHOLDER of helper SEARCH's lib/knowledge/retrieve.ts (branch h-search), so that the batch import
// compiles before that branch is merged: the merge replaces this file by the real one (take theirs).
import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";

export async function rankParagraphs(_db: Db, _text: string, _k: number): Promise<{ wikipediaId: string; paragraphId: number; score: number }[]> {
  throw new AppError("conflict", "The text index has not been built yet: a coordinator builds it with `kps knowledge index` or on the knowledge import page.");
}
