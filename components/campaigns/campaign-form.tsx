"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import { Markdown } from "@/components/ui/markdown";
import { CAMPAIGN_DEFAULTS, type CreateCampaignInput } from "@/lib/campaign/settings";

/** The settings a coordinator edits (the shape of POST /api/campaigns and PATCH /api/campaigns/:id). */
export type CampaignSettings = CreateCampaignInput;

/** The defaults of a new campaign: the server's own (lib/campaign/settings.ts). */
export const DEFAULT_SETTINGS: CampaignSettings = { name: "", ...CAMPAIGN_DEFAULTS };

type NumberField = "judgmentsPerPassage" | "endorsementThreshold" | "goldMinJudgments" | "goldAccuracyThreshold" | "leaseMinutes";
type BooleanField = "showAnswers" | "earlyStop" | "allAnnotators";
type Field = keyof CampaignSettings;

export const FIELD_LABELS: Record<Field, string> = {
  name: "Name",
  judgmentsPerPassage: "Judgments per passage",
  endorsementThreshold: "Endorsement threshold",
  showAnswers: "Show answers to annotators",
  goldMinJudgments: "Minimum gold judgments",
  goldAccuracyThreshold: "Gold accuracy threshold",
  leaseMinutes: "Lease (minutes)",
  earlyStop: "Stop early once decided",
  instructions: "Instructions (Markdown)",
  allAnnotators: "All annotators",
};

interface Problem {
  field?: string;
  message: string;
}

class ApiError extends Error {
  constructor(
    message: string,
    readonly problems: Problem[],
  ) {
    super(message);
  }
}

async function sendJson<T>(url: string, method: "POST" | "PATCH", body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError("The server could not be reached; check the connection and try again.", []);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { message?: string; details?: { problems?: Problem[]; field?: string } } } | null)?.error;
    const problems = error?.details?.problems ?? (error?.details?.field && error.message ? [{ field: error.details.field, message: error.message }] : []);
    throw new ApiError(error?.message ?? `The server answered ${res.status}.`, problems);
  }
  return data as T;
}

type Draft = Record<NumberField, string> & Record<BooleanField, boolean> & { name: string; instructions: string };

function toDraft(s: CampaignSettings): Draft {
  return {
    ...s,
    judgmentsPerPassage: String(s.judgmentsPerPassage),
    endorsementThreshold: String(s.endorsementThreshold),
    goldMinJudgments: String(s.goldMinJudgments),
    goldAccuracyThreshold: String(s.goldAccuracyThreshold),
    leaseMinutes: String(s.leaseMinutes),
  };
}

/** A blank number is sent as null, which the server names as a missing value. */
const num = (v: string): number | null => (v.trim() === "" ? null : Number(v));

function fromDraft(d: Draft): Record<Field, unknown> {
  return {
    name: d.name,
    judgmentsPerPassage: num(d.judgmentsPerPassage),
    endorsementThreshold: num(d.endorsementThreshold),
    showAnswers: d.showAnswers,
    goldMinJudgments: num(d.goldMinJudgments),
    goldAccuracyThreshold: num(d.goldAccuracyThreshold),
    leaseMinutes: num(d.leaseMinutes),
    earlyStop: d.earlyStop,
    instructions: d.instructions,
    allAnnotators: d.allAnnotators,
  };
}

const fieldId = (f: Field) => `campaign-${f}`;
const errorId = (f: Field) => `campaign-${f}-error`;

/**
 * Creates a campaign (POST /api/campaigns, then opens it) or edits one (PATCH with the changed
 * fields). Every setting shows its default; the server's field problems appear beside the fields
 * and in a summary.
 */
