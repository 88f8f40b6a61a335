import { z } from "zod";
import { fieldPath } from "@/lib/kilt/jsonl";
import { pyStrip } from "./python";
import type { GoldRecord, GuessRecord, ProvItem } from "./types";

/**
 * Gold and guess lines parsed with zod into the records the scorer reads. KILT's evaluators take
 * `str(v).strip()` of ids and rank keys and assert on the first malformed line; here every line is
 * checked and a problem names its field. Values KILT would turn into surprising strings (`None`,
 * `3.0`, a rounded 19-digit number) are refused instead.
 */

export type ParsedRecord<T> = { ok: true; record: T } | { ok: false; field: string; message: string };

const BIG = "is a number larger than 2^53, which JSON parsers round; write it as a string";

const idSchema = z
  .union([z.string(), z.number()], { error: (issue) => (issue.input === undefined ? "is missing" : "must be a string (or an integer)") })
  .superRefine((v, ctx) => {
    if (typeof v === "number" && !Number.isInteger(v)) ctx.addIssue({ code: "custom", message: "must be a string or an integer" });
    else if (typeof v === "number" && !Number.isSafeInteger(v)) ctx.addIssue({ code: "custom", message: BIG });
    else if (pyStrip(String(v)) === "") ctx.addIssue({ code: "custom", message: "must not be empty" });
  });

const wikipediaId = z.union([z.string(), z.number()], { error: "must be a string or a non-negative integer" }).superRefine((v, ctx) => {
  if (typeof v === "number" && (!Number.isInteger(v) || v < 0))
    ctx.addIssue({ code: "custom", message: "must be a string or a non-negative integer" });
  else if (typeof v === "number" && !Number.isSafeInteger(v)) ctx.addIssue({ code: "custom", message: BIG });
});

const paragraphId = z
  .number({ error: "must be a non-negative integer" })
  .int("must be a non-negative integer")
  .nonnegative("must be a non-negative integer");

const itemSchema = z.object(
  {
    wikipedia_id: wikipediaId.optional(),
    start_paragraph_id: paragraphId.optional(),
    end_paragraph_id: paragraphId.optional(),
    title: z.string({ error: "must be a string" }).nullable().optional(),
    text: z.string({ error: "must be a string" }).nullable().optional(),
  },
  { error: "must be an object" },
);

const provenanceSchema = z.array(itemSchema, { error: "must be an array of provenance items" });

const goldOutputSchema = z.object(
  { answer: z.string({ error: "must be a string" }).nullable().optional(), provenance: provenanceSchema.optional() },
  { error: "must be an object" },
);

const goldSchema = z.object(
  {
    id: idSchema,
    input: z.string({ error: "must be a string" }),
    output: z
      .array(goldOutputSchema, { error: "must be an array of output entries" })
      .min(1, "must hold at least one entry (KILT's evaluator cannot score a line without one)"),
  },
  { error: "must be a JSON object" },
);

const guessSchema = z.object(
  {
    id: idSchema,
    output: z
      .array(
        z
          .object(
            { answer: z.string({ error: "must be a string" }).optional(), provenance: provenanceSchema.optional() },
            { error: "must be an object" },
          )
          .refine((o) => o.answer !== undefined || o.provenance !== undefined, "has neither an answer nor a provenance list"),
        { error: "must be an array holding one output entry" },
      )
      .length(1, "must hold exactly one output entry (KILT's evaluator scores one answer and one ranked provenance list per question)"),
  },
  { error: "must be a JSON object" },
);

type ItemIn = z.infer<typeof itemSchema>;

function key(v: string | number | undefined): string | null {
  return v === undefined ? null : pyStrip(String(v));
}

function provItem(p: ItemIn): ProvItem {
  return {
    wikipedia_id: key(p.wikipedia_id),
    start_paragraph_id: key(p.start_paragraph_id),
    end_paragraph_id: key(p.end_paragraph_id),
    title: p.title ?? null,
    text: p.text ?? null,
  };
}

function failure(error: z.ZodError): { ok: false; field: string; message: string } {
  const issue = error.issues[0]!;
  return { ok: false, field: fieldPath(issue.path), message: issue.message };
}

/** A gold line (a KILT file's line: the campaign's questions, an export, a benchmark's dev set). */
export function parseGoldLine(value: unknown): ParsedRecord<GoldRecord> {
  const parsed = goldSchema.safeParse(value);
  if (!parsed.success) return failure(parsed.error);
  const line = parsed.data;
  const { answers, titles, outputs } = goldOutputsOf(line.output);
  return { ok: true, record: { id: pyStrip(String(line.id)), input: line.input, answers, titles, outputs } };
}

/** What a gold line's output entries give its record: its answers and titles (non-empty, stripped, each once, in order) and each entry's provenance. */
export type GoldOutputs = Pick<GoldRecord, "answers" | "titles" | "outputs">;

function goldOutputsOf(list: readonly z.infer<typeof goldOutputSchema>[]): GoldOutputs {
  const answers = new Set<string>();
  const titles = new Set<string>();
  const outputs: GoldRecord["outputs"] = [];
  for (const o of list) {
    if (o.answer && pyStrip(o.answer).length > 0) answers.add(pyStrip(o.answer));
    if (o.provenance === undefined) {
      outputs.push({ provenance: null });
      continue;
    }
    for (const p of o.provenance) if (p.title && pyStrip(p.title).length > 0) titles.add(pyStrip(p.title));
    outputs.push({ provenance: o.provenance.map(provItem) });
  }
  return { answers: [...answers], titles: [...titles], outputs };
}

/**
 * Output entries (parsed JSON values) read one by one as `parseGoldLine` reads them inside a line's
 * `output` list, which checks each entry by itself: null when one would make the line refused.
 */
export function parseGoldOutputs(values: readonly unknown[]): GoldOutputs | null {
  const checked: z.infer<typeof goldOutputSchema>[] = [];
  for (const v of values) {
    const parsed = goldOutputSchema.safeParse(v);
    if (!parsed.success) return null;
    checked.push(parsed.data);
  }
  return goldOutputsOf(checked);
}

/** A guess line: a system's one answer and/or one ranked provenance list for a question. */
export function parseGuessLine(value: unknown): ParsedRecord<GuessRecord> {
  const parsed = guessSchema.safeParse(value);
  if (!parsed.success) return failure(parsed.error);
  const out = parsed.data.output[0]!;
  return {
    ok: true,
    record: {
      id: pyStrip(String(parsed.data.id)),
      answer: out.answer ?? null,
      provenance: out.provenance ? out.provenance.map(provItem) : null,
    },
  };
}
