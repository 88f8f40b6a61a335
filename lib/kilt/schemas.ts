import { z } from "zod";

/** KILT ids are strings; a JSON number is accepted only while it is a safe integer. */
export const kiltIdSchema = z
  .union([
    z
      .string()
      .min(1, "must not be empty")
      .refine((s) => s.trim() === s, "has leading or trailing spaces, which KILT's evaluator strips (two ids could collide)"),
    z.number().superRefine((n, ctx) => {
      if (!Number.isInteger(n)) ctx.addIssue({ code: "custom", message: "must be a string or an integer" });
      else if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: "custom", message: "is a number larger than 2^53, which JSON parsers round; write the id as a string" });
      }
    }),
  ])
  .transform(String);

/** Page ids: strings, or integers small enough to survive a JSON parser. */
const wikipediaIdSchema = z
  .union([
    z.string().min(1, "must not be empty"),
    z.number().superRefine((n, ctx) => {
      if (!Number.isInteger(n) || n < 0) ctx.addIssue({ code: "custom", message: "must be a string or a non-negative integer" });
      else if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: "custom", message: "is a number larger than 2^53, which JSON parsers round; write the id as a string" });
      }
    }),
  ])
  .transform(String);

const paragraphId = z.number().int().nonnegative();
const character = z.number().int().min(-1);

/** One item of a KILT provenance list. */
export const provenanceItemSchema = z.object({
  wikipedia_id: wikipediaIdSchema,
  title: z.string().optional(),
  section: z.string().optional(),
  start_paragraph_id: paragraphId.optional(),
  start_character: character.optional(),
  end_paragraph_id: paragraphId.optional(),
  end_character: character.optional(),
  bleu_score: z.number().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A provenance item's `"gold": "insufficient"` (this app's extension of KILT): a negative control,
 * gold expected *not* sufficient, hidden among the passages like other gold and never exported.
 */
export const negativeGoldSchema = z.literal(
  "insufficient",
  'must be "insufficient" (a negative control: gold expected not sufficient) or left out',
);

/** Longest explanation of a training item, in code points. */
export const MAX_EXPLANATION_CHARACTERS = 2000;

/**
 * A provenance item of a task file: gold. It may be a training item for crowd workers (`"training":
 * true`, this app's extension of KILT), with an `explanation` shown after the worker's answer.
 */
export const goldProvenanceItemSchema = provenanceItemSchema
  .extend({
    gold: negativeGoldSchema.optional(),
    training: z.boolean("must be true or false").optional(),
    explanation: z
      .string("must be text")
      .refine(
        (s) => Array.from(s).length <= MAX_EXPLANATION_CHARACTERS,
        `must be at most ${MAX_EXPLANATION_CHARACTERS.toLocaleString("en")} characters`,
      )
      .optional(),
  })
  .superRefine((item, ctx) => {
    if (item.explanation !== undefined && item.training !== true) {
      ctx.addIssue({ code: "custom", path: ["explanation"], message: 'is allowed only on a training item: add "training": true' });
    }
  });

const goldOnly = "is allowed only on gold provenance items (in the task file), not on retrieved candidates";

/** A provenance item of a retrieval-output file: a candidate, never a training item. */
export const candidateProvenanceItemSchema = provenanceItemSchema.extend({
  /** A candidate marked as a negative control: stored as gold expected insufficient. */
  gold: negativeGoldSchema.optional(),
  training: z.never(goldOnly).optional(),
  explanation: z.never(goldOnly).optional(),
  /** Items sharing a `set` value are one evidence set, judged together (this app's extension of KILT). */
  set: z.union([z.string(), z.number()], "must be a string or a number naming the item's evidence set").optional(),
});

export const outputEntrySchema = z.object({
  answer: z.string().optional(),
  provenance: z.array(goldProvenanceItemSchema).optional(),
});

/** A line of a KILT task file (`*-kilt.jsonl`). */
export const taskLineSchema = z.object({
  id: kiltIdSchema,
  input: z.string().min(1, "must not be empty"),
  output: z.array(outputEntrySchema).default([]),
  meta: z.unknown().optional(),
});

/** Longest evidence text of a provenance item given as text, in code points. */
export const MAX_EVIDENCE_CHARACTERS = 20_000;

const NUL = "\u0000";
const withoutNul = (s: string) => !s.includes(NUL);
const locatedOnly = "is taken only on a located item (paragraph and character ids), not on evidence given as text";
const notLocatedWithText = "is not given with evidence text: the import locates the text (give either evidence or paragraph ids)";

/**
 * A provenance item of a task file given as text (this app's extension of KILT): the `evidence`
 * string and its page, by `wikipedia_id` or `title`; the import locates it (lib/kilt/map/match-answer.ts)
 * when asked to map evidence, and it then keeps the match's `bleu_score`.
 */
export const textEvidenceItemSchema = z
  .object({
    evidence: z
      .string("must be the evidence, as text")
      .refine((s) => s.trim() !== "", "must not be empty")
      .refine(withoutNul, "holds a NUL character (\\u0000), which text cannot hold")
      .refine(
        (s) => s.length <= MAX_EVIDENCE_CHARACTERS || Array.from(s).length <= MAX_EVIDENCE_CHARACTERS,
        `must be at most ${MAX_EVIDENCE_CHARACTERS.toLocaleString("en")} characters`,
      ),
    wikipedia_id: wikipediaIdSchema.optional(),
    title: z
      .string("must be the page's title, as text")
      .trim()
      .min(1, "must not be empty")
      .max(1000, "must be at most 1,000 characters")
      .refine(withoutNul, "holds a NUL character (\\u0000), which a title cannot hold")
      .optional(),
    section: z.string().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    start_paragraph_id: z.never(notLocatedWithText).optional(),
    end_paragraph_id: z.never(notLocatedWithText).optional(),
    start_character: z.never(notLocatedWithText).optional(),
    end_character: z.never(notLocatedWithText).optional(),
    gold: z.never(locatedOnly).optional(),
    training: z.never(locatedOnly).optional(),
    explanation: z.never(locatedOnly).optional(),
  })
  .superRefine((item, ctx) => {
    if (item.wikipedia_id === undefined && item.title === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["title"],
        message: "is missing: evidence given as text needs its page (title or wikipedia_id)",
      });
  });

