// A KILT gold or guess line as the scorer reads it, for tests: a line that does not parse fails the test with its field.
import { parseGoldLine, parseGuessLine } from "@/lib/kilt/score/records";
import type { GoldRecord, GuessRecord } from "@/lib/kilt/score/types";

export function gold(value: unknown): GoldRecord {
  const r = parseGoldLine(value);
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  return r.record;
}

export function guess(value: unknown): GuessRecord {
  const r = parseGuessLine(value);
  if (!r.ok) throw new Error(`${r.field}: ${r.message}`);
  return r.record;
}
