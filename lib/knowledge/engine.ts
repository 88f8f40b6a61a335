import "server-only";
import type { Db } from "@/db/client";

// The knowledge index's one interface. PostgreSQL's `pages` is the source of truth; an engine
// indexes their content paragraphs (neither paragraph 0, the title line, nor a `Section::::`
// header) and ranks them for a free-text query. Every engine can be emptied and rebuilt from
// `pages`. The lease, the status and the progress (index-build.ts) are shared by all engines, as
// are title search (the B-tree of pages_title_folded_idx) and the snippets (marked in PostgreSQL
// from the page's text), so a query answers alike whichever engine ranked it.

/** The engines: PostgreSQL's tsvector with RUM's ordered scan (or GIN where RUM is missing), or an embedded BM25 index. */
export type EngineName = "postgres" | "lance";

/** A paragraph ranked for a query: KILT's paragraph id within its page, best first by `score`. */
export interface RankedHit {
  wikipediaId: string;
  paragraphId: number;
  score: number;
}

/** What an engine stores, for the status and the benchmark (bytes null when the engine cannot tell). */
export interface EngineFigures {
  /** The access method or library in use: "rum", "gin", "lance-bm25". */
  method: string;
  paragraphs: number;
  bytes: number | null;
}

/**
 * One implementation of the index. It holds no authorization: the domain functions in search.ts,
 * retrieve.ts and index-build.ts check their caller first. `Db` is db/client's handle, given per
 * call (the engine keeps no database of its own).
 */
export interface KnowledgeEngine {
  readonly name: EngineName;
  /**
   * Indexes up to `limit` stale pages (never indexed or changed since: `indexed_at` null or older
   * than `updated_at`), replacing what it held for them, and sets their `indexed_at` to the
   * `updated_at` it read. Returns how many pages it indexed (0: none left).
   */
  indexStaleChunk(db: Db, limit: number): Promise<number>;
  /**
   * How many indexStaleChunk calls a build may run at once on `db` (1: one after another). Calls at
   * once must take disjoint pages and leave the index as calls one after another would.
   */
  chunkWorkers(db: Db): number;
  /** Forgets everything indexed and marks every page stale: the next build rebuilds from `pages`. */
  clear(db: Db): Promise<void>;
  /** The `limit` best paragraphs for `text` (any words; never throws on its content), best first. */
  rank(db: Db, text: string, limit: number): Promise<RankedHit[]>;
  /** Ranks many queries at once (the batch import's text retrieval): results[i] is rank(texts[i], limit). */
  rankMany(db: Db, texts: string[], limit: number): Promise<RankedHit[][]>;
  figures(db: Db): Promise<EngineFigures>;
}
