// One way to write a time: every time a page, a component, a message or the CLI shows is written by
// lib/format.ts ("2025-11-29 22:12 UTC"). This test reads the source and fails on a time written
// another way: the locale's date and time methods, Intl.DateTimeFormat, a hand-cut ISO text, or
// the clock's parts read one by one.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse, sourceFiles, visit } from "./import-graph";

/** Where a time may be written another way, and why. */
const ALLOWED: Record<string, string> = {
  "lib/format.ts": "the one place that writes a time",
  "app/_server/http.ts": "a cookie's Expires attribute is an HTTP date (toUTCString), which browsers read, not people",
};

const LOCALE_TIME = new Set(["toLocaleTimeString", "toLocaleDateString", "toDateString", "toTimeString", "toUTCString", "toGMTString"]);
const CLOCK_PARTS = /^get(UTC)?(FullYear|Month|Date|Day|Hours|Minutes|Seconds)$/;
const CUTS = new Set(["slice", "substring", "substr", "replace", "split"]);
/** A number's toLocaleString("en") is how counts are written; on something that looks like a time it is a time. */
const TIME_LIKE = /Date\(|[a-z]At$|^at$|time|Time|deadline|\bdate\b/;

/** The own-way time formattings in one source text, as "line: what". */
function ownWayTimes(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  return findIn(sf);
}

function findIn(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (n: ts.Node, what: string) => found.push(`${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${what}`);
  visit(sf, (n) => {
    if (ts.isPropertyAccessExpression(n) && n.name.text === "DateTimeFormat" && n.expression.getText() === "Intl")
      at(n, "Intl.DateTimeFormat");
    if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
    const method = n.expression.name.text;
    const receiver = n.expression.expression;
    if (LOCALE_TIME.has(method)) at(n, method);
    else if (CLOCK_PARTS.test(method) && /Date|[a-z]At\b|\bd\b|time/i.test(receiver.getText())) at(n, method);
    else if (method === "toLocaleString") {
      const numberLike = n.arguments.length === 1 && /^["'](en|en-US)["']$/.test(n.arguments[0]!.getText());
      if (!numberLike || TIME_LIKE.test(receiver.getText())) at(n, `toLocaleString(${n.arguments.map((a) => a.getText()).join(", ")})`);
    } else if (CUTS.has(method) && ts.isCallExpression(receiver) && ts.isPropertyAccessExpression(receiver.expression)) {
      if (receiver.expression.name.text === "toISOString") at(n, `toISOString().${method}`);
    }
  });
  return found;
}

describe("one way to write a time", () => {
  it("finds each own way of writing a time (the check itself)", () => {
    const sample = [
      `const a = new Date(iso).toLocaleTimeString();`,
      `const b = new Date(iso).toLocaleString("en-GB", { timeZone: "UTC" });`,
      `const c = new Intl.DateTimeFormat("en").format(d);`,
      `const d2 = new Date(x).toISOString().slice(0, 16).replace("T", " ");`,
      `const e = run.createdAt.toLocaleDateString();`,
      `const f = \`\${d.getUTCHours()}:\${d.getUTCMinutes()}\`;`,
      `const g = row.createdAt.toLocaleString("en");`,
      // Not times: counts, and an ISO text kept whole for the machine.
      `const n = count.toLocaleString("en-US") + total.toLocaleString("en");`,
      `const iso = new Date(x).toISOString();`,
    ].join("\n");
    expect(ownWayTimes("sample.tsx", sample)).toEqual([
      "1: toLocaleTimeString",
      '2: toLocaleString("en-GB", { timeZone: "UTC" })',
      "3: Intl.DateTimeFormat",
      "4: toISOString().slice",
      "5: toLocaleDateString",
      "6: getUTCHours",
      "6: getUTCMinutes",
      '7: toLocaleString("en")',
    ]);
  });

  it("components/, app/, lib/, bin/ and server/ write times only through lib/format.ts", () => {
    const offenders = ["components", "app", "lib", "bin", "server"]
      .flatMap(sourceFiles)
      .filter((f) => !(f in ALLOWED))
      .flatMap((f) => findIn(parse(f)).map((hit) => `${f}:${hit}`));
    expect(offenders, "write the time with formatTime from lib/format.ts").toEqual([]);
  });
});
