// What the campaigns built in SQL (bench/dashboard/seed.ts, bench/export/synthetic.ts) share: the
// words their page titles and texts start from, text arrays as SQL literals, and a pseudo-random
// integer from a SQL hash.

/** The place words both synthetic campaigns name their pages and questions with (each adds words of its own after them). */
export const PLACE_WORDS = [
  "river",
  "castle",
  "museum",
  "harbour",
  "valley",
  "council",
  "railway",
  "garden",
  "temple",
  "bridge",
  "village",
  "market",
];

/** A non-negative pseudo-random integer in [0, m) from an integer SQL expression. */
export const rnd = (expr: string, m: number) => `(abs(hashint4((${expr})::int)::bigint) % ${m})`;

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A text[] literal of `xs`, quotes doubled. */
export const textArray = (xs: readonly string[]) => `(array[${xs.map(lit).join(", ")}]::text[])`;
