// The engines the search benchmark measures, by name: the PostgreSQL engine with GIN, with RUM (on a
// server that has the extension), and the LanceDB engine in a directory of the run's own.
import type { KnowledgeEngine } from "@/lib/knowledge/engine";
import { createLanceEngine } from "@/lib/knowledge/engines/lance";
import { createPostgresEngine } from "@/lib/knowledge/engines/postgres";

export const ENGINES = ["gin", "rum", "lance"] as const;
export type BenchEngine = (typeof ENGINES)[number];

export function benchEngine(name: BenchEngine, dir: string): KnowledgeEngine {
  return name === "lance" ? createLanceEngine({ dir }) : createPostgresEngine({ method: name });
}
