// The engines the search benchmark measures, by name. "lance" is lib/knowledge/engines/lance.ts in a
// directory of the run's own; "postgres" is the tsvector index of lib/knowledge/index-sql.ts and
// retrieve.ts (GIN) seen through the same KnowledgeEngine interface.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { KnowledgeEngine } from "@/lib/knowledge/engine";
import { createLanceEngine } from "@/lib/knowledge/engines/lance";
import { indexStaleChunk } from "@/lib/knowledge/index-sql";
import { rankedRows } from "@/lib/knowledge/retrieve";

export const ENGINES = ["postgres", "lance"] as const;
export type BenchEngine = (typeof ENGINES)[number];

export function benchEngine(name: BenchEngine, dir: string): KnowledgeEngine {
  if (name === "lance") return createLanceEngine({ dir });
  return {
    name: "postgres",
    indexStaleChunk: (db, limit) => indexStaleChunk(db, limit),
    clear: async (db: Db) => {
      await db.execute(sql`truncate paragraph_index`);
      await db.execute(sql`update pages set indexed_at = null`);
    },
    rank: async (db, text, limit) =>
      (await rankedRows(db, text, limit)).map((r) => ({ wikipediaId: r.wikipedia_id, paragraphId: r.paragraph_id, score: r.score })),
    rankMany: async () => {
      throw new Error("not measured");
    },
    figures: async (db) => {
      const [row] = rowsOf<{ n: number; bytes: string }>(
        await db.execute(sql`select count(*)::int as n, pg_total_relation_size('paragraph_index') as bytes from paragraph_index`),
      );
      return { method: "gin", paragraphs: row?.n ?? 0, bytes: Number(row?.bytes ?? 0) };
    },
  };
}