export function CampaignForm({ campaignId, initial }: { campaignId?: number; initial?: CampaignSettings }) {
  const router = useRouter();
  const editing = campaignId !== undefined;
  const start = initial ?? DEFAULT_SETTINGS;
  const [draft, setDraft] = useState<Draft>(() => toDraft(start));

  const save = useMutation({
    mutationFn: async () => {
      const values = fromDraft(draft);
      if (!editing) return sendJson<{ campaign: { id: number } }>("/api/campaigns", "POST", values);
      const original = fromDraft(toDraft(start));
      const changed = Object.fromEntries(Object.entries(values).filter(([k, v]) => original[k as Field] !== v));
      if (Object.keys(changed).length === 0) return { campaign: { id: campaignId } };
      return sendJson<{ campaign: { id: number } }>(`/api/campaigns/${campaignId}`, "PATCH", changed);
    },
    onSuccess: ({ campaign }) => {
      router.push(`/campaigns/${campaign.id}`);
      router.refresh();
    },
  });

  const problems = save.error instanceof ApiError ? save.error.problems : [];
  const problemOf = (f: Field) => problems.find((p) => p.field === f)?.message;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  const describedBy = (f: Field, hint?: boolean) => [hint ? `${fieldId(f)}-hint` : "", problemOf(f) ? errorId(f) : ""].filter(Boolean).join(" ") || undefined;
  const fieldError = (f: Field) =>
    problemOf(f) ? (
      <span className="field-error" id={errorId(f)}>
        {problemOf(f)}
      </span>
    ) : null;

  const numberInput = (f: NumberField, opts: { min: number; max: number; step?: number; hint: ReactNode; defaultText: string }) => (
    <div className="field">
      <label htmlFor={fieldId(f)}>
        <span>
          {FIELD_LABELS[f]} <span className="hint">(default {opts.defaultText})</span>
        </span>
      </label>
      <input
        id={fieldId(f)}
        name={f}
        type="number"
        inputMode={opts.step && opts.step < 1 ? "decimal" : "numeric"}
        required
        min={opts.min}
        max={opts.max}
        step={opts.step ?? 1}
        value={draft[f]}
        aria-invalid={problemOf(f) ? true : undefined}
        aria-describedby={describedBy(f, true)}
        onChange={(e) => set(f, e.target.value)}
      />
      <span className="hint" id={`${fieldId(f)}-hint`}>
        {opts.hint}
      </span>
      {fieldError(f)}
    </div>
  );

  const checkbox = (f: BooleanField, hint: ReactNode) => (
    <div className="field check-field">
      <label className="check" htmlFor={fieldId(f)}>
        <input
          id={fieldId(f)}
          name={f}
          type="checkbox"
          checked={draft[f]}
          aria-describedby={describedBy(f, true)}
          onChange={(e) => set(f, e.target.checked)}
        />
        <span>
          {FIELD_LABELS[f]} <span className="hint">(default {DEFAULT_SETTINGS[f] ? "on" : "off"})</span>
        </span>
      </label>
      <span className="hint" id={`${fieldId(f)}-hint`}>
        {hint}
      </span>
      {fieldError(f)}
    </div>
  );

  return (
    <form className="stack" onSubmit={submit} aria-label={editing ? "Campaign settings" : "New campaign"}>
      <div className="field">
        <label htmlFor={fieldId("name")}>{FIELD_LABELS.name}</label>
        <input
          id={fieldId("name")}
          name="name"
          required
          maxLength={200}
          autoFocus={!editing}
          value={draft.name}
          aria-invalid={problemOf("name") ? true : undefined}
          aria-describedby={describedBy("name")}
          onChange={(e) => set("name", e.target.value)}
        />
        {fieldError("name")}
      </div>

      <fieldset className="plain">
        <legend>Judging</legend>
        <div className="form-grid">
          {numberInput("judgmentsPerPassage", { min: 1, max: 9, defaultText: "3", hint: "R: judgments each passage gets (1–9)." })}
          {numberInput("endorsementThreshold", { min: 1, max: 9, defaultText: "2", hint: "T: “sufficient” judgments that endorse a passage (at most R)." })}
          {numberInput("leaseMinutes", { min: 1, max: 1440, defaultText: "10", hint: "How long a claim on a passage lasts without renewal." })}
        </div>
        {checkbox("showAnswers", "Annotators see the question’s answers above the passage.")}
        {checkbox("earlyStop", "Stop assigning a passage once its outcome is decided.")}
      </fieldset>

      <fieldset className="plain">
        <legend>Gold passages</legend>
        <div className="form-grid">
          {numberInput("goldMinJudgments", { min: 0, max: 10000, defaultText: "5", hint: "Gold judgments an annotator makes before the gold rule applies." })}
          {numberInput("goldAccuracyThreshold", { min: 0, max: 1, step: 0.01, defaultText: "0.7", hint: "An annotator whose gold accuracy falls below this (0–1) is paused." })}
        </div>
      </fieldset>

      <fieldset className="plain">
        <legend>Annotators</legend>
        {checkbox("allAnnotators", "Every annotator, present and future, works on this campaign. Off: only the annotators added to it.")}
        <div className="field">
          <label htmlFor={fieldId("instructions")}>
            <span>
              {FIELD_LABELS.instructions} <span className="hint">(default empty)</span>
            </span>
          </label>
          <textarea
            id={fieldId("instructions")}
            name="instructions"
            maxLength={50000}
            rows={8}
            value={draft.instructions}
            aria-invalid={problemOf("instructions") ? true : undefined}
            aria-describedby={describedBy("instructions", true)}
            onChange={(e) => set("instructions", e.target.value)}
          />
          <span className="hint" id={`${fieldId("instructions")}-hint`}>
            Markdown (headings, lists, **bold**, links); raw HTML is shown as text. Annotators see them beside the passage.
          </span>
          {fieldError("instructions")}
          {draft.instructions.trim() && (
            <details className="instructions-box">
              <summary>Preview as annotators see it</summary>
              <Markdown className="markdown-body">{draft.instructions}</Markdown>
            </details>
          )}
        </div>
      </fieldset>

      {save.isError && (
        <div className="error" role="alert">
          <p style={{ margin: 0 }}>{problems.length ? "The campaign was not saved:" : save.error.message}</p>
          {problems.length > 0 && (
            <ul className="problems">
              {problems.map((p, i) => (
                <li key={i}>
                  {p.field && p.field in FIELD_LABELS ? `${FIELD_LABELS[p.field as Field]}: ` : p.field ? `${p.field}: ` : ""}
                  {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <div className="form-actions">
        <button type="submit" disabled={save.isPending || save.isSuccess}>
          {save.isPending ? "Saving…" : editing ? "Save settings" : "Create campaign"}
        </button>
        <Link href={editing ? `/campaigns/${campaignId}` : "/campaigns"}>Cancel</Link>
      </div>
    </form>
  );
}
