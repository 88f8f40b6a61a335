import { parseJsonLine, type JsonlLine } from "@/lib/kilt/jsonl";
import { parseGuessLine } from "./records";
import type { GuessRecord } from "./types";

/** What a guess file gives on every line: provenance (retrieval figures), answers (downstream figures). */
export interface GuessKind {
  provenance: boolean;
  answers: boolean;
}

/**
 * The checks of a guess file, line by line, shared by `kps score` and a run's upload: the line is
 * JSON of KILT's guess shape, its id is new, and it gives what line 1 gave (provenance, an answer).
 * Each problem goes to `report` with its line and field.
 */
export class GuessLines {
  /** Each id seen, with its line. */
  readonly seen = new Map<string, number>();
  /** What line 1 gave, and its line number. */
  kind: (GuessKind & { line: number }) | undefined;

  constructor(private readonly report: (line: number, field: string, message: string) => void) {}

  /** The line's record; undefined when it could not be read (it names no id), null when it repeats an id. */
  check(line: JsonlLine): GuessRecord | null | undefined {
    const parsed = parseJsonLine(line.text);
    const record = parsed.ok ? parseGuessLine(parsed.value) : parsed;
    if (!record.ok) {
      this.report(line.lineNumber, record.field, record.message);
      return undefined;
    }
    const guess = record.record;
    const first = this.seen.get(guess.id);
    if (first !== undefined) {
      this.report(line.lineNumber, "id", `is a duplicate: line ${first} already predicts ${guess.id}`);
      return null;
    }
    this.seen.set(guess.id, line.lineNumber);
    const kind = this.kind;
    if (!kind) this.kind = { provenance: guess.provenance !== null, answers: guess.answer !== null, line: line.lineNumber };
    else if (kind.provenance && guess.provenance === null) {
      this.report(
        line.lineNumber,
        "output[0].provenance",
        `is missing, while line ${kind.line} gives one: give provenance on every line or on none`,
      );
    } else if (kind.answers && guess.answer === null) {
      this.report(
        line.lineNumber,
        "output[0].answer",
        `is missing, while line ${kind.line} gives one: give an answer on every line or on none`,
      );
    }
    return guess;
  }
}
