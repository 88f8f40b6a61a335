import "server-only";
import type { TaskKind } from "@/db/schema";

// What a question's task kind changes in its exported provenance (kilt-provenance.ts) and in the
// question view: fact checking's answers are labels, entity linking's provenance is the page.

/**
 * The answers a passage's text can hold: none for fact checking, whose answers are KILT's labels
 * (SUPPORTS, REFUTES), so its spans are neither widened to them nor reported without them.
 */
export function answersInText(kind: TaskKind, answers: string[]): string[] {
  return kind === "fact-checking" ? [] : answers;
}

/**
 * Entity linking's provenance, as KILT's own entity-linking lines have it (`kilt/datasets/
 * entity_linking.py`): the page, `{wikipedia_id, title}`, no paragraph or span; one entry
 * `{"provenance": [item]}` per endorsed page, in the order of its first endorsed passage.
 */
export function pageEntries(endorsed: readonly { wikipedia_id: string; title: string }[]): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const p of endorsed) {
    if (seen.has(p.wikipedia_id)) continue;
    seen.add(p.wikipedia_id);
    entries.push(JSON.stringify({ provenance: [{ wikipedia_id: p.wikipedia_id, title: p.title }] }));
  }
  return entries;
}
