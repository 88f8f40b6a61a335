import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnowledgeAnchor } from "@/lib/kilt/schemas";

// Checks the hand-crafted KILT demo files in this folder. Offsets are Unicode code points
// (Python string indexes), so every count goes through Array.from(...), never String#slice.

const dir = fileURLToPath(new URL(".", import.meta.url));

type Anchor = KnowledgeAnchor;
interface History {
  pageid: number;
  revid: number;
  parentid: number;
  timestamp: string;
  pre_dump: boolean;
  url: string;
}
interface KnowledgePage {
  _id: string;
  wikipedia_id: string;
  wikipedia_title: string;
  text: string[];
  anchors: Anchor[];
  categories: string;
  history: History;
}
interface ProvenanceItem {
  wikipedia_id: string;
  title?: string;
  section?: string;
  start_paragraph_id?: number;
  start_character?: number;
  end_paragraph_id?: number;
  end_character?: number;
  bleu_score?: number;
  meta?: Record<string, unknown>;
}
interface OutputElement {
  answer?: string;
  provenance?: ProvenanceItem[];
}
interface TaskLine {
  id: string;
  input: string;
  output: OutputElement[];
  meta?: unknown;
}

const BIG_INTEGER_DIGITS = "13805127637452916481"; // > 2^53: must survive verbatim in the raw line

function readLines(name: string): string[] {
  const raw = readFileSync(join(dir, name), "utf8");
  expect(raw.endsWith("\n")).toBe(true);
  const lines = raw.slice(0, -1).split("\n");
  // KILT's evaluators choke on blank lines, including a trailing one.
  for (const line of lines) expect(line.trim()).not.toBe("");
  return lines;
}

function parseLines<T>(name: string): { raw: string[]; parsed: T[] } {
  const raw = readLines(name);
  const parsed = raw.map((line, i) => {
    try {
      return JSON.parse(line) as T;
    } catch (e) {
      throw new Error(`${name} line ${i + 1} is not valid JSON: ${String(e)}`);
    }
  });
  return { raw, parsed };
}

const knowledge = parseLines<KnowledgePage>("knowledge.jsonl");
const queries = parseLines<TaskLine>("queries.jsonl");
const candidates = parseLines<TaskLine>("candidates.jsonl");

const pages = new Map<string, KnowledgePage>(knowledge.parsed.map((p) => [p.wikipedia_id, p]));

function getPage(id: string): KnowledgePage {
  const page = pages.get(id);
  if (!page) throw new Error(`unknown wikipedia_id ${id}`);
  return page;
}

function paragraph(page: KnowledgePage, pid: number): string {
  const text = page.text[pid];
  if (text === undefined) throw new Error(`${page.wikipedia_title}: no paragraph ${pid}`);
  return text;
}

function isHeader(text: string): boolean {
  return text.startsWith("Section::::");
}

/** Section of a paragraph: nearest header above it, or the lead. */
function sectionOf(page: KnowledgePage, pid: number): string {
  for (let i = pid; i >= 1; i--) {
    const text = paragraph(page, i);
    if (isHeader(text)) return text.replace(/\n$/, "");
  }
  return "Section::::Abstract.";
}

function isContentParagraph(page: KnowledgePage, pid: number): boolean {
  return Number.isInteger(pid) && pid >= 1 && pid < page.text.length && !isHeader(paragraph(page, pid));
}

/** Code-point slice of a (possibly multi-paragraph) span, end exclusive. */
function spanText(
  page: KnowledgePage,
  p: Required<Pick<ProvenanceItem, "start_paragraph_id" | "start_character" | "end_paragraph_id" | "end_character">>,
): string {
  const { start_paragraph_id: sp, start_character: sc, end_paragraph_id: ep, end_character: ec } = p;
  if (sp === ep) return Array.from(paragraph(page, sp)).slice(sc, ec).join("");
  let out = Array.from(paragraph(page, sp)).slice(sc).join("");
  for (let i = sp + 1; i < ep; i++) out += paragraph(page, i);
  out += Array.from(paragraph(page, ep)).slice(0, ec).join("");
  return out;
}

/** Converts a code-point offset in `text` into a UTF-16 offset. */
function utf16Offset(text: string, codePoints: number): number {
  return Array.from(text).slice(0, codePoints).join("").length;
}

function goldOf(line: TaskLine): ProvenanceItem {
  const withProvenance = line.output.filter((o) => o.provenance !== undefined);
  expect(withProvenance).toHaveLength(1);
  const items = withProvenance[0]?.provenance ?? [];
  expect(items).toHaveLength(1);
  const item = items[0];
  if (!item) throw new Error(`line ${line.id}: no gold provenance item`);
  return item;
}

function firstAnswer(line: TaskLine): string {
  const answer = line.output.find((o) => typeof o.answer === "string")?.answer;
  if (answer === undefined) throw new Error(`line ${line.id}: no answer`);
  return answer;
}

