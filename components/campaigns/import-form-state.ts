// The import screen's state as a pure reducer: what the coordinator chose, each upload's progress,
// and the outcome. No React and no I/O, so client components may import it and tests drive it
// directly; components/campaigns/use-import.ts runs the uploads and dispatches these actions.
import { formatBytes } from "@/lib/format";
import type { Problem } from "@/components/api/client";
import { importProgressText, type BatchImportResult, type ImportProgress } from "@/lib/campaign/import/import-batch.contract";
import type { KnowledgeImportResult } from "@/lib/knowledge/knowledge.contract";
import type { TaskKind } from "@/lib/kilt/task-kind";

export type StepKey = "knowledge" | "batch";
export type StepState = "waiting" | "uploading" | "processing" | "done" | "failed";

/** One upload: its bytes sent so far, and where it stands. */
export interface Step {
  key: StepKey;
  label: string;
  loaded: number;
  total: number;
  state: StepState;
  /** While the server ranks the index's paragraphs for the batch's questions (retrieve text): how far it is. */
  ranked?: ImportProgress;
}

/** What the form holds before Import: the files and the options. */
export interface ImportDraft {
  knowledge: File | null;
  queries: File | null;
  /** One retrieval-output file per retriever. */
  candidates: File[];
  /** The top K taken from each candidates file. */
  perRetriever: string;
  /** "" for none, else a share 0..1. */
  minAnswerOverlap: string;
  /** Also propose the best paragraphs of the text index. */
  retrieveText: boolean;
  retrieveTopK: string;
  /** With one candidates file: the retriever of its items without meta.retriever ("" for the default). */
  retriever: string;
  name: string;
  keepCited: boolean;
  /** The KILT task of the lines; "" to detect it from the file. */
  task: TaskKind | "";
  /** "pairs": also pair the candidates of each question's top pages into evidence sets; "" for none. */
  sets: "" | "pairs";
  /** With sets: the top candidate pages paired per question (2–6). */
  setPages: string;
  /** "Part of the evidence": "" for the default (on for a HotpotQA-like batch or with pairs). */
  partialEvidence: "" | "on" | "off";
  /** Locate the provenance items given as text (docs/formats.md#evidence-given-as-text). */
  mapEvidence: boolean;
  /** With mapEvidence: the least BLEU of a kept item (0–1). */
  minBleu: string;
  /** With mapEvidence: a redirects file (from-title, tab, to-title), or null. */
  redirects: File | null;
}

export interface Failure {
  step: StepKey;
  message: string;
  problems: Problem[];
}

export interface ImportState {
  draft: ImportDraft;
  busy: boolean;
  steps: Step[];
  knowledgeResult: KnowledgeImportResult | null;
  batchResult: BatchImportResult | null;
  failure: Failure | null;
}

export type ImportAction =
  | { type: "edit"; patch: Partial<ImportDraft> }
  | { type: "start" }
  | { type: "uploading"; step: StepKey }
  | { type: "progress"; step: StepKey; loaded: number; total: number }
  | { type: "sent"; step: StepKey }
  | { type: "ranking"; step: StepKey; progress: ImportProgress }
  | { type: "knowledgeDone"; result: KnowledgeImportResult }
  | { type: "batchDone"; result: BatchImportResult }
  | { type: "failed"; step: StepKey; message: string; problems: Problem[] }
  | { type: "finished" }
  | { type: "reset" };

export const initialImportState: ImportState = {
  draft: {
    knowledge: null,
    queries: null,
    candidates: [],
    perRetriever: "4",
    minAnswerOverlap: "",
    retrieveText: false,
    retrieveTopK: "4",
    retriever: "",
    name: "",
    keepCited: true,
    task: "",
    sets: "",
    setPages: "3",
    partialEvidence: "",
    mapEvidence: false,
    minBleu: "0.5",
    redirects: null,
  },
  busy: false,
  steps: [],
  knowledgeResult: null,
  batchResult: null,
  failure: null,
};

const patchStep = (steps: Step[], key: StepKey, patch: (s: Step) => Partial<Step>) =>
  steps.map((s) => (s.key === key ? { ...s, ...patch(s) } : s));

/** The steps of an import: the knowledge source first when one is chosen, then the batch. */
function stepsOf(draft: ImportDraft): Step[] {
  const redirectBytes = (draft.mapEvidence && draft.redirects?.size) || 0;
  const batchBytes = (draft.queries?.size ?? 0) + draft.candidates.reduce((sum, f) => sum + f.size, 0) + redirectBytes;
  return [
    ...(draft.knowledge
      ? [{ key: "knowledge" as const, label: "Knowledge source", loaded: 0, total: draft.knowledge.size, state: "waiting" as const }]
      : []),
    { key: "batch", label: "Batch", loaded: 0, total: batchBytes, state: "waiting" },
  ];
}

