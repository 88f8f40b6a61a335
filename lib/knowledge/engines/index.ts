import "server-only";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/env";
import type { EngineName, KnowledgeEngine } from "../engine";
import { createPostgresEngine } from "./postgres";

/**
 * The knowledge engine of this process, from KPS_KNOWLEDGE_ENGINE ("postgres", the default, or
 * "lance"), made once. The domain functions (search.ts, retrieve.ts, index-build.ts) take it by
 * default; tests pass one of their own.
 */
let current: KnowledgeEngine | undefined;

export function knowledgeEngine(): KnowledgeEngine {
  current ??= makeEngine(env().KPS_KNOWLEDGE_ENGINE);
  return current;
}

/** A new engine of the given name, configured from the environment. */
export function makeEngine(name: EngineName): KnowledgeEngine {
  switch (name) {
    case "postgres":
      return createPostgresEngine();
    case "lance":
      throw new AppError(
        "unavailable",
        "KPS_KNOWLEDGE_ENGINE=lance: the embedded BM25 engine is not part of this build; set KPS_KNOWLEDGE_ENGINE=postgres (or leave it unset).",
      );
  }
}

/**
 * Where an embedded engine keeps its files: KPS_KNOWLEDGE_INDEX_DIR, else `knowledge-index` beside
 * the embedded database's data directory (KPS_DATA_DIR, default .data/pglite → .data/knowledge-index).
 */
export function knowledgeIndexDir(): string {
  const vars = env();
  return path.resolve(vars.KPS_KNOWLEDGE_INDEX_DIR ?? path.join(path.dirname(path.resolve(vars.KPS_DATA_DIR)), "knowledge-index"));
}