function expectUniqueStringIds(ids: unknown[]): void {
  for (const id of ids) expect(typeof id).toBe("string");
  expect(new Set(ids).size).toBe(ids.length);
}

describe("knowledge.jsonl", () => {
  it("has five pages with unique string ids", () => {
    expect(knowledge.parsed).toHaveLength(5);
    expectUniqueStringIds(knowledge.parsed.map((p) => p._id));
    expectUniqueStringIds(knowledge.parsed.map((p) => p.wikipedia_id));
    for (const p of knowledge.parsed) {
      expect(p._id).toBe(p.wikipedia_id);
      expect(p.wikipedia_id).toMatch(/^\d+$/);
      expect(typeof p.categories).toBe("string");
      expect(p.history.pageid).toBe(Number(p.wikipedia_id));
      expect(typeof p.history.revid).toBe("number");
      expect(typeof p.history.parentid).toBe("number");
      expect(p.history.pre_dump).toBe(true);
      expect(p.history.url).toContain(`oldid=${p.history.revid}`);
    }
  });

  it("keeps KILT's text layout: title first, every element ends in a newline", () => {
    for (const p of knowledge.parsed) {
      expect(p.text[0]).toBe(`${p.wikipedia_title}\n`);
      for (const t of p.text) expect(t.endsWith("\n")).toBe(true);
      const prose = p.text.slice(1).filter((t) => !isHeader(t) && !t.startsWith("BULLET::::"));
      expect(prose.length).toBeGreaterThanOrEqual(6);
      expect(prose.length).toBeLessThanOrEqual(12);
      // the lead has no header element; content starts at paragraph 1
      expect(isContentParagraph(p, 1)).toBe(true);
    }
  });

  it("covers headers, nested headers, bullets and tricky characters", () => {
    const all = knowledge.parsed.flatMap((p) => p.text);
    expect(all.some((t) => /^Section::::[^:]+\.:[^\n]+\.\n$/.test(t))).toBe(true);
    expect(all.some((t) => t.startsWith("BULLET::::- "))).toBe(true);
    expect(all.some((t) => /[\u{10000}-\u{10FFFF}]/u.test(t))).toBe(true); // outside the BMP
    expect(all.some((t) => t.includes("\u0301"))).toBe(true); // combining acute accent
    expect(all.some((t) => /\p{Script=Han}/u.test(t))).toBe(true); // CJK
  });

  it("has anchors whose code-point offsets read their text", () => {
    for (const p of knowledge.parsed) {
      for (const a of p.anchors) {
        const text = Array.from(paragraph(p, a.paragraph_id)).slice(a.start, a.end).join("");
        expect(text).toBe(a.text);
        if (a.wikipedia_id !== undefined) expect(getPage(a.wikipedia_id).wikipedia_title).toBe(a.wikipedia_title);
      }
    }
  });
});

