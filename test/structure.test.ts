// The layout rules of docs/architecture.md's map, checked on the source itself: sizes, layers, the edge.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importedPaths, moduleSpecifiers, parse, ROOT, sourceFiles, visit } from "./import-graph";

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