/** Whether a provenance item (JSON) gives its evidence as text. */
export const isTextEvidence = (item: unknown): boolean => typeof item === "object" && item !== null && "evidence" in item;

/** A task file's provenance item: located (goldProvenanceItemSchema) or given as text (textEvidenceItemSchema). */
const mappableItemSchema = z.unknown().transform((v, ctx) => {
  const parsed = isTextEvidence(v) ? textEvidenceItemSchema.safeParse(v) : goldProvenanceItemSchema.safeParse(v);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

/** A task line whose provenance items may give their evidence as text (a batch import that maps evidence). */
export const mappableTaskLineSchema = z.object({
  id: kiltIdSchema,
  input: z.string().min(1, "must not be empty"),
  output: z.array(z.object({ answer: z.string().optional(), provenance: z.array(mappableItemSchema).optional() })).default([]),
  meta: z.unknown().optional(),
});

/** A line of the KILT knowledge source (`kilt_knowledgesource.json`). */
export const knowledgeRecordSchema = z.object({
  wikipedia_id: wikipediaIdSchema,
  wikipedia_title: z.string(),
  text: z.array(z.string()).min(1, "must hold at least the title paragraph"),
});

export type ProvenanceItem = z.infer<typeof provenanceItemSchema>;
export type TaskLine = z.infer<typeof taskLineSchema>;
export type TextEvidenceItem = z.infer<typeof textEvidenceItemSchema>;
export type MappableTaskLine = z.infer<typeof mappableTaskLineSchema>;
export type KnowledgeRecord = z.infer<typeof knowledgeRecordSchema>;

/** An anchor of a knowledge-source page (KILT's `anchors`): a link, its paragraph and code-point offsets. */
export interface KnowledgeAnchor {
  text: string;
  href: string;
  paragraph_id: number;
  start: number;
  end: number;
  wikipedia_id?: string;
  wikipedia_title?: string;
}
