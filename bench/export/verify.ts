// Checks of the exported files, without vitest. The KILT checks are those of test/kilt-checks.ts
// (KILT's evaluator input rules): the file ends with "\n", no blank line, every line JSON with a
// string id (unique after trim), a string input, a non-empty output list, no empty provenance list;
// plus what the benchmark knows: the line count equals the export report's queriesExported (and the
// count computed in SQL at build time), and every line is its question's original line minus the
// closing "]}", then the appended entries, then "]}".
import fs from "node:fs";
import readline from "node:readline";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { sliceLocation } from "@/lib/kilt/codepoints";
import type { BuiltCampaign } from "./synthetic";

export interface Verdict {
  ok: boolean;
  message: string;
}

async function lastByte(file: string): Promise<number | undefined> {
  const size = fs.statSync(file).size;
  if (size === 0) return undefined;
  const fd = fs.openSync(file, "r");
  try {
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, size - 1);
    return b[0];
  } finally {
    fs.closeSync(fd);
  }
}

function lines(file: string) {
  return readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
}

/** One line parsed as JSON, or undefined after reporting it as a problem. */
function parseLine<T>(line: string, n: number, problem: (message: string) => void): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch (e) {
    problem(`line ${n}: not JSON (${String(e)})`);
    return undefined;
  }
}

interface KiltRow {
  id: unknown;
  input: unknown;
  output: unknown;
}
interface ProvenanceItem {
  wikipedia_id?: unknown;
  start_character?: unknown;
  meta?: { evidence_span?: unknown };
}

export async function verifyKiltFile(
  db: Db,
  file: string,
  built: BuiltCampaign,
  report: { queriesExported: number; unanswerable: number; passagesEndorsed: number } | undefined,
): Promise<Verdict> {
  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 10) problems.push(p);
  };
  const originals = new Map<string, string>();
  for (const r of rowsOf<{ kilt_id: string; original_line: string }>(
    await db.execute(sql`select kilt_id, original_line from queries where campaign_id = ${built.campaignId}`),
  )) {
    originals.set(r.kilt_id, r.original_line);
  }
  const size = fs.statSync(file).size;
  if (size > 0 && (await lastByte(file)) !== 10) problem("the file does not end with a newline");
  const ids = new Set<string>();
  let n = 0;
  let added = 0;
  let withSpan = 0;
  let bigMeta = 0;
  let astral = 0;
  for await (const line of lines(file)) {
    n++;
    if (line.trim() === "") {
      problem(`line ${n} is blank`);
      continue;
    }
    const row = parseLine<KiltRow>(line, n, problem);
    if (!row) continue;
    if (typeof row.id !== "string") problem(`line ${n}: id is not a string`);
    const id = String(row.id).trim();
    if (ids.has(id)) problem(`line ${n}: duplicate id ${id}`);
    ids.add(id);
    if (typeof row.input !== "string") problem(`line ${n}: input is not a string`);
    if (!Array.isArray(row.output) || row.output.length === 0) {
      problem(`line ${n}: output is not a non-empty list`);
      continue;
    }
    for (const entry of row.output as { provenance?: ProvenanceItem[] }[]) {
      if (entry.provenance !== undefined) {
        if (!Array.isArray(entry.provenance) || entry.provenance.length === 0) problem(`line ${n}: empty provenance`);
        else
          for (const item of entry.provenance)
            if (typeof item.wikipedia_id !== "string") problem(`line ${n}: provenance wikipedia_id is not a string`);
      }
    }
    const original = originals.get(String(row.id));
    if (original === undefined) {
      problem(`line ${n}: id ${String(row.id)} is no question of the campaign`);
      continue;
    }
    if (!original.endsWith("]}")) problem(`line ${n}: the original line does not end with "]}" (benchmark data error)`);
    if (!line.startsWith(original.slice(0, -2)) || !line.endsWith("]}"))
      problem(`line ${n}: does not start with its original line minus "]}"`);
    const before = (JSON.parse(original) as { output: unknown[] }).output.length;
    const mine = (row.output as { provenance?: ProvenanceItem[] }[]).slice(before);
    added += mine.length;
    for (const entry of mine) {
      const item = entry.provenance?.[0];
      if (entry.provenance?.length !== 1) problem(`line ${n}: an appended entry without exactly one provenance item`);
      if (typeof item?.start_character === "number" && item.start_character >= 0) withSpan++;
      if (!Array.isArray(item?.meta?.evidence_span) || item.meta.evidence_span.length < 2)
        problem(`line ${n}: an appended entry with fewer than 2 evidence spans`);
    }
    if (original.includes('"template_id": 9007199')) bigMeta++;
    if (/[\u{10000}-\u{10FFFF}]/u.test(line)) astral++;
  }
  if (report === undefined) problem("the export gave no report");
  else {
    if (n !== report.queriesExported) problem(`${n} lines, but the report says queriesExported ${report.queriesExported}`);
    if (report.queriesExported !== built.expected.queriesExported)
      problem(`report queriesExported ${report.queriesExported}, expected ${built.expected.queriesExported} (SQL at build time)`);
    if (report.unanswerable !== built.expected.unanswerable)
      problem(`report unanswerable ${report.unanswerable}, expected ${built.expected.unanswerable}`);
    if (report.passagesEndorsed !== added)
      problem(`report passagesEndorsed ${report.passagesEndorsed}, but ${added} entries were appended`);
  }
  if (added !== built.expected.passagesEndorsed)
    problem(`${added} provenance entries appended, expected ${built.expected.passagesEndorsed} endorsed passages of exported questions`);
  const message =
    `${n.toLocaleString("en-US")} lines = report queriesExported ${report?.queriesExported.toLocaleString("en-US") ?? "?"} ` +
    `(expected ${built.expected.queriesExported.toLocaleString("en-US")}; unanswerable ${report?.unanswerable.toLocaleString("en-US") ?? "?"}, expected ${built.expected.unanswerable.toLocaleString("en-US")}); ` +
    `KILT checks (no blank line, unique string ids, string input, non-empty output, no empty provenance); every line = original line minus "]}" + entries; ` +
    `${added.toLocaleString("en-US")} provenance entries appended (${withSpan.toLocaleString("en-US")} with a consensus span in characters); ` +
    `${bigMeta.toLocaleString("en-US")} lines keep a meta integer above 2^53, ${astral.toLocaleString("en-US")} hold a character outside the BMP`;
  return problems.length ? { ok: false, message: `${message}\n    FAILED: ${problems.join("; ")}` } : { ok: true, message };
}

