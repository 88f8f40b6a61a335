import Link from "next/link";
import type { Ref } from "react";
import { describeProblem, stepText, type Failure, type Step } from "@/components/campaigns/import-form-state";
import {
  answerOverlapText,
  retrieverDefaultText,
  type BatchImportResult,
  type BatchTask,
  type RetrieverReport,
} from "@/lib/campaign/import/import-batch.contract";
import { KILT_DATASETS, TASK_KIND_NAMES } from "@/lib/kilt/task-kind";
import { DataTable, Num, numeric } from "@/components/ui/data-table";
import type { KnowledgeImportResult } from "@/lib/knowledge/knowledge.contract";
import { plural } from "@/lib/format";
import { EvidenceOutcome } from "./import-evidence-outcome";

/** One progress bar per upload. */
export function UploadProgress({ steps }: { steps: Step[] }) {
  return (
    <section className="card form-card" aria-labelledby="uploads-heading">
      <h2 id="uploads-heading" className="card-title">
        Uploads
      </h2>
      <ol className="steps">
        {steps.map((s) => (
          <li key={s.key}>
            <label htmlFor={`upload-${s.key}`}>{s.label}</label>
            <progress id={`upload-${s.key}`} className={s.state} max={s.total || 1} value={s.state === "done" ? s.total || 1 : s.loaded} />
            <span className={`step-state ${s.state}`} aria-live="polite">
              {stepText(s)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

const COUNTS = [
  ["Questions", "queries"],
  ["Passages", "passages"],
  ["Gold", "goldPassages"],
  ["Decoys made", "decoys"],
  ["Candidates", "candidatePassages"],
  ["Training items", "trainingPassages"],
  ["Evidence sets", "sets"],
  ["Pages", "pages"],
] as const;

/** What was stored, with the way back to the campaign or to another import. */
export function ImportDone({
  campaignId,
  campaignName,
  knowledge,
  batch,
  outcomeRef,
  onStartOver,
}: {
  campaignId: number;
  campaignName: string;
  knowledge: KnowledgeImportResult | null;
  batch: BatchImportResult;
  outcomeRef: Ref<HTMLDivElement>;
  onStartOver: () => void;
}) {
  return (
    <div className="card" role="status" tabIndex={-1} ref={outcomeRef} aria-labelledby="import-done">
      <h2 id="import-done" className="card-title">
        Imported into {campaignName}
      </h2>
      {knowledge && (
        <p>
          <strong>Knowledge source:</strong> {plural(knowledge.pages, "page")} imported from {knowledge.file} ({knowledge.inserted} new,{" "}
          {knowledge.updated} updated{knowledge.unchanged ? `, ${knowledge.unchanged} unchanged` : ""}
          {knowledge.skipped ? `, ${plural(knowledge.skipped, "line")} skipped as not cited` : ""}
          {knowledge.indexed ? `; ${plural(knowledge.indexed, "page")} put into the text index` : ""}).
        </p>
      )}
      <p style={{ marginBottom: 0 }}>
        <strong>Batch “{batch.batch.name}”</strong> <span className="muted">({batch.batch.status})</span>
      </p>
      <TaskTaken task={batch.task} />
      <dl className="summary-counts" aria-label="Batch counts">
        {COUNTS.map(([label, key]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd>{batch[key]}</dd>
          </div>
        ))}
      </dl>
      {batch.partialEvidence !== undefined && (
        <p data-testid="partial-evidence">
          Partial evidence: {batch.partialEvidence ? "on (annotators may answer “part of the evidence”)" : "off"}.
        </p>
      )}
      {batch.retrievers.length > 0 && <RetrieverCounts retrievers={batch.retrievers} />}
      {batch.answerOverlap && <p data-testid="answer-overlap">{answerOverlapText(batch.answerOverlap, batch.task.kind)}</p>}
      {batch.evidence && <EvidenceOutcome report={batch.evidence} />}
      {batch.retrieverDefaults.map((d) => (
        <p key={d.file} data-testid="retriever-default">
          {retrieverDefaultText(d)}
        </p>
      ))}
      <p className="hint">The batch is a draft: annotators see it once you launch it from the campaign page.</p>
      <div className="form-actions">
        <Link className="button" href={`/campaigns/${campaignId}`}>
          Back to the campaign
        </Link>
        <button type="button" className="secondary" onClick={onStartOver}>
          Import another batch
        </button>
      </div>
    </div>
  );
}

/** The task kind the batch was imported as, its KILT dataset if one was named, and why. */
function TaskTaken({ task }: { task: BatchTask }) {
  const dataset = task.dataset ? (KILT_DATASETS[task.dataset]?.name ?? task.dataset) : null;
  return (
    <p data-testid="task-taken">
      <strong>Task:</strong> {TASK_KIND_NAMES[task.kind]}
      {dataset && <> · dataset {dataset}</>}. <span className="muted">{task.reason}</span>
    </p>
  );
}

/** What the per-retriever cut and the answer-overlap rule did with each retriever's candidates. */
function RetrieverCounts({ retrievers }: { retrievers: RetrieverReport[] }) {
  return (
    <>
      <h3 className="card-title">Candidates per retriever</h3>
      <DataTable label="Candidates per retriever" testId="retriever-counts" columns={RETRIEVER_COLUMNS}>
        {retrievers.map((r) => (
          <tr key={r.retriever}>
            <th scope="row">{r.retriever}</th>
            <Num>{r.read}</Num>
            <Num>{r.droppedByRank}</Num>
            <Num>{r.droppedByOverlap}</Num>
            <Num>{r.kept}</Num>
            <Num>{r.merged}</Num>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

const RETRIEVER_COLUMNS = [
  "Retriever",
  ...numeric("Read (top K)", "Below the top K", "Dropped by answer overlap", "Kept", "Merged with another origin"),
];

/** Why nothing (or only the knowledge source) was stored, with the problems by file and line. */
export function ImportFailed({
  failure,
  kept,
  outcomeRef,
}: {
  failure: Failure;
  kept: KnowledgeImportResult | null;
  outcomeRef: Ref<HTMLDivElement>;
}) {
  const { problems, message } = failure;
  return (
    <div className="error outcome" role="alert" tabIndex={-1} ref={outcomeRef}>
      <p className="outcome-title">
        <strong>{kept ? "The batch was not imported." : "Nothing was imported."}</strong>{" "}
        {kept
          ? `The knowledge source was imported (${plural(kept.pages, "page")}), but nothing from the questions or candidates file was stored.`
          : problems.length
            ? "Fix these lines and import again."
            : message}
      </p>
      {problems.length > 0 && (
        <>
          {kept && <p className="outcome-title">Fix these lines and import the batch again:</p>}
          <ul className="problems" aria-label="Problems">
            {problems.map((p, i) => (
              <li key={i}>{describeProblem(p)}</li>
            ))}
          </ul>
          {problems.length >= 200 && <p className="hint">Only the first 200 problems are listed; reading stopped there.</p>}
        </>
      )}
      {kept && problems.length === 0 && <p className="outcome-title">{message}</p>}
    </div>
  );
}
