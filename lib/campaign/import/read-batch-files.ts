import "server-only";
import { z } from "zod";
import { fieldPath, parseJsonLine, readLines } from "@/lib/kilt/jsonl";
import {
  candidateProvenanceItemSchema,
  isTextEvidence,
  kiltIdSchema,
  mappableTaskLineSchema,
  provenanceItemSchema,
  textEvidenceItemSchema,
  type MappableTaskLine,
  type ProvenanceItem,
  type TaskLine,
} from "@/lib/kilt/schemas";
import { answersOf, type PassageDraft } from "./passage-drafts";
import { locatedGoldOf } from "./set-drafts";
import { foldedTitle } from "./evidence-pages";
import type { Problems } from "./import-problems";

/** Task and retrieval lines are short; a longer one is a broken file. */
export const MAX_TASK_LINE_BYTES = 4 * 1024 * 1024;
/** At most this many questions in one batch. */
export const MAX_BATCH_QUERIES = 200_000;

/** A file to import: its name (for messages) and its bytes, streamed and read once. */
export interface ImportFile {
  fileName: string;
  source: AsyncIterable<Uint8Array>;
}

/** Where a passage came from, to point at the right line and field when its page is wrong. */
export interface Located<T> {
  value: T;
  file: string;
  line: number;
  field: string;
  /** An evidence set: each member's field (its provenance item), in member order. */
  memberFields?: string[];
}

export interface ParsedQuery {
  kiltId: string;
  input: string;
  answers: string[];
  originalLine: string;
  lineNumber: number;
  gold: Located<PassageDraft>[];
  /** The line's `meta`, for detecting its task (a dataset it names). */
  meta?: unknown;
  /** A line with evidence given as text, until the import locates it (map-evidence.ts): its gold is made then. */
  textLine?: MappableTaskLine;
}

/** One line of a retrieval-output file: the ranking of its first output entry that has provenance. */
export interface Ranking {
  lineNumber: number;
  /** Its items (one may be marked `"gold": "insufficient"`: a negative control). */
  ranking: (ProvenanceItem & { gold?: "insufficient"; set?: string | number })[];
  entry: number;
}

const retrievalLineSchema = z.object({
  id: kiltIdSchema,
  output: z
    .array(z.object({ provenance: z.array(candidateProvenanceItemSchema).optional() }).loose())
    .min(1, "must hold the ranking's output entry"),
});

/** The page an item references: its wikipedia_id; an item given as text may name its page by title instead (or as well). */
const referenceItemSchema = z.unknown().transform((v, ctx) => {
  const text = isTextEvidence(v);
  const parsed = text ? textEvidenceItemSchema.safeParse(v) : provenanceItemSchema.safeParse(v);
  if (parsed.success) return { id: parsed.data.wikipedia_id, title: text && "title" in parsed.data ? parsed.data.title : undefined };
  for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

const provenanceLineSchema = z
  .object({ output: z.array(z.object({ provenance: z.array(referenceItemSchema).optional() }).loose()) })
  .loose();

async function* jsonLines(file: ImportFile, problems: Problems) {
  for await (const line of readLines(file.source, { file: file.fileName, maxLineBytes: MAX_TASK_LINE_BYTES })) {
    const json = parseJsonLine(line.text);
    if (!json.ok) {
      problems.add(file.fileName, line.lineNumber, json.field, json.message);
      if (problems.full) return;
      continue;
    }
    yield { json: json.value, text: line.text, lineNumber: line.lineNumber };
    if (problems.full) return;
  }
}

/**
 * Reads a KILT task file: questions, answers, the original lines, and gold passages from provenance.
 * A provenance item may give its evidence as text: its line's gold is made once the import has
 * located it (ParsedQuery.textLine; map-evidence.ts), which it does only when asked to (`mapEvidence`).
 */
export async function readTaskFile(file: ImportFile, problems: Problems): Promise<ParsedQuery[]> {
  const out: ParsedQuery[] = [];
  const seen = new Map<string, number>();
  for await (const { json, text, lineNumber } of jsonLines(file, problems)) {
    const parsed = mappableTaskLineSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
      continue;
    }
    const line = parsed.data as MappableTaskLine;
    const first = seen.get(line.id);
    if (first !== undefined) {
      problems.add(file.fileName, lineNumber, "id", `'${line.id}' appears again (first on line ${first})`);
      continue;
    }
    seen.set(line.id, lineNumber);
    if (out.length >= MAX_BATCH_QUERIES) {
      problems.add(file.fileName, lineNumber, "(line)", `a batch holds at most ${MAX_BATCH_QUERIES} questions; split the file`);
      break;
    }
    const hasText = line.output.some((o) => (o.provenance ?? []).some(isTextEvidence));
    out.push({
      kiltId: line.id,
      input: line.input,
      answers: answersOf(line as TaskLine),
      originalLine: text,
      lineNumber,
      gold: hasText ? [] : locatedGoldOf(line as unknown as TaskLine, file.fileName, lineNumber, problems),
      meta: datasetMeta(line.meta),
      ...(hasText ? { textLine: line } : {}),
    });
  }
  return out;
}

/** Of a line's meta, only what names a dataset (the rest stays in the original line). */
function datasetMeta(meta: unknown): unknown {
  if (!meta || typeof meta !== "object") return undefined;
  const { dataset, task } = meta as Record<string, unknown>;
  return dataset === undefined && task === undefined ? undefined : { dataset, task };
}

/** Reads a KILT retrieval-output file: per query id, the ranking of its first output entry. */
export async function readCandidatesFile(file: ImportFile, problems: Problems): Promise<Map<string, Ranking>> {
  const out = new Map<string, Ranking>();
  for await (const { json, lineNumber } of jsonLines(file, problems)) {
    const parsed = retrievalLineSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
      continue;
    }
    const { id, output } = parsed.data;
    const seen = out.get(id);
    if (seen) {
      problems.add(file.fileName, lineNumber, "id", `'${id}' appears again (first on line ${seen.lineNumber})`);
      continue;
    }
    const entry = Math.max(
      0,
      output.findIndex((o) => o.provenance !== undefined),
    );
    out.set(id, { lineNumber, ranking: output[entry]?.provenance ?? [], entry });
  }
  return out;
}

/** The pages a filtered knowledge import keeps: by wikipedia_id, and by title folded as `foldedTitle` folds it. */
export interface ReferencedPages {
  ids: Set<string>;
  titles: Set<string>;
}

/**
 * Adds to `into` the pages a task or retrieval file references (for a filtered knowledge import): the
 * items' wikipedia_ids, and the titles that items of evidence given as text name their pages by. A
 * title reached only through a redirects file (read with the batch, not here) is not among them.
 */
export async function addReferencedPages(file: ImportFile, into: ReferencedPages, problems: Problems): Promise<void> {
  for await (const { json, lineNumber } of jsonLines(file, problems)) {
    const parsed = provenanceLineSchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(file.fileName, lineNumber, fieldPath(issue.path), issue.message);
      continue;
    }
    for (const entry of parsed.data.output)
      for (const { id, title } of entry.provenance ?? []) {
        if (id !== undefined) into.ids.add(id);
        if (title !== undefined) into.titles.add(foldedTitle(title));
      }
  }
}
