"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent, type Ref } from "react";
import { FormField } from "@/components/ui/form-field";
import { FileInput, TextInput } from "@/components/ui/text-input";
import { describeProblem } from "@/components/campaigns/import-form-state";
import { ApiError, type Problem } from "@/components/api/client";
import { formatBytes, plural } from "@/lib/format";
import { runKeys, runUploadForm, uploadRun, type RunView } from "@/components/api/runs";

type Phase =
  | { state: "idle" }
  | { state: "sending"; loaded: number; total: number }
  | { state: "checking"; total: number }
  | { state: "done"; run: RunView }
  | { state: "failed"; message: string; problems: Problem[] };

const GUESS_ACCEPT = ".jsonl,.json,.gz,.jsonl.gz,application/gzip,application/x-ndjson,application/json";

/** Sends one run (name and guess file) with progress; a refused file lists its problems by file, line and field. */
function useRunUpload(campaignId: number) {
  const client = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ state: "idle" });
  const busy = phase.state === "sending" || phase.state === "checking";
  const send = async (name: string, file: File) => {
    const body = runUploadForm(name, file, file.name);
    setPhase({ state: "sending", loaded: 0, total: file.size });
    try {
      const run = await uploadRun(campaignId, body, {
        onProgress: (loaded, total) => setPhase({ state: "sending", loaded, total }),
        onSent: () => setPhase({ state: "checking", total: file.size }),
      });
      setPhase({ state: "done", run });
      return true;
    } catch (error) {
      setPhase({ state: "failed", message: (error as Error).message, problems: error instanceof ApiError ? error.problems : [] });
      return false;
    } finally {
      void client.invalidateQueries({ queryKey: runKeys.all(campaignId) });
    }
  };
  return { phase, busy, send };
}

/** The upload form of the runs page: a name and a guess file (KILT JSONL, optionally gzip). */
export function RunUploadForm({ campaignId }: { campaignId: number }) {
  const { phase, busy, send } = useRunUpload(campaignId);
  const formRef = useRef<HTMLFormElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);

  useEffect(() => {
    if (phase.state === "done" || phase.state === "failed") outcomeRef.current?.focus();
  }, [phase.state]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file || busy) return;
    if (await send(name.trim(), file)) {
      formRef.current?.reset();
      setName("");
      setFile(null);
    }
  };
  const nameError = phase.state === "failed" ? phase.problems.find((p) => p.field === "name" && !p.file)?.message : undefined;

  return (
    <section className="card form-card" aria-labelledby="upload-heading">
      <h2 id="upload-heading" className="card-title">
        Upload a run
      </h2>
      <form ref={formRef} className="stack" onSubmit={submit} aria-label="Upload a run" aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <div className="form-grid">
            <FormField
              id="run-name"
              label="Run name"
              hint="1–80 characters, unique in the campaign (e.g. the system’s name)."
              error={nameError}
            >
              {(p) => <TextInput {...p} name="name" required maxLength={80} value={name} onChange={setName} />}
            </FormField>
          </div>
          <FormField
            id="run-guess"
            className="field file-drop"
            label="Predictions (KILT guess JSONL or .gz)"
            hint="One line per question of the campaign, with its KILT id: output[0].provenance (ranked) and/or output[0].answer."
          >
            {(p) => <FileInput {...p} name="guess" required accept={GUESS_ACCEPT} onFiles={(files) => setFile(files?.[0] ?? null)} />}
          </FormField>
        </fieldset>
        <div className="form-actions">
          <button type="submit" disabled={busy}>
            {busy ? "Uploading…" : "Upload and score"}
          </button>
        </div>
      </form>
      <UploadState phase={phase} outcomeRef={outcomeRef} skipField={nameError ? "name" : undefined} />
    </section>
  );
}

function UploadState({ phase, outcomeRef, skipField }: { phase: Phase; outcomeRef: Ref<HTMLDivElement>; skipField?: string }) {
  if (phase.state === "sending" || phase.state === "checking") {
    const total = phase.total || 1;
    const loaded = phase.state === "sending" ? phase.loaded : total;
    return (
      <div className="run-progress">
        <label htmlFor="run-upload-progress">Uploading the predictions</label>
        <progress id="run-upload-progress" max={total} value={loaded} />
        <span className="hint" aria-live="polite">
          {phase.state === "sending" ? `${formatBytes(loaded)} of ${formatBytes(total)}` : "Checking every line and scoring…"}
        </span>
      </div>
    );
  }
  if (phase.state === "done") {
    const { run } = phase;
    return (
      <div className="outcome ok-note" role="status" tabIndex={-1} ref={outcomeRef}>
        Run “{run.name}” scored: {plural(run.questions, "question")}
        {run.hasProvenance ? ", with provenance" : ""}
        {run.hasAnswers ? ", with answers" : ""}.
      </div>
    );
  }
  if (phase.state === "failed") {
    const problems = phase.problems.filter((p) => p.file || p.field !== skipField);
    return (
      <div className="error outcome" role="alert" tabIndex={-1} ref={outcomeRef}>
        <p className="outcome-title">
          <strong>Nothing was stored.</strong>{" "}
          {problems.length ? "Fix these lines and upload again." : skipField ? "Choose another run name (see above)." : phase.message}
        </p>
        {problems.length > 0 && (
          <ul className="problems" aria-label="Problems">
            {problems.map((p, i) => (
              <li key={i}>{describeProblem(p)}</li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return null;
}
