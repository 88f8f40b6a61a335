import { FatalImportError, parseJsonLine, type ImportProblem, type JsonlLine } from "@/lib/kilt/jsonl";
import { GuessLines, type GuessKind } from "./guess-lines";
import { ScoreAccumulator, checkedKs } from "./accumulate";
import { parseGoldLine } from "./records";
import type { GoldRecord, KiltResult, Level } from "./types";

export type { GuessKind } from "./guess-lines";

/**
 * Scores a guess file against a gold file as `eval_retrieval.evaluate` and
 * `eval_downstream.evaluate` do, reading both as streams. The guess drives: each guess line is
 * matched by id with its gold line, read ahead as far as needed (gold lines passed over wait in a
 * map as their UTF-8 bytes), and scored at once; so memory stays flat when the files share their
 * order and holds only the gold lines read ahead when they do not. Every line is checked; a problem names
 * file, line and field, and with any problem no figure is given.
 */

export interface LineSource {
  file: string;
  lines: AsyncIterable<JsonlLine>;
}

export interface ScoreFilesInput {
  gold: LineSource;
  guess: LineSource;
  ks: number[];
  levels: Level[];
}

export type ScoreFilesResult =
  { ok: true; result: KiltResult; questions: number; kind: GuessKind } | { ok: false; problems: ImportProblem[] };

/** Reading stops collecting problems past this many. */
export const MAX_SCORE_PROBLEMS = 200;

interface Waiting {
  record: GoldRecord;
  line: number;
}

/**
 * A gold line passed over, parked until its guess comes: its checked text as UTF-8 bytes, outside
 * the JavaScript heap (a parsed record takes several times as much), parsed again when needed.
 */
interface Parked {
  bytes: Buffer;
  line: number;
}

function unpark(p: Parked): GoldRecord {
  const parsed = parseGoldLine(JSON.parse(p.bytes.toString("utf8")));
  if (!parsed.ok) throw new Error("a checked gold line no longer parses");
  return parsed.record;
}

class Reader {
  readonly problems: ImportProblem[] = [];
  private readonly waiting = new Map<string, Parked>();
  private readonly goldLines = new Map<string, number>();
  private readonly gold: AsyncIterator<JsonlLine>;
  private goldDone = false;

  constructor(private readonly input: ScoreFilesInput) {
    this.gold = input.gold.lines[Symbol.asyncIterator]();
  }

  problem(file: string, line: number, field: string, message: string): void {
    if (this.problems.length < MAX_SCORE_PROBLEMS) this.problems.push({ file, line, field, message });
  }

  /** The gold record of an id, reading the gold file ahead until it appears; null when it never does. */
  async goldOf(id: string): Promise<GoldRecord | null> {
    const waiting = this.waiting.get(id);
    if (waiting) {
      this.waiting.delete(id);
      return unpark(waiting);
    }
    while (!this.goldDone) {
      const next = await this.nextGold();
      if (!next) continue;
      if (next.record.id === id) return next.record;
      this.waiting.set(next.record.id, { bytes: Buffer.from(next.text, "utf8"), line: next.line });
    }
    return null;
  }

  /**
   * Reads the rest of the gold file; every gold line never matched lacks a prediction (unless a
   * guess line could not be read: it names no id, so its gold line would be blamed wrongly).
   */
  async finish(unreadGuessLines: number): Promise<void> {
    while (!this.goldDone) {
      const next = await this.nextGold();
      if (next) this.waiting.set(next.record.id, { bytes: Buffer.alloc(0), line: next.line });
    }
    if (unreadGuessLines > 0) return;
    for (const [id, w] of this.waiting)
      this.problem(this.input.gold.file, w.line, "id", `has no prediction in ${this.input.guess.file} (id ${id})`);
  }

  private async nextGold(): Promise<(Waiting & { text: string }) | null> {
    const r = await this.gold.next();
    if (r.done) {
      this.goldDone = true;
      return null;
    }
    const { lineNumber, text } = r.value;
    const file = this.input.gold.file;
    const parsed = parseJsonLine(text);
    const record = parsed.ok ? parseGoldLine(parsed.value) : parsed;
    if (!record.ok) {
      this.problem(file, lineNumber, record.field, record.message);
      return null;
    }
    const first = this.goldLines.get(record.record.id);
    if (first !== undefined) {
      this.problem(file, lineNumber, "id", `repeats the id of line ${first} (${record.record.id}): gold ids must be unique`);
      return null;
    }
    this.goldLines.set(record.record.id, lineNumber);
    return { record: record.record, line: lineNumber, text };
  }
}

export async function scoreFiles(input: ScoreFilesInput): Promise<ScoreFilesResult> {
  const ks = checkedKs(input.ks);
  const accumulator = new ScoreAccumulator({ ks, levels: input.levels, downstream: true });
  const reader = new Reader(input);
  const lines = new GuessLines((line, field, message) => reader.problem(input.guess.file, line, field, message));
  let unread = 0;
  try {
    for await (const line of input.guess.lines) {
      const guess = lines.check(line);
      if (guess === undefined) unread++;
      if (!guess) continue;
      const gold = await reader.goldOf(guess.id);
      if (!gold) reader.problem(input.guess.file, line.lineNumber, "id", `${guess.id} is not in ${input.gold.file}`);
      else if (reader.problems.length === 0) accumulator.add(gold, guess);
    }
    await reader.finish(unread);
  } catch (error) {
    if (!(error instanceof FatalImportError)) throw error;
    reader.problems.push(error.problem);
  }
  const kind = lines.kind;
  if (!kind && reader.problems.length === 0) reader.problem(input.guess.file, 1, "(file)", "holds no prediction");
  if (reader.problems.length > 0) return { ok: false, problems: sortProblems(reader.problems) };
  const full = accumulator.result();
  const result: KiltResult = {};
  if (kind!.provenance) for (const level of input.levels) result[level] = full[level];
  if (kind!.answers) result.downstream = full.downstream;
  return { ok: true, result, questions: accumulator.questions, kind: { provenance: kind!.provenance, answers: kind!.answers } };
}

function sortProblems(problems: ImportProblem[]): ImportProblem[] {
  return [...problems].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}
