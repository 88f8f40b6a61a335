"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { BatchImportResult } from "@/lib/campaign/import/import-batch";
import type { KnowledgeImportResult } from "@/lib/campaign/import/import-knowledge";

interface ImportProblem {
  file?: string;
  line?: number;
  field?: string;
  message: string;
}

type KnowledgeResult = KnowledgeImportResult;
type BatchResult = BatchImportResult;

type StepKey = "knowledge" | "batch";
type StepState = "waiting" | "uploading" | "processing" | "done" | "failed";

interface Step {
  key: StepKey;
  label: string;
  loaded: number;
  total: number;
  state: StepState;
}

class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problems: ImportProblem[],
  ) {
    super(message);
  }
}

/**
 * POSTs a multipart body with XMLHttpRequest, which (unlike fetch) reports upload progress.
 * `onSent` fires when the last byte is out and the server is checking the lines.
 */
function upload<T>(url: string, body: FormData, onProgress: (loaded: number, total: number) => void, onSent: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.upload.onload = () => onSent();
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: handled below
      }
      if (xhr.status >= 200 && xhr.status < 300 && data) {
        resolve(data as T);
        return;
      }
      const error = (data as { error?: { message?: string; details?: { problems?: ImportProblem[] } } } | null)?.error;
      reject(new UploadError(error?.message ?? `The server answered ${xhr.status}.`, xhr.status, error?.details?.problems ?? []));
    };
    xhr.onerror = () => reject(new UploadError("The upload failed: the server could not be reached.", 0, []));
    xhr.onabort = () => reject(new UploadError("The upload was cancelled.", 0, []));
    xhr.send(body);
  });
}

const formFieldLabels: Record<string, string> = {
  queries: "Questions",
  candidates: "Candidates",
  file: "Knowledge source",
  topK: "Top-k candidates",
  name: "Batch name",
};