export function importReducer(state: ImportState, action: ImportAction): ImportState {
  switch (action.type) {
    case "edit":
      return { ...state, draft: { ...state.draft, ...action.patch } };
    case "start":
      return { ...state, busy: true, knowledgeResult: null, batchResult: null, failure: null, steps: stepsOf(state.draft) };
    case "uploading":
      return { ...state, steps: patchStep(state.steps, action.step, () => ({ state: "uploading" })) };
    case "progress":
      return {
        ...state,
        steps: patchStep(state.steps, action.step, () => ({ loaded: action.loaded, total: action.total, state: "uploading" })),
      };
    case "sent":
      // Every byte is out; the server is checking the lines.
      return {
        ...state,
        steps: patchStep(state.steps, action.step, (s) => ({ loaded: s.total || 1, total: s.total || 1, state: "processing" })),
      };
    case "ranking":
      return { ...state, steps: patchStep(state.steps, action.step, () => ({ state: "processing", ranked: action.progress })) };
    case "knowledgeDone":
      return { ...state, knowledgeResult: action.result, steps: patchStep(state.steps, "knowledge", () => ({ state: "done" })) };
    case "batchDone":
      return { ...state, batchResult: action.result, steps: patchStep(state.steps, "batch", () => ({ state: "done" })) };
    case "failed": {
      const failure = { step: action.step, message: action.message, problems: action.problems };
      return { ...state, failure, steps: patchStep(state.steps, action.step, () => ({ state: "failed" })) };
    }
    case "finished":
      return { ...state, busy: false };
    case "reset":
      return initialImportState;
  }
}

/** The knowledge source that was stored although the batch then failed, if so. */
export function keptKnowledge(state: ImportState): KnowledgeImportResult | null {
  return state.failure?.step === "batch" ? state.knowledgeResult : null;
}

/** A step's progress line: "42% · 1.5 MiB of 3.6 MiB". */
export function stepText(s: Step): string {
  switch (s.state) {
    case "waiting":
      return "Waiting";
    case "uploading":
      return s.total ? `${Math.floor((s.loaded / s.total) * 100)}% · ${formatBytes(s.loaded)} of ${formatBytes(s.total)}` : "Starting…";
    case "processing":
      return s.ranked ? `Uploaded · ${importProgressText(s.ranked)}` : "Uploaded · checking lines…";
    case "done":
      return "Done";
    case "failed":
      return "Not imported";
  }
}

const formFieldLabels: Record<string, string> = {
  queries: "Questions",
  candidates: "Candidates",
  file: "Knowledge source",
  topK: "Top-k candidates per retriever",
  perRetriever: "Top-k candidates per retriever",
  minAnswerOverlap: "Minimum answer overlap",
  retrieve: "Text retrieval",
  retrieveTopK: "Text-retrieval candidates",
  retriever: "Retriever of unnamed lines",
  name: "Batch name",
  task: "Task",
  sets: "Evidence sets",
  setPages: "Pages paired per question",
  partialEvidence: "Partial evidence",
  mapEvidence: "Evidence given as text",
  minBleu: "Minimum BLEU",
  redirects: "Redirects",
};

/** The batch upload's fields, as the API takes them (lib/campaign/import/import-options.ts); empty ones left out. */
export function batchFields(draft: ImportDraft): [string, string][] {
  const fields: [string, string][] = [
    ["perRetriever", draft.perRetriever.trim()],
    ["minAnswerOverlap", draft.minAnswerOverlap.trim()],
    ["retrieve", draft.retrieveText ? "text" : ""],
    ["retrieveTopK", draft.retrieveText ? draft.retrieveTopK.trim() : ""],
    ["retriever", draft.candidates.length === 1 ? draft.retriever.trim() : ""],
    ["task", draft.task],
    ["sets", draft.sets],
    ["setPages", draft.sets ? draft.setPages.trim() : ""],
    ["partialEvidence", draft.partialEvidence],
    ["mapEvidence", draft.mapEvidence ? "on" : ""],
    ["minBleu", draft.mapEvidence ? draft.minBleu.trim() : ""],
    ["name", draft.name.trim()],
  ];
  return fields.filter(([, value]) => value !== "");
}

/** "queries.jsonl line 3, input: must not be empty" (a whole-line problem names no field). */
export function describeProblem(p: Problem): string {
  const field = p.field && !p.field.startsWith("(") ? (p.file ? p.field : (formFieldLabels[p.field] ?? p.field)) : "";
  if (p.file) return `${p.file}${p.line ? ` line ${p.line}` : ""}${field ? `, ${field}` : ""}: ${p.message}`;
  return `${field ? `${field}: ` : ""}${p.message}`;
}
