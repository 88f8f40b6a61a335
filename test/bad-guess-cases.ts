import { readFileSync } from "node:fs";
import path from "node:path";

/** test/fixtures/bad-guess: the guess files KILT's evaluator would choke on, and the problem each must give. */
export const BAD_GUESS_DIR = path.join(process.cwd(), "test", "fixtures", "bad-guess");

export interface BadGuessCase {
  kind: string;
  file: string;
  /** The file the problem names when it is not the guess (the gold, for a gold id without prediction). */
  problemFile?: string;
  line: number;
  field: string;
  message: string;
}

/** The cases of `cases.json`. */
export function badGuessCases(): BadGuessCase[] {
  return JSON.parse(readFileSync(path.join(BAD_GUESS_DIR, "cases.json"), "utf8")) as BadGuessCase[];
}