/** "queries.jsonl line 3, input: must not be empty" (a whole-line problem names no field). */
function describeProblem(p: ImportProblem): string {
  const field = p.field && !p.field.startsWith("(") ? (p.file ? p.field : (formFieldLabels[p.field] ?? p.field)) : "";
  if (p.file) return `${p.file}${p.line ? ` line ${p.line}` : ""}${field ? `, ${field}` : ""}: ${p.message}`;
  return `${field ? `${field}: ` : ""}${p.message}`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function stepText(s: Step): string {
  switch (s.state) {
    case "waiting":
      return "Waiting";
    case "uploading":
      return s.total ? `${Math.floor((s.loaded / s.total) * 100)}% · ${formatBytes(s.loaded)} of ${formatBytes(s.total)}` : "Starting…";
    case "processing":
      return "Uploaded · checking lines…";
    case "done":
      return "Done";
    case "failed":
      return "Not imported";
  }
}

interface Failure {
  step: StepKey;
  message: string;
  problems: ImportProblem[];
}

/**
 * The import screen: an optional knowledge-source file (uploaded first, to POST /api/knowledge),
 * then the batch — questions and optional candidates — to POST /api/campaigns/:id/batches. Each
 * upload has its own progress bar; a rejected file lists its problems by file, line and field.
 */
export function ImportForm({ campaignId, campaignName }: { campaignId: number; campaignName: string }) {
  const [knowledge, setKnowledge] = useState<File | null>(null);
  const [queries, setQueries] = useState<File | null>(null);
  const [candidates, setCandidates] = useState<File | null>(null);
  const [topK, setTopK] = useState("4");
  const [name, setName] = useState("");
  const [keepCited, setKeepCited] = useState(true);
  const [busy, setBusy] = useState(false);
  const [steps, setSteps] = useState<Step[]>([]);
  const [knowledgeResult, setKnowledgeResult] = useState<KnowledgeResult | null>(null);
  const [batchResult, setBatchResult] = useState<BatchResult | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);

  // Leaving the page would cancel an upload half-way: ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [busy]);

  // Move focus to the outcome so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (!busy && (batchResult || failure)) outcomeRef.current?.focus();
  }, [busy, batchResult, failure]);

  const patchStep = (key: StepKey, patch: Partial<Step>) => setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const track = (key: StepKey) => ({
    onProgress: (loaded: number, total: number) => patchStep(key, { loaded, total, state: "uploading" }),
    onSent: () => setSteps((all) => all.map((s) => (s.key === key ? { ...s, loaded: s.total || 1, total: s.total || 1, state: "processing" } : s))),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!queries || busy) return;
    setBusy(true);
    setKnowledgeResult(null);
    setBatchResult(null);
    setFailure(null);
    const batchBytes = queries.size + (candidates?.size ?? 0);
    setSteps([
      ...(knowledge ? [{ key: "knowledge" as const, label: "Knowledge source", loaded: 0, total: knowledge.size, state: "waiting" as const }] : []),
      { key: "batch", label: "Batch", loaded: 0, total: batchBytes, state: "waiting" },
    ]);

    const fail = (step: StepKey, error: unknown) => {
      patchStep(step, { state: "failed" });
      const e = error instanceof UploadError ? error : new UploadError((error as Error).message, 0, []);
      setFailure({ step, message: e.message, problems: e.problems });
    };

    try {
      if (knowledge) {
        patchStep("knowledge", { state: "uploading" });
        const body = new FormData();
        if (keepCited) {
          body.append("references", queries);
          if (candidates) body.append("references", candidates);
        }
        body.append("file", knowledge);
        const t = track("knowledge");
        try {
          const result = await upload<KnowledgeResult>("/api/knowledge", body, t.onProgress, t.onSent);
          setKnowledgeResult(result);
          patchStep("knowledge", { state: "done" });
        } catch (error) {
          fail("knowledge", error);
          return;
        }
      }

      patchStep("batch", { state: "uploading" });
      const body = new FormData();
      body.append("topK", topK);
      if (name.trim()) body.append("name", name.trim());
      body.append("queries", queries);
      if (candidates) body.append("candidates", candidates);
      const t = track("batch");
      try {
        setBatchResult(await upload<BatchResult>(`/api/campaigns/${campaignId}/batches`, body, t.onProgress, t.onSent));
        patchStep("batch", { state: "done" });
      } catch (error) {
        fail("batch", error);
      }
    } finally {
      setBusy(false);
    }
  };

  const startOver = () => {
    formRef.current?.reset();
    setKnowledge(null);
    setQueries(null);
    setCandidates(null);
    setTopK("4");
    setName("");
    setKeepCited(true);
    setSteps([]);
    setKnowledgeResult(null);
    setBatchResult(null);
    setFailure(null);
  };

  const campaignHref = `/campaigns/${campaignId}`;

  if (batchResult && !busy) {
    return (
      <div className="stack-gap">
        <Progress steps={steps} />
        <div className="card" role="status" tabIndex={-1} ref={outcomeRef} aria-labelledby="import-done">
          <h2 id="import-done" className="card-title">
            Imported into {campaignName}
          </h2>
          {knowledgeResult && (
            <p>
              <strong>Knowledge source:</strong> {plural(knowledgeResult.pages, "page")} imported from {knowledgeResult.file} (
              {knowledgeResult.inserted} new, {knowledgeResult.updated} updated
              {knowledgeResult.skipped ? `, ${plural(knowledgeResult.skipped, "line")} skipped as not cited` : ""}).
            </p>
          )}
          <p style={{ marginBottom: 0 }}>
            <strong>Batch “{batchResult.batch.name}”</strong> <span className="muted">({batchResult.batch.status})</span>
          </p>
          <dl className="summary-counts" aria-label="Batch counts">
            <div>
              <dt>Questions</dt>
              <dd>{batchResult.queries}</dd>
            </div>
            <div>
              <dt>Passages</dt>
              <dd>{batchResult.passages}</dd>
            </div>
            <div>
              <dt>Gold</dt>
              <dd>{batchResult.goldPassages}</dd>
            </div>
            <div>
              <dt>Candidates</dt>
              <dd>{batchResult.candidatePassages}</dd>
            </div>
            <div>
              <dt>Pages</dt>
              <dd>{batchResult.pages}</dd>
            </div>
          </dl>
          <p className="hint">The batch is a draft: annotators see it once you launch it from the campaign page.</p>
          <div className="form-actions">
            <Link className="button" href={campaignHref}>
              Back to the campaign
            </Link>
            <button type="button" className="secondary" onClick={startOver}>
              Import another batch
            </button>
          </div>
        </div>
      </div>
    );
  }

  const knowledgeKept = failure?.step === "batch" && knowledgeResult;

  return (
    <div className="stack-gap">
      <form ref={formRef} className="card form-card stack" onSubmit={submit} aria-label="Import a batch" aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <legend>Files</legend>
          <div className="field file-drop">
            <label htmlFor="import-knowledge">Knowledge source (JSONL or .gz)</label>
            <input
              id="import-knowledge"
              name="knowledge"
              type="file"
              accept=".jsonl,.json,.gz,.jsonl.gz,application/gzip,application/x-ndjson,application/json"
              aria-describedby="import-knowledge-hint"
              onChange={(e) => setKnowledge(e.target.files?.[0] ?? null)}
            />
            <span className="hint" id="import-knowledge-hint">
              Optional: the Wikipedia pages the passages come from. Skip it when they are already imported.
            </span>
          </div>
          <div className="field file-drop">
            <label htmlFor="import-queries">Questions (KILT task JSONL)</label>
            <input
              id="import-queries"
              name="queries"
              type="file"
              required
              accept=".jsonl,.json,application/x-ndjson,application/json"
              aria-describedby="import-queries-hint"
              onChange={(e) => setQueries(e.target.files?.[0] ?? null)}
            />
            <span className="hint" id="import-queries-hint">
              Required. Each line’s provenance becomes a hidden gold passage.
            </span>
          </div>
          <div className="field file-drop">
            <label htmlFor="import-candidates">Candidates (retrieval output JSONL)</label>
            <input
              id="import-candidates"
              name="candidates"
              type="file"
              accept=".jsonl,.json,application/x-ndjson,application/json"
              aria-describedby="import-candidates-hint"
              onChange={(e) => setCandidates(e.target.files?.[0] ?? null)}
            />
            <span className="hint" id="import-candidates-hint">
              Optional: the top-k passages of each question’s ranking are judged too.
            </span>
          </div>
        </fieldset>

        <fieldset className="plain" disabled={busy}>
          <legend>Options</legend>
          <div className="form-grid">
            <div className="field">
              <label htmlFor="import-topk">Top-k candidates</label>
              <input
                id="import-topk"
                name="topK"
                type="number"
                inputMode="numeric"
                required
                min={1}
                max={100}
                step={1}
                value={topK}
                aria-describedby="import-topk-hint"
                onChange={(e) => setTopK(e.target.value)}
              />
              <span className="hint" id="import-topk-hint">
                Candidates kept per question (default 4).
              </span>
            </div>
            <div className="field">
              <label htmlFor="import-name">Batch name</label>
              <input
                id="import-name"
                name="name"
                maxLength={200}
                value={name}
                aria-describedby="import-name-hint"
                onChange={(e) => setName(e.target.value)}
              />
              <span className="hint" id="import-name-hint">
                Optional: defaults to the questions file’s name.
              </span>
            </div>
          </div>
          <div className="field check-field">
            <label className="check" htmlFor="import-keep-cited">
              <input
                id="import-keep-cited"
                name="keepCited"
                type="checkbox"
                checked={keepCited}
                aria-describedby="import-keep-cited-hint"
                onChange={(e) => setKeepCited(e.target.checked)}
              />
              <span>Keep only pages the questions and candidates cite</span>
            </label>
            <span className="hint" id="import-keep-cited-hint">
              Leaves out every other page of the knowledge source: much faster for a full Wikipedia dump.
            </span>
          </div>
        </fieldset>

        <div className="form-actions">
          <button type="submit" disabled={busy}>
            {busy ? "Importing…" : "Import"}
          </button>
          <Link href={campaignHref}>Cancel</Link>
        </div>
      </form>

      {steps.length > 0 && <Progress steps={steps} />}

      {failure && !busy && (
        <div className="error outcome" role="alert" tabIndex={-1} ref={outcomeRef}>
          <p className="outcome-title">
            <strong>{knowledgeKept ? "The batch was not imported." : "Nothing was imported."}</strong>{" "}
            {knowledgeKept
              ? `The knowledge source was imported (${plural(knowledgeKept.pages, "page")}), but nothing from the questions or candidates file was stored.`
              : failure.problems.length
                ? "Fix these lines and import again."
                : failure.message}
          </p>
          {failure.problems.length > 0 && (
            <>
              {knowledgeKept && <p className="outcome-title">Fix these lines and import the batch again:</p>}
              <ul className="problems" aria-label="Problems">
                {failure.problems.map((p, i) => (
                  <li key={i}>{describeProblem(p)}</li>
                ))}
              </ul>
              {failure.problems.length >= 200 && <p className="hint">Only the first 200 problems are listed; reading stopped there.</p>}
            </>
          )}
          {knowledgeKept && failure.problems.length === 0 && <p className="outcome-title">{failure.message}</p>}
        </div>
      )}
    </div>
  );
}

function Progress({ steps }: { steps: Step[] }) {
  return (
    <section className="card form-card" aria-labelledby="uploads-heading">
      <h2 id="uploads-heading" className="card-title">
        Uploads
      </h2>
      <ol className="steps">
        {steps.map((s) => (
          <li key={s.key}>
            <label htmlFor={`upload-${s.key}`}>{s.label}</label>
            <progress id={`upload-${s.key}`} max={s.total || 1} value={s.state === "done" ? s.total || 1 : s.loaded} />
            <span className={`step-state ${s.state}`} aria-live="polite">
              {stepText(s)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
