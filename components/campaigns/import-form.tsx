"use client";

import Link from "next/link";
import { useRef, type Dispatch, type FormEvent } from "react";
import { CheckField, FormField } from "@/components/ui/form-field";
import { FileInput, NumberInput, TextInput, type TextInputProps } from "@/components/ui/text-input";
import { keptKnowledge, type ImportAction, type ImportDraft } from "@/components/campaigns/import-form-state";
import { ImportDone, ImportFailed, UploadProgress } from "./import-outcome";
import { SetFields } from "./import-set-fields";
import { EvidenceFields } from "./import-evidence-fields";
import { useImport } from "./use-import";
import { TASK_KIND_NAMES, TASK_KINDS, type TaskKind } from "@/lib/kilt/task-kind";

const JSONL = ".jsonl,.json,application/x-ndjson,application/json";

/**
 * The import screen: an optional knowledge-source file (uploaded first, to POST /api/knowledge),
 * then the batch — questions and optional candidates — to POST /api/campaigns/:id/batches. Each
 * upload has its own progress bar; a rejected file lists its problems by file, line and field.
 */
export function ImportForm({ campaignId, campaignName }: { campaignId: number; campaignName: string }) {
  const { state, dispatch, start, outcomeRef } = useImport(campaignId);
  const formRef = useRef<HTMLFormElement>(null);
  const { busy, steps, batchResult, failure } = state;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void start();
  };
  const startOver = () => {
    formRef.current?.reset();
    dispatch({ type: "reset" });
  };

  if (batchResult && !busy) {
    return (
      <div className="stack-gap">
        <UploadProgress steps={steps} />
        <ImportDone
          campaignId={campaignId}
          campaignName={campaignName}
          knowledge={state.knowledgeResult}
          batch={batchResult}
          outcomeRef={outcomeRef}
          onStartOver={startOver}
        />
      </div>
    );
  }
  return (
    <div className="stack-gap">
      <form ref={formRef} className="card form-card stack" onSubmit={submit} aria-label="Import a batch" aria-busy={busy}>
        <FileFields busy={busy} dispatch={dispatch} />
        <OptionFields busy={busy} draft={state.draft} dispatch={dispatch} />
        <div className="form-actions">
          <button type="submit" disabled={busy}>
            {busy ? "Importing…" : "Import"}
          </button>
          <Link href={`/campaigns/${campaignId}`}>Cancel</Link>
        </div>
      </form>
      {steps.length > 0 && <UploadProgress steps={steps} />}
      {failure && !busy && <ImportFailed failure={failure} kept={keptKnowledge(state)} outcomeRef={outcomeRef} />}
    </div>
  );
}

type FileKey = "knowledge" | "queries" | "candidates";

const FILES: { key: FileKey; label: string; accept: string; required?: boolean; multiple?: boolean; hint: string }[] = [
  {
    key: "knowledge",
    label: "Knowledge source (JSONL or .gz)",
    accept: ".jsonl,.json,.gz,.jsonl.gz,application/gzip,application/x-ndjson,application/json",
    hint: "Optional: the Wikipedia pages the passages come from. Skip it when they are already imported.",
  },
  {
    key: "queries",
    label: "Questions (KILT task JSONL)",
    accept: JSONL,
    required: true,
    hint: "Required. Each line’s provenance becomes a hidden gold passage.",
  },
  {
    key: "candidates",
    label: "Candidates (retrieval output JSONL)",
    accept: JSONL,
    multiple: true,
    hint: "Optional: one file per retriever (choose several). The retriever is the file’s name (dpr.jsonl → dpr) unless its lines say.",
  },
];

function FileFields({ busy, dispatch }: { busy: boolean; dispatch: Dispatch<ImportAction> }) {
  const pick = (key: FileKey, files: FileList | null) =>
    dispatch({ type: "edit", patch: key === "candidates" ? { candidates: [...(files ?? [])] } : { [key]: files?.[0] ?? null } });
  return (
    <fieldset className="plain" disabled={busy}>
      <legend>Files</legend>
      {FILES.map((f) => (
        <FormField key={f.key} id={`import-${f.key}`} className="field file-drop" label={f.label} hint={f.hint}>
          {(p) => (
            <FileInput
              {...p}
              name={f.key}
              required={f.required}
              multiple={f.multiple}
              accept={f.accept}
              onFiles={(files) => pick(f.key, files)}
            />
          )}
        </FormField>
      ))}
    </fieldset>
  );
}

