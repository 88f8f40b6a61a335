import type { ReactNode } from "react";
import { FormField } from "@/components/ui/form-field";
import { Markdown } from "@/components/ui/markdown";
import type { Problem } from "@/components/api/client";
import type { AggregationChoice } from "@/lib/campaign/settings.contract";
import { DEFAULT_SETTINGS, FIELD_LABELS, fieldId, type BooleanField } from "./campaign-draft";
import { CheckInput, withDefault } from "./setting-inputs";
import { DEFAULT_INSTRUCTIONS, insertInstructionsLabel } from "@/lib/campaign/annotate/default-instructions";
import { TASK_KINDS, type TaskKind } from "@/lib/kilt/task-kind";

export function CheckSetting({
  field: f,
  ...rest
}: {
  field: BooleanField;
  checked: boolean;
  onChange: (on: boolean) => void;
  error?: string;
  hint: ReactNode;
}) {
  return <CheckInput id={fieldId(f)} name={f} label={FIELD_LABELS[f]} defaultOn={Boolean(DEFAULT_SETTINGS[f])} {...rest} />;
}

/** What "endorsed" means in the campaign: majority vote (T of R) or Dawid–Skene's posterior. */
export function AggregationSetting({
  value,
  onChange,
  error,
}: {
  value: AggregationChoice;
  onChange: (value: AggregationChoice) => void;
  error?: string;
}) {
  return (
    <FormField
      id={fieldId("aggregation")}
      label={withDefault(FIELD_LABELS.aggregation, "majority")}
      hint="What endorses a passage in the export, the leaderboard and the dashboard: T of its R votes (majority), or, once it is finished, a Dawid–Skene posterior P(sufficient) of at least 0.5, which weighs each annotator by their estimated skill (gold verdicts are known labels)."
      error={error}
    >
      {(p) => (
        <select {...p} name="aggregation" value={value} onChange={(e) => onChange(e.target.value as AggregationChoice)}>
          <option value="majority">Majority vote (T of R)</option>
          <option value="dawid-skene">Dawid–Skene posterior ≥ 0.5</option>
        </select>
      )}
    </FormField>
  );
}

/** What a Markdown setting says of itself: its label (its default is empty), its hint, who reads it and its rows. */
export interface MarkdownText {
  label: string;
  hint: string;
  readers: string;
  rows: number;
}

/** A Markdown text field with a preview of how it renders (raw HTML shown as text): the instructions, a crowd entry's consent. */
export function MarkdownSetting(props: {
  id: string;
  name: string;
  text: MarkdownText;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const { id, name, text, value, onChange, error } = props;
  const preview = value.trim() && (
    <details className="instructions-box">
      <summary>Preview as {text.readers} see it</summary>
      <Markdown className="markdown-body">{value}</Markdown>
    </details>
  );
  return (
    <FormField
      id={id}
      label={withDefault(text.label, "empty")}
      hint={`Markdown (headings, lists, **bold**, links); raw HTML is shown as text. ${text.hint}`}
      error={error}
      after={preview}
    >
      {(p) => <textarea {...p} name={name} maxLength={50000} rows={text.rows} value={value} onChange={(e) => onChange(e.target.value)} />}
    </FormField>
  );
}

const INSTRUCTIONS_TEXT: MarkdownText = {
  label: FIELD_LABELS.instructions,
  hint: "Annotators see them beside the passage; left empty, they see the default instructions of the passage's task.",
  readers: "annotators",
  rows: 8,
};

export function InstructionsSetting(input: { value: string; onChange: (value: string) => void; error?: string }) {
  // A kind's defaults go at the end (after a blank line), to be edited like any text.
  const insert = (kind: TaskKind) =>
    input.onChange(input.value.trim() ? `${input.value.trimEnd()}\n\n${DEFAULT_INSTRUCTIONS[kind]}` : DEFAULT_INSTRUCTIONS[kind]);
  return (
    <>
      <MarkdownSetting id={fieldId("instructions")} name="instructions" text={INSTRUCTIONS_TEXT} {...input} />
      <div
        className="default-instructions"
        role="group"
        aria-label="Default instructions"
        style={{ display: "flex", flexWrap: "wrap", gap: "0.4rem", margin: "0.4rem 0 1rem" }}
      >
        {TASK_KINDS.map((kind) => (
          <button key={kind} type="button" className="secondary" onClick={() => insert(kind)}>
            {insertInstructionsLabel(kind)}
          </button>
        ))}
      </div>
    </>
  );
}

/** Why a settings form was not saved (the campaign's, by default): the server's problems by field label, or its message. */
export function SaveFailure({
  message,
  problems,
  labels = FIELD_LABELS,
  what = "The campaign was",
}: {
  message: string;
  problems: Problem[];
  labels?: Readonly<Record<string, string>>;
  what?: string;
}) {
  const labelOf = (field?: string) => (field && field in labels ? `${labels[field]}: ` : field ? `${field}: ` : "");
  return (
    <div className="error" role="alert">
      <p style={{ margin: 0 }}>{problems.length ? `${what} not saved:` : message}</p>
      {problems.length > 0 && (
        <ul className="problems">
          {problems.map((p, i) => (
            <li key={i}>
              {labelOf(p.field)}
              {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