interface JudgmentLine {
  query_id?: unknown;
  passage_id?: unknown;
  wikipedia_id?: unknown;
  annotator?: unknown;
  verdict?: unknown;
  counted?: unknown;
  span?: { start_paragraph_id: number; start_character: number; end_paragraph_id: number; end_character: number; text: string } | null;
}

/** N lines of JSON with the export's fields; spans = sufficient judgments; a sample of span texts equals the code-point slice of the page. */
export async function verifyJudgmentsFile(db: Db, file: string, built: BuiltCampaign, sampleSize = 1000): Promise<Verdict> {
  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 10) problems.push(p);
  };
  if (fs.statSync(file).size > 0 && (await lastByte(file)) !== 10) problem("the file does not end with a newline");
  let n = 0;
  let spans = 0;
  let counted = 0;
  let astral = 0;
  const passages = new Set<number>();
  const every = Math.max(1, Math.floor(built.expected.sufficientJudgments / sampleSize));
  const sample: { wikipediaId: string; span: NonNullable<JudgmentLine["span"]> }[] = [];
  for await (const line of lines(file)) {
    n++;
    const row = parseLine<JudgmentLine>(line, n, problem);
    if (!row) continue;
    if (
      typeof row.query_id !== "string" ||
      typeof row.wikipedia_id !== "string" ||
      typeof row.annotator !== "string" ||
      typeof row.passage_id !== "number"
    ) {
      problem(`line ${n}: missing or mistyped fields`);
      continue;
    }
    passages.add(row.passage_id);
    if (row.counted === true) counted++;
    if (row.span) {
      spans++;
      if (row.verdict !== "sufficient") problem(`line ${n}: a span on an ${String(row.verdict)} judgment`);
      if (spans % every === 0 && sample.length < sampleSize) sample.push({ wikipediaId: row.wikipedia_id, span: row.span });
      if (/[\u{10000}-\u{10FFFF}]/u.test(row.span.text)) astral++;
    } else if (row.verdict !== "insufficient") problem(`line ${n}: a ${String(row.verdict)} judgment without span`);
  }
  if (n !== built.judgments) problem(`${n} lines, expected ${built.judgments}`);
  if (spans !== built.expected.sufficientJudgments)
    problem(`${spans} spans, expected ${built.expected.sufficientJudgments} sufficient judgments`);
  if (counted !== built.judgments)
    problem(`${counted} judgments marked counted, expected all ${built.judgments} (every annotator active, 3 per passage)`);
  if (passages.size !== built.passages) problem(`${passages.size} distinct passages, expected ${built.passages}`);
  // The span texts of a sample against the pages, sliced in code points by the app's own function.
  const ids = [...new Set(sample.map((s) => s.wikipediaId))];
  const pages = new Map<string, string[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of rowsOf<{ wikipedia_id: string; paragraphs: string[] }>(
      await db.execute(sql`select wikipedia_id, paragraphs from pages where wikipedia_id = any(${sql.param(chunk)}::text[])`),
    )) {
      pages.set(r.wikipedia_id, r.paragraphs);
    }
  }
  let equal = 0;
  let astralSample = 0;
  for (const s of sample) {
    const paragraphs = pages.get(s.wikipediaId);
    const text = paragraphs
      ? sliceLocation(paragraphs, {
          startParagraphId: s.span.start_paragraph_id,
          startCharacter: s.span.start_character,
          endParagraphId: s.span.end_paragraph_id,
          endCharacter: s.span.end_character,
        })
      : undefined;
    if (text === s.span.text) equal++;
    else
      problem(
        `span on page ${s.wikipediaId} [${s.span.start_paragraph_id}:${s.span.start_character}–${s.span.end_paragraph_id}:${s.span.end_character}] differs from the code-point slice`,
      );
    if (paragraphs && /[\u{10000}-\u{10FFFF}]/u.test(paragraphs.slice(s.span.start_paragraph_id, s.span.end_paragraph_id + 1).join("")))
      astralSample++;
  }
  const message =
    `${n.toLocaleString("en-US")} lines (expected ${built.judgments.toLocaleString("en-US")}), ${spans.toLocaleString("en-US")} with a span (${astral.toLocaleString("en-US")} span texts hold a character outside the BMP), ` +
    `${counted.toLocaleString("en-US")} counted, ${passages.size.toLocaleString("en-US")} passages; sample: ${equal}/${sample.length} span texts equal to the code-point slice of their page (${astralSample} in paragraphs with a character outside the BMP)`;
  return problems.length ? { ok: false, message: `${message}\n    FAILED: ${problems.join("; ")}` } : { ok: true, message };
}

/** Lines of a file (count of "\n"), streamed. */
export async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of fs.createReadStream(file)) {
    const b = chunk as Buffer;
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
  }
  return n;
}
