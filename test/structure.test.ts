// The layout rules of docs/architecture.md's map, checked on the source itself: sizes, layers, the edge.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importedPaths, isClientModule, moduleSpecifiers, parse, resolveFile, ROOT, sourceFiles, visit } from "./import-graph";

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

const CODE_DIRS = ["lib", "app/_server", "components", "bin"];

describe("the layout", () => {
  it(`keeps files under lib/, components/ and bin/ within ${MAX_FILE_LINES} lines`, () => {
    const long = CODE_DIRS.flatMap(sourceFiles)
      .map((f) => ({ f, lines: parse(f).getLineAndCharacterOfPosition(parse(f).end).line + 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`keeps functions within ${MAX_FUNCTION_LINES} lines`, () => {
    const long: string[] = [];
    for (const file of CODE_DIRS.flatMap(sourceFiles)) {
      const sf = parse(file);
      visit(sf, (n) => {
        if (!ts.isFunctionLike(n) || !("body" in n) || !n.body) return;
        const lines = lineOf(sf, n.end) - lineOf(sf, n.getStart()) + 1;
        if (lines > MAX_FUNCTION_LINES)
          long.push(`${file}:${lineOf(sf, n.getStart())} ${n.name?.getText() ?? "(anonymous)"}: ${lines} lines`);
      });
    }
    expect(long).toEqual([]);
  });

  it("lib/ is the domain: it imports no framework (next, react, TanStack) and nothing from components/ or app/", () => {
    const framework = /^(next|react|react-dom|@tanstack\/[^/]+)(\/|$)/;
    const offenders = sourceFiles("lib").flatMap((f) => [
      ...moduleSpecifiers(f)
        .filter((spec) => framework.test(spec))
        .map((spec) => `${f} → ${spec}`),
      ...importedPaths(f)
        .filter((p) => p.startsWith("components/") || p.startsWith("app/"))
        .map((p) => `${f} → ${p}`),
    ]);
    expect(offenders).toEqual([]);
  });

  it("components/ import nothing from db/, db/ nothing from lib/ but the one error type (lib/errors.ts)", () => {
    const crossing = [
      ...sourceFiles("components").flatMap((f) =>
        importedPaths(f)
          .filter((p) => p.startsWith("db/"))
          .map((p) => `${f} → ${p}`),
      ),
      ...sourceFiles("db").flatMap((f) =>
        importedPaths(f)
          .filter((p) => p.startsWith("lib/") && p !== "lib/errors")
          .map((p) => `${f} → ${p}`),
      ),
    ];
    expect(crossing).toEqual([]);
  });

  it("no domain function takes a Request: only the edge (app/_server/) reads HTTP", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles("lib")) {
      const sf = parse(file);
      visit(sf, (n) => {
        if (ts.isParameter(n) && n.type && /\bRequest\b/.test(n.type.getText()))
          offenders.push(`${file}:${lineOf(sf, n.getStart())} ${n.getText()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("crowd depends on annotation, not the reverse: nothing under lib/campaign/ imports lib/crowd/", () => {
    const offenders = sourceFiles("lib/campaign").flatMap((f) =>
      importedPaths(f)
        .filter((p) => p.startsWith("lib/crowd"))
        .map((p) => `${f} → ${p}`),
    );
    expect(offenders).toEqual([]);
    expect(sourceFiles("lib/crowd").some((f) => importedPaths(f).some((p) => p.startsWith("lib/campaign/")))).toBe(true);
  });

  // An *.internal.ts file has no authorization of its own: only code of its subject (its folder and the folders
  // under it), which authorized first, may call it. Tests and benchmarks may (they are not callers).
  it("a *.internal.ts file is imported only from its own folder (and the few callers listed, each with its reason)", () => {
    const ALLOWED: Record<string, string> = {
      // start-up's periodic tally compaction: run by the process, no caller to authorize
      "app/_server/start-up.ts → lib/campaign/tallies.internal": "start-up",
      // a crowd worker claims, and ends claims, through the annotators' claim statements, after requireCrowdSession
      "lib/crowd/work.ts → lib/campaign/annotate/claim-next.internal": "crowd claims",
      "lib/crowd/work.ts → lib/campaign/claims.internal": "crowd claims",
      "lib/crowd/session-state.ts → lib/campaign/claims.internal": "crowd claims",
      "lib/crowd/reaper.ts → lib/campaign/claims.internal": "crowd claims",
      "lib/crowd/training.ts → lib/campaign/claims.internal": "crowd claims",
    };
    const internal = /\.internal(\.tsx?)?$/;
    const outside = ["lib", "db", "app", "components", "bin"].flatMap((dir) =>
      sourceFiles(dir).flatMap((f) =>
        importedPaths(f)
          .filter((p) => internal.test(p) && !`${path.dirname(f)}/`.startsWith(`${path.dirname(p)}/`))
          .map((p) => `${f} → ${p.replace(/\.tsx?$/, "")}`),
      ),
    );
    expect(outside.filter((edge) => !(edge in ALLOWED))).toEqual([]);
    expect(Object.keys(ALLOWED).filter((edge) => !outside.includes(edge))).toEqual([]);
    expect(sourceFiles("lib").filter((f) => internal.test(f.replace(/\.tsx?$/, ""))).length).toBeGreaterThan(0);
  });

  it("lib/ holds at most 8 subject folders", () => {
    const folders = fs.readdirSync(path.join(ROOT, "lib"), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.length).toBeGreaterThan(0);
    expect(folders.map((e) => e.name).length).toBeLessThanOrEqual(8);
  });

  it("the structure check itself sees the code (it would pass on an empty tree otherwise)", () => {
    expect(CODE_DIRS.flatMap(sourceFiles).length).toBeGreaterThan(50);
    expect(importedPaths("app/_server/http.ts")).toContain("db/client");
  });
});

// lib/ is the domain. What the browser loads from it are contracts, `*.contract.ts` (the wire shapes:
// zod inputs, view types, labels), and pure modules (no I/O, no database); every other lib/ file opens
// with `import "server-only"`, so a client component that reaches one fails the Next.js build.
describe("lib/: contracts, pure modules and server-only files", () => {
  /**
   * Folders whose every file is pure: the KILT format and the metric formulas. Pure: no database, no
   * server file, no package but zod; node: built-ins only where the browser never loads the file (the
   * streaming JSONL reader), which the first test checks.
   */
  const PURE_FOLDERS = ["lib/kilt/", "lib/metrics/"];
  /** Pure modules elsewhere, each with what the browser runs it for. */
  const PURE_MODULES: Record<string, string> = {
    "lib/format.ts": "sizes, times and counts printed alike on the server and in the browser",
    "lib/campaign/annotate/paragraph-range.ts": "picking a proposal's paragraphs on the Ask screen",
    "lib/campaign/annotate/default-instructions.ts":
      "each task's default instructions, shown on the judging screen and inserted by the campaign form",
    "lib/nul.ts": "the NUL check of input, shared by parseInput (lib/errors.ts) and the JSONL readers (lib/kilt/)",
  };
  const isContract = (f: string) => f.endsWith(".contract.ts");
  const isPure = (f: string) => f in PURE_MODULES || PURE_FOLDERS.some((d) => f.startsWith(d));
  const isServerOnly = (f: string) => !isContract(f) && !isPure(f);

  const appFiles = ["app", "components"].flatMap(sourceFiles);
  const known = new Set([...appFiles, ...["lib", "db"].flatMap(sourceFiles)]);
  const resolved = (f: string, options?: { typeOnly?: boolean }) => importedPaths(f, options).flatMap((p) => resolveFile(p, known) ?? []);

  /** Browser code: the client modules, the API client, and what they import at run time from app/ and components/. */
  const browserFiles = (() => {
    const seen = new Set<string>();
    const stack = appFiles.filter((f) => isClientModule(f) || f.startsWith("components/api/"));
    for (let f = stack.pop(); f; f = stack.pop()) {
      if (seen.has(f)) continue;
      seen.add(f);
      stack.push(...resolved(f, { typeOnly: false }).filter((p) => !p.startsWith("lib/") && !p.startsWith("db/")));
    }
    return [...seen];
  })();

  /**
   * The lib/ files browser code imports (type-only imports too: a wire shape it names belongs in a
   * contract), then what those import in turn, each with its first importer. A server file's own
   * imports are its business: the walk stops there, at the edge that is wrong.
   */
  const browserLib = (() => {
    const from = new Map<string, string>();
    const stack = browserFiles.flatMap((b) =>
      resolved(b)
        .filter((p) => p.startsWith("lib/"))
        .map((p) => [p, b] as const),
    );
    for (let e = stack.pop(); e; e = stack.pop()) {
      const [f, by] = e;
      if (from.has(f)) continue;
      from.set(f, by);
      if (!isServerOnly(f))
        stack.push(
          ...resolved(f)
            .filter((p) => p.startsWith("lib/"))
            .map((p) => [p, f] as const),
        );
    }
    return from;
  })();

  it("browser code loads from lib/ only contracts (*.contract.ts) and pure modules, none of which needs node: or db/ at run time", () => {
    const offenders = [...browserLib].flatMap(([f, by]) =>
      isServerOnly(f)
        ? [`${f} (imported by ${by}) is neither a contract (*.contract.ts) nor a pure module`]
        : [
            ...moduleSpecifiers(f, { typeOnly: false }).filter((spec) => spec.startsWith("node:")),
            ...importedPaths(f, { typeOnly: false }).filter((p) => p.startsWith("db/")),
          ].map((dep) => `${f} (imported by ${by}) needs ${dep} at run time`),
    );
    expect(offenders).toEqual([]);
    // The check sees the browser's graph: the API client, a client component and what they import.
    expect(browserFiles).toContain("components/api/client.ts");
    expect(browserFiles).toContain("components/annotate/judging-screen.tsx");
    expect(browserLib.has("lib/kilt/words.ts") && browserLib.has("lib/campaign/settings.contract.ts")).toBe(true);
  });

  it("contracts and pure modules import only each other, zod and the database schema's types, so the browser may load any of them", () => {
    const offenders = sourceFiles("lib")
      .filter((f) => !isServerOnly(f))
      .flatMap((f) => {
        const runTime = new Set(moduleSpecifiers(f, { typeOnly: false }));
        return moduleSpecifiers(f).flatMap((spec) => {
          const target = spec.startsWith("@/")
            ? spec.slice(2)
            : spec.startsWith(".")
              ? path.relative(ROOT, path.resolve(ROOT, path.dirname(f), spec))
              : null;
          const file = target && resolveFile(target, known);
          const ok =
            target === null
              ? spec === "zod" || (isPure(f) && spec.startsWith("node:"))
              : file
                ? !isServerOnly(file) || (file === "db/schema.ts" && !runTime.has(spec))
                : false;
          return ok ? [] : [`${f} → ${spec}`];
        });
      });
    expect(offenders).toEqual([]);
    expect(Object.keys(PURE_MODULES).filter((f) => !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
  });

  it('every other lib/ file opens with import "server-only" (its first import); contracts and pure modules never import it', () => {
    // The first module a file loads (an import, or a re-export from another file), so the guard runs before anything else of it.
    const firstImport = (f: string) => {
      const st = parse(f).statements.find((s) => ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier));
      return st && ts.isImportDeclaration(st) && !st.importClause && ts.isStringLiteral(st.moduleSpecifier)
        ? st.moduleSpecifier.text
        : undefined;
    };
    const files = sourceFiles("lib");
    const missing = files.filter((f) => isServerOnly(f) && firstImport(f) !== "server-only");
    const misplaced = files.filter((f) => !isServerOnly(f) && moduleSpecifiers(f).includes("server-only"));
    expect({ missing, misplaced }).toEqual({ missing: [], misplaced: [] });
    expect(files.filter(isServerOnly).length).toBeGreaterThan(100);
  });
});
