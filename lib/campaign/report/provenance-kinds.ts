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
 * `{"provenance": [item]}` per endorsed page, in the order of its first endorsed passage. An endorsed
 * evidence set is one entry with an item per member page (each page once).
 */
export function pageEntries(
  endorsed: readonly { wikipedia_id: string; title: string; members?: readonly { wikipedia_id: string; title: string }[] | null }[],
): string[] {
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const p of endorsed) {
    const pages = new Map((p.members ?? [p]).map((m) => [m.wikipedia_id, { wikipedia_id: m.wikipedia_id, title: m.title }]));
    const key = JSON.stringify([...pages.keys()]);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(JSON.stringify({ provenance: [...pages.values()] }));
  }
  return entries;
}