describe("queries.jsonl", () => {
  it("has unique string ids, NQ-style ones included", () => {
    expect(queries.parsed).toHaveLength(5);
    const ids = queries.parsed.map((q) => q.id);
    expectUniqueStringIds(ids);
    expect(ids.some((id) => /^-\d{19}$/.test(id))).toBe(true);
    expect(ids.some((id) => /^\d{19}$/.test(id))).toBe(true);
    // the 19-digit ids must stay strings: as numbers they would lose digits
    expect(ids.some((id) => !Number.isSafeInteger(Number(id)))).toBe(true);
    for (const q of queries.parsed) expect(q.input).toBe(q.input.toLowerCase());
  });

  it("gives each line an answer and exactly one gold passage on an existing page", () => {
    for (const q of queries.parsed) {
      expect(q.output.some((o) => typeof o.answer === "string" && o.answer.length > 0)).toBe(true);
      const g = goldOf(q);
      const page = getPage(g.wikipedia_id);
      expect(g.title).toBe(page.wikipedia_title);
      expect(g.bleu_score).toBe(1);
      const { start_paragraph_id: sp, end_paragraph_id: ep, start_character: sc, end_character: ec } = g;
      if (sp === undefined || ep === undefined || sc === undefined || ec === undefined) throw new Error(`line ${q.id}: incomplete span`);
      expect(isContentParagraph(page, sp)).toBe(true);
      expect(isContentParagraph(page, ep)).toBe(true);
      expect(ep).toBeGreaterThanOrEqual(sp);
      expect(sc).toBeGreaterThanOrEqual(0);
      expect(sc).toBeLessThan(Array.from(paragraph(page, sp)).length);
      expect(ec).toBeGreaterThan(0);
      expect(ec).toBeLessThanOrEqual(Array.from(paragraph(page, ep)).length);
      if (sp === ep) expect(ec).toBeGreaterThan(sc);
      // section names the section holding the span, and the span stays inside it
      expect(g.section).toBe(sectionOf(page, sp));
      expect(sectionOf(page, ep)).toBe(g.section);
    }
  });

  it("has gold spans whose code-point slice contains the first answer", () => {
    for (const q of queries.parsed) {
      const g = goldOf(q);
      const { start_paragraph_id: sp, end_paragraph_id: ep, start_character: sc, end_character: ec } = g;
      if (sp === undefined || ep === undefined || sc === undefined || ec === undefined) throw new Error(`line ${q.id}: incomplete span`);
      const text = spanText(getPage(g.wikipedia_id), {
        start_paragraph_id: sp,
        end_paragraph_id: ep,
        start_character: sc,
        end_character: ec,
      });
      expect(text.toLowerCase()).toContain(firstAnswer(q).toLowerCase());
    }
  });

  it("has a cross-paragraph span and a span whose UTF-16 offsets differ from its code points", () => {
    const golds = queries.parsed.map(goldOf);
    expect(golds.some((g) => g.end_paragraph_id === (g.start_paragraph_id ?? NaN) + 1)).toBe(true);
    const differing = golds.filter((g) => {
      if (g.start_paragraph_id === undefined || g.start_character === undefined) return false;
      const page = getPage(g.wikipedia_id);
      return utf16Offset(paragraph(page, g.start_paragraph_id), g.start_character) !== g.start_character;
    });
    expect(differing.length).toBeGreaterThanOrEqual(1);
    // and the naive UTF-16 slice of that span reads the wrong text
    for (const g of differing) {
      if (g.start_paragraph_id === undefined || g.start_character === undefined || g.end_character === undefined) continue;
      const text = paragraph(getPage(g.wikipedia_id), g.start_paragraph_id);
      const cpSlice = Array.from(text).slice(g.start_character, g.end_character).join("");
      expect(text.slice(g.start_character, g.end_character)).not.toBe(cpSlice);
    }
  });

  it("keeps the big integer in one line's meta literally", () => {
    const carriers = queries.raw.filter((line) => line.includes(BIG_INTEGER_DIGITS));
    expect(carriers).toHaveLength(1);
    expect(carriers[0]).toMatch(new RegExp(`"meta"\\s*:\\s*\\{[^}]*\\b${BIG_INTEGER_DIGITS}\\b`));
    expect(BigInt(BIG_INTEGER_DIGITS) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe("candidates.jsonl", () => {
  it("has one line per query, same id and input", () => {
    const ids = candidates.parsed.map((c) => c.id);
    expectUniqueStringIds(ids);
    expect([...ids].sort()).toEqual(queries.parsed.map((q) => q.id).sort());
    const inputs = new Map(queries.parsed.map((q) => [q.id, q.input]));
    for (const c of candidates.parsed) {
      expect(c.input).toBe(inputs.get(c.id));
      expect(c.output).toHaveLength(1);
    }
  });

  it("ranks 3-4 candidates per query on existing pages and paragraphs", () => {
    let pageLevel = 0;
    for (const c of candidates.parsed) {
      const items = c.output[0]?.provenance ?? [];
      expect(items.length).toBeGreaterThanOrEqual(3);
      expect(items.length).toBeLessThanOrEqual(4);
      const gold = goldOf(queries.parsed.find((q) => q.id === c.id) ?? { id: c.id, input: "", output: [] });
      // a plausible distractor from another page
      expect(items.some((i) => i.wikipedia_id !== gold.wikipedia_id)).toBe(true);
      for (const item of items) {
        const page = getPage(item.wikipedia_id);
        expect(item.title).toBe(page.wikipedia_title);
        if (item.start_paragraph_id === undefined && item.end_paragraph_id === undefined) {
          pageLevel++; // page-level retriever: importer takes paragraph 1
          expect(isContentParagraph(page, 1)).toBe(true);
          continue;
        }
        if (item.start_paragraph_id === undefined) throw new Error(`candidate for ${c.id} has only an end paragraph`);
        expect(item.end_paragraph_id).toBe(item.start_paragraph_id);
        expect(isContentParagraph(page, item.start_paragraph_id)).toBe(true);
        expect(item.meta).toEqual({ retriever: "dpr" });
      }
    }
    expect(pageLevel).toBe(1);
  });

  it("has exactly one query whose candidate list contains its gold paragraph", () => {
    const hits = candidates.parsed.filter((c) => {
      const q = queries.parsed.find((x) => x.id === c.id);
      if (!q) return false;
      const g = goldOf(q);
      return (c.output[0]?.provenance ?? []).some(
        (i) =>
          i.wikipedia_id === g.wikipedia_id &&
          i.start_paragraph_id !== undefined &&
          i.start_paragraph_id >= (g.start_paragraph_id ?? NaN) &&
          i.start_paragraph_id <= (g.end_paragraph_id ?? NaN),
      );
    });
    expect(hits).toHaveLength(1);
  });
});