/** The option checkboxes, by the draft field each one sets: the input's id and name, its label and its hint. */
const CHECKS: Record<"keepCited" | "retrieveText", [id: string, name: string, label: string, hint: string]> = {
  keepCited: [
    "import-keep-cited",
    "keepCited",
    "Keep only pages the questions and candidates cite",
    "Leaves out every other page of the knowledge source: much faster for a full Wikipedia dump.",
  ],
  retrieveText: [
    "import-retrieve",
    "retrieve",
    "Also propose paragraphs of the text index",
    "Ranks the knowledge source’s paragraphs for each question (retriever “retrieval:text”). Build the index first.",
  ],
};

type DraftProps = { draft: ImportDraft; edit: (patch: Partial<ImportDraft>) => void };

function DraftCheck({ field, draft, edit }: DraftProps & { field: keyof typeof CHECKS }) {
  const [id, name, label, hint] = CHECKS[field];
  return <CheckField id={id} name={name} label={label} hint={hint} checked={draft[field]} onChange={(on) => edit({ [field]: on })} />;
}

/** The value and onChange of an input bound to one text field of the draft. */
function bind({ draft, edit }: DraftProps, field: "perRetriever" | "minAnswerOverlap" | "name" | "retrieveTopK" | "retriever") {
  return { value: draft[field], onChange: (value: string) => edit({ [field]: value }) };
}

function OptionFields({ busy, draft, dispatch }: { busy: boolean; draft: ImportDraft; dispatch: Dispatch<ImportAction> }) {
  const edit = (patch: Partial<ImportDraft>) => dispatch({ type: "edit", patch });
  const props = { draft, edit };
  return (
    <fieldset className="plain" disabled={busy}>
      <legend>Options</legend>
      <div className="form-grid">
        <TaskField {...props} />
        <FormField id="import-topk" label="Top-k candidates per retriever" hint="Taken from the top of each file’s ranking (default 4).">
          {(p) => <CountInput {...p} name="perRetriever" {...bind(props, "perRetriever")} />}
        </FormField>
        <FormField
          id="import-overlap"
          label="Minimum answer overlap"
          hint="Optional, 0–1 (KILT used 0.1): keep a candidate only when it holds that share of a gold answer’s words. Gold passages and questions without answers are kept."
        >
          {(p) => (
            <NumberInput
              {...p}
              name="minAnswerOverlap"
              min={0}
              max={1}
              step="any"
              placeholder="none"
              {...bind(props, "minAnswerOverlap")}
            />
          )}
        </FormField>
        {draft.candidates.length === 1 && (
          <FormField
            id="import-retriever"
            label="Retriever of unnamed lines"
            hint="Optional: the retriever of the candidates file’s items without meta.retriever. By default the one its other items name, else the file’s name."
          >
            {(p) => <TextInput {...p} name="retriever" maxLength={100} {...bind(props, "retriever")} />}
          </FormField>
        )}
        <FormField id="import-name" label="Batch name" hint="Optional: defaults to the questions file’s name.">
          {(p) => <TextInput {...p} name="name" maxLength={200} {...bind(props, "name")} />}
        </FormField>
      </div>
      <DraftCheck field="keepCited" {...props} />
      <TextRetrievalFields {...props} />
      <SetFields {...props} />
      <EvidenceFields {...props} />
    </fieldset>
  );
}

/** The KILT task of the lines: detected from the file unless the coordinator names one. */
function TaskField({ draft, edit }: DraftProps) {
  return (
    <FormField
      id="import-task"
      label="Task"
      hint="What the lines hold. Detection reads the file’s name (fever-dev-kilt.jsonl…), the lines’ meta and their shape; the report says what it took and why."
    >
      {(p) => (
        <select {...p} name="task" value={draft.task} onChange={(e) => edit({ task: e.target.value as TaskKind | "" })}>
          <option value="">Detect from the file</option>
          {TASK_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {kind === "qa" ? "QA" : TASK_KIND_NAMES[kind][0]!.toUpperCase() + TASK_KIND_NAMES[kind].slice(1)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Candidates from the text index (kps knowledge index), besides or instead of the files. */
function TextRetrievalFields(props: DraftProps) {
  return (
    <div className="form-grid">
      <DraftCheck field="retrieveText" {...props} />
      {props.draft.retrieveText && (
        <FormField id="import-retrieve-topk" label="Text-retrieval candidates" hint="Best paragraphs per question (default 4).">
          {(p) => <CountInput {...p} name="retrieveTopK" {...bind(props, "retrieveTopK")} />}
        </FormField>
      )}
    </div>
  );
}

/** A count of candidates, 1..100 (the API's bounds). */
function CountInput(props: Omit<TextInputProps, "type" | "inputMode" | "step"> & { name: string }) {
  return <NumberInput {...props} required min={1} max={100} />;
}
