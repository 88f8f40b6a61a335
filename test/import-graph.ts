// The source's import graph, read with the TypeScript parser: shared by the structure and import-cycle tests.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(import.meta.dirname, "..");

/** The source files under a folder (paths from the root), tests left out. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const rel = path.join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "migrations") walk(rel);
      } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(rel);
    }
  };
  walk(dir);
  return out;
}

const parsed = new Map<string, ts.SourceFile>();
export function parse(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (!sf) {
    const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    sf = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true, kind);
    parsed.set(file, sf);
  }
  return sf;
}

export function visit(node: ts.Node, fn: (n: ts.Node) => void): void {
  fn(node);
  ts.forEachChild(node, (child) => visit(child, fn));
}

/** `import type { A }` or `import { type A, type B }`: erased at compile time, so no edge at run time. */
function isTypeOnlyImport(clause: ts.ImportClause): boolean {
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** Every module specifier of a file's imports, re-exports and dynamic imports, as written (`typeOnly: false` leaves out the type-only ones). */
export function moduleSpecifiers(file: string, options: { typeOnly?: boolean } = {}): string[] {
  const sf = parse(file);
  const out: string[] = [];
  const typeOnly = options.typeOnly ?? true;
  visit(sf, (n) => {
    if (!typeOnly && ts.isImportDeclaration(n) && n.importClause && isTypeOnlyImport(n.importClause)) return;
    if (!typeOnly && ts.isExportDeclaration(n) && n.isTypeOnly) return;
    const spec =
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)
        ? n.moduleSpecifier.text
        : ts.isCallExpression(n) &&
            n.expression.kind === ts.SyntaxKind.ImportKeyword &&
            n.arguments[0] &&
            ts.isStringLiteral(n.arguments[0])
          ? n.arguments[0].text
          : undefined;
    if (spec) out.push(spec);
  });
  return out;
}

/** The files an import names, as paths from the root ("db/schema"), for aliased and relative specifiers. */
export function importedPaths(file: string, options: { typeOnly?: boolean } = {}): string[] {
  return moduleSpecifiers(file, options).flatMap((spec) =>
    spec.startsWith("@/")
      ? [spec.slice(2)]
      : spec.startsWith(".")
        ? [path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec))]
        : [],
  );
}

/** Whether a file opens with the "use client" directive: a client component module, bundled for the browser. */
export function isClientModule(file: string): boolean {
  for (const st of parse(file).statements) {
    if (!ts.isExpressionStatement(st) || !ts.isStringLiteral(st.expression)) return false;
    if (st.expression.text === "use client") return true;
  }
  return false;
}

/** A path as an import names it ("lib/x", "lib/x.ts", "lib/x/index") resolved to a file in `files`, if it is one. */
export function resolveFile(imported: string, files: Set<string>): string | undefined {
  const bare = imported.replace(/\.(ts|tsx|mjs|js)$/, "");
  for (const candidate of [imported, `${bare}.ts`, `${bare}.tsx`, `${bare}.mjs`, `${bare}/index.ts`, `${bare}/index.tsx`]) {
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}
