import "server-only";
import { z } from "zod";
import { TASK_KINDS } from "@/lib/kilt/task-kind";

/** At most this many retrieval-output files in one batch. */
export const MAX_CANDIDATE_FILES = 20;

/** A number written in decimal ("4", " 0.1 ", ".5"); anything else (hex, "1e3", "Infinity") stays text and is refused. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const decimal = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && DECIMAL.test(v.trim()) ? Number(v.trim()) : v), schema);

const ON_OFF = new Map([
  ["on", true],
  ["off", false],
  ["true", true],
  ["false", false],
]);

const onOff = (message: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && ON_OFF.has(v.trim().toLowerCase()) ? ON_OFF.get(v.trim().toLowerCase()) : v),
    z.boolean(message),
  );

const count = (what: string) =>
  decimal(
    z
      .number(`must be a whole number of ${what}`)
      .int(`must be a whole number of ${what}`)
      .min(1, "must be at least 1")
      .max(100, "must be at most 100"),
  );

/**
 * A batch import's options, as the API takes them (JSON numbers, or the text of multipart fields):
 * - `perRetriever` (default 4): the top K candidates taken from each retrieval-output file; `topK`
 *   is its old name, still taken;
 * - `minAnswerOverlap` (0..1, none by default): keep a candidate only when, for one of the question's
 *   answers, at least that share of the answer's tokens is in the passage (lib/kilt/answer-overlap.ts);
 * - `retrieve: "text"` with `retrieveTopK` (default 4): also rank the paragraphs of the text index for
 *   each question's input and take the best as candidates (origin `retrieval:text`);
 * - `task`: the KILT task of the lines (qa, fact-checking, slot-filling, entity-linking, dialogue),
 *   over what the import detects (lib/kilt/task-kind.ts);
 * - `retriever`: with one candidates file, the retriever of its items without `meta.retriever`
 *   (by default the one the file's other items name, or the file's name when none does);
 * - `sets: "pairs"` with `setPages` (2–6, default 3): also pair the candidates of each question's top
 *   `setPages` candidate pages (by best rank) into evidence sets of two (candidate-sets.ts);
 * - `partialEvidence` ("on"/"off", or a boolean): whether annotators may answer "part of the
 *   evidence" on single passages; by default on for a HotpotQA-like batch or with `sets`, else off;
 * - `mapEvidence` ("on"/"off", or a boolean; off by default): locate the task file's provenance items
 *   given as text (`evidence` with `title` or `wikipedia_id`; map-evidence.ts), keeping those whose
 *   best match scores at least `minBleu` (0..1, default 0.5).
 */
export const batchImportOptionsSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    perRetriever: count("candidates").optional(),
    topK: count("candidates").optional(),
    minAnswerOverlap: decimal(
      z.number("must be a number between 0 and 1").min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
    ).optional(),
    retrieve: z.literal("text", 'must be "text" (rank the paragraphs of the text index), or left out').optional(),
    retrieveTopK: count("candidates").optional(),
    task: z.enum(TASK_KINDS, `must be one of ${TASK_KINDS.join(", ")} (or left out: detected from the file)`).optional(),
    retriever: z
      .string("must be a retriever's name")
      .trim()
      .min(1, "must be a retriever's name, or left out")
      .max(100, "must be at most 100 characters")
      .optional(),
    sets: z
      .literal("pairs", 'must be "pairs" (pair the candidates of each question\'s top pages into evidence sets), or left out')
      .optional(),
    setPages: decimal(
      z
        .number("must be a whole number of pages")
        .int("must be a whole number of pages")
        .min(2, "must be at least 2 (a pair needs two pages)")
        .max(6, "must be at most 6 (at most 15 pairs per question)"),
    ).optional(),
    partialEvidence: onOff('must be "on" or "off" (or left out: on for a HotpotQA-like batch or with sets "pairs")').optional(),
    mapEvidence: onOff('must be "on" or "off" (or left out: off; on locates the provenance items given as text)').optional(),
    minBleu: decimal(
      z.number("must be a number between 0 and 1").min(0, "must be between 0 and 1").max(1, "must be between 0 and 1"),
    ).optional(),
  })
  .superRefine((o, ctx) => {
    if (o.setPages !== undefined && o.sets === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["setPages"],
        message: 'is the number of top pages paired per question: give it with sets "pairs"',
      });
    }
    if (o.topK !== undefined && o.perRetriever !== undefined && o.topK !== o.perRetriever) {
      ctx.addIssue({ code: "custom", path: ["topK"], message: "is the old name of perRetriever: give one of them" });
    }
    if (o.minBleu !== undefined && o.mapEvidence !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["minBleu"],
        message: "is the least BLEU of a kept item given as text: give it with mapEvidence on",
      });
    }
    if (o.retrieveTopK !== undefined && o.retrieve === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["retrieveTopK"],
        message: 'is the number of text-retrieval candidates: give it with retrieve "text"',
      });
    }
  })
  .transform((o) => ({
    name: o.name,
    perRetriever: o.perRetriever ?? o.topK ?? 4,
    minAnswerOverlap: o.minAnswerOverlap,
    retrieve: o.retrieve,
    retrieveTopK: o.retrieve ? (o.retrieveTopK ?? 4) : undefined,
    retriever: o.retriever,
    task: o.task,
    sets: o.sets,
    setPages: o.sets ? (o.setPages ?? 3) : undefined,
    partialEvidence: o.partialEvidence,
    mapEvidence: o.mapEvidence,
    minBleu: o.mapEvidence ? (o.minBleu ?? 0.5) : undefined,
  }));

/** The options as given (the aliases, numbers or their text). */
export type BatchImportOptionsInput = z.input<typeof batchImportOptionsSchema>;
/** The options as the import uses them. */
export type BatchImportOptions = z.output<typeof batchImportOptionsSchema>;

/** The multipart fields a batch upload takes, besides its files. */
export const BATCH_FORM_FIELDS = [
  "name",
  "perRetriever",
  "topK",
  "minAnswerOverlap",
  "retrieve",
  "retrieveTopK",
  "retriever",
  "task",
  "sets",
  "setPages",
  "partialEvidence",
  "mapEvidence",
  "minBleu",
] as const;
