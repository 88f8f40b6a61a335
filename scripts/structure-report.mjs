// Structure report: files over 300 lines and functions over 80 lines under lib/, components/, bin/ (tests excluded).
// Lists files over 300 lines and functions over 80 lines under lib/, components/, bin/ (tests excluded).
import fs from "node:fs"; import path from "node:path"; import { createRequire } from "node:module"; const ts = createRequire(process.cwd() + "/package.json")("typescript");
const root = process.cwd(); const out = [];
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (/\.(ts|tsx)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) check(p); } };
function check(file) {
  const text = fs.readFileSync(file, "utf8"); const lines = text.split("\n").length;
  if (lines > 300) out.push(`file ${path.relative(root, file)}: ${lines} lines`);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (n) => { if (ts.isFunctionLike(n) && n.body) { const a = sf.getLineAndCharacterOfPosition(n.getStart()).line, b = sf.getLineAndCharacterOfPosition(n.end).line; if (b - a + 1 > 80) out.push(`function ${path.relative(root, file)}:${a + 1} ${n.name?.getText?.() ?? "(anonymous)"}: ${b - a + 1} lines`); } ts.forEachChild(n, visit); };
  visit(sf);
}
for (const d of process.argv.slice(2).length ? process.argv.slice(2) : ["lib", "components", "bin"]) walk(path.join(root, d));
console.log(out.join("\n") || "none over the limits");
