// The engines the search benchmark measures, by name: the PostgreSQL engine with GIN, with RUM (on a
// server that has the extension), and the LanceDB engine in a directory of the run's own: in shards
// as the app builds it (`lance`: each large shard's index built in a child process), with every index
// built in the build's own process as before (`lance-here`), and in one table as it was built before
// the shards (`lance-one`). `lance-glibc` is `lance` with glibc's own malloc arenas in the build's
// process and its children (run.ts), where the app's run with two (server/malloc-arenas.mjs).
import type { KnowledgeEngine } from "@/lib/knowledge/engine";
import { createLanceEngine } from "@/lib/knowledge/engines/lance";
import { createPostgresEngine } from "@/lib/knowledge/engines/postgres";

export const ENGINES = ["gin", "rum", "lance", "lance-glibc", "lance-here", "lance-one"] as const;
export type BenchEngine = (typeof ENGINES)[number];

export const isLance = (name: BenchEngine) => name.startsWith("lance");

export function benchEngine(name: BenchEngine, dir: string): KnowledgeEngine {
  if (name === "lance-one") return createLanceEngine({ dir, shardParagraphs: Number.MAX_SAFE_INTEGER });
  if (name === "lance-here") return createLanceEngine({ dir, indexChildRows: Number.MAX_SAFE_INTEGER });
  return name === "lance" || name === "lance-glibc" ? createLanceEngine({ dir }) : createPostgresEngine({ method: name });
}
