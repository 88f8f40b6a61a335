// No import cycles in the code: a module graph that loops makes load order matter and subjects blur.
// Edges are run-time imports (type-only imports are erased, so they are left out), aliased or relative.
import { describe, expect, it } from "vitest";
import { importedPaths, resolveFile, sourceFiles } from "./import-graph";

const GRAPH_DIRS = ["lib", "db", "app/_server", "components"];

/**
 * Cycles that exist and are accepted for now, each as its files in the order the check prints them
 * (the cycle's smallest path first), with the reason. Empty means none is accepted.
 */
const ALLOWED_CYCLES: { files: string[]; reason: string }[] = [];

function importGraph(): Map<string, string[]> {
  const files = GRAPH_DIRS.flatMap(sourceFiles);
  const known = new Set(files);
  return new Map(files.map((f) => [f, [...new Set(importedPaths(f, { typeOnly: false }).flatMap((p) => resolveFile(p, known) ?? []))]]));
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const strongConnect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strongConnect(v);
  return out;
}

/** One concrete loop through a component, starting at its smallest path: a breadth-first path back to the start. */
function cycleThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(w) && w !== start) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

describe("import cycles", () => {
  const graph = importGraph();

  it(`no module under ${GRAPH_DIRS.join(", ")} imports itself round a loop`, () => {
    const found = loops(graph).map((c) => cycleThrough(c, graph));
    const allowed = new Set(ALLOWED_CYCLES.map((c) => c.files.join(" → ")));
    const unexpected = found
      .map((c) => c.join(" → "))
      .filter((c) => !allowed.has(c))
      .map((c) => `${c} → (back to the start)`);
    expect(unexpected).toEqual([]);
  });

  it("every allowed cycle still exists (an entry is dropped once its cycle is broken)", () => {
    const found = new Set(loops(graph).map((c) => cycleThrough(c, graph).join(" → ")));
    expect(ALLOWED_CYCLES.map((c) => c.files.join(" → ")).filter((c) => !found.has(c))).toEqual([]);
  });

  it("the graph sees the code (it would pass on an empty tree otherwise)", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("app/_server/http.ts")).toContain("db/client.ts");
  });
});
