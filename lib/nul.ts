/**
 * PostgreSQL text cannot hold NUL (U+0000): a string holding one fails the statement that stores or
 * compares it (SQLSTATE 22021), on PGlite too. Input from outside is refused before it gets there,
 * as a 422 naming the field: parseInput (lib/errors.ts) checks what a schema lets through, and the
 * JSONL readers (lib/kilt/jsonl.ts) each line.
 */
export const NUL_MESSAGE = "must not contain a NUL character (\\u0000)";

/** Whether `text` holds a NUL character. */
export function hasNul(text: string): boolean {
  return text.includes("\u0000");
}

/** At most this many paths are reported: one is enough to say what is wrong. */
const MAX_PATHS = 20;

/**
 * The path of every string (or object key) holding NUL in a JSON-like value, at most 20.
 * The walk keeps its own stack, so a deeply nested value cannot overflow the call stack.
 */
export function nulPaths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const stack: Step[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && found.length < MAX_PATHS) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === "string") {
      if (hasNul(current)) found.push(pathOf(step));
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: step });
    } else if (isPlainObject(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        if (hasNul(key)) found.push(pathOf({ value: v, key, parent: step }));
        else stack.push({ value: v, key, parent: step });
      }
    }
  }
  return found;
}

/** A value in the walk and how it was reached (a path is only spelled out when NUL is found). */
interface Step {
  value: unknown;
  key: string | number | undefined;
  parent: Step | undefined;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let s: Step | undefined = step; s?.parent; s = s.parent) path.push(s.key!);
  return path.reverse();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
