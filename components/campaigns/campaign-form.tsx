"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { FormField, SubmitButton } from "@/components/ui/form-field";
import { DEFAULT_SETTINGS, FIELD_LABELS, fieldId, toDraft, type CampaignSettings, type Draft, type Field } from "./campaign-draft";
import { AggregationSetting, CheckSetting, InstructionsSetting, NumberSetting, SaveFailure } from "./campaign-fields";
import { useCampaignSave } from "./use-campaign-save";

type GoldField = "goldMinJudgments" | "goldAccuracyThreshold" | "goldSpanSlack" | "decoysPer100";

/**
 * Creates a campaign (POST /api/campaigns, then opens it) or edits one (PATCH with the changed
 * fields). Every setting shows its default; field problems appear beside the fields (the first one
 * focused) and in a summary.
 */
export function CampaignForm({ campaignId, initial }: { campaignId?: number; initial?: CampaignSettings }) {
  const editing = campaignId !== undefined;
  const start = initial ?? DEFAULT_SETTINGS;
  const [draft, setDraft] = useState<Draft>(() => toDraft(start));
  const { save, formRef, problems } = useCampaignSave(campaignId, start, draft);
  const problemOf = (f: Field) => problems.find((p) => p.field === f)?.message;
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const number = (f: Parameters<typeof NumberSetting>[0]["field"]) => ({
    field: f,
    value: draft[f],
    onChange: set(f),
    error: problemOf(f),
  });
  const check = (f: Parameters<typeof CheckSetting>[0]["field"]) => ({
    field: f,
    checked: draft[f],
    onChange: set(f),
    error: problemOf(f),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <form ref={formRef} className="stack" onSubmit={submit} aria-label={editing ? "Campaign settings" : "New campaign"}>
      <FormField id={fieldId("name")} label={FIELD_LABELS.name} error={problemOf("name")}>
        {(p) => (
          <input
            {...p}
            name="name"
            required
            maxLength={200}
            autoFocus={!editing}
            value={draft.name}
            onChange={(e) => set("name")(e.target.value)}
          />
        )}
      </FormField>
      <fieldset className="plain">
        <legend>Judging</legend>
        <div className="form-grid">
          <NumberSetting {...number("judgmentsPerPassage")} min={1} max={9} defaultText="3" hint="R: judgments each passage gets (1–9)." />
          <NumberSetting
            {...number("endorsementThreshold")}
            min={1}
            max={9}
            defaultText="2"
            hint="T: “sufficient” judgments that endorse a passage (at most R)."
          />
          <NumberSetting
            {...number("leaseMinutes")}
            min={1}
            max={1440}
            defaultText="10"
            hint="How long a claim on a passage lasts without renewal."
          />
        </div>
        <CheckSetting {...check("showAnswers")} hint="Annotators see the question’s answers above the passage." />
        <CheckSetting {...check("earlyStop")} hint="Stop assigning a passage once its outcome is decided." />
        <CheckSetting
          {...check("askWhenNoneSufficient")}
          hint="An annotator who finds none of a question’s passages sufficient proposes another passage or explains why (on by default)."
        />
        <AggregationSetting value={draft.aggregation} onChange={set("aggregation")} error={problemOf("aggregation")} />
      </fieldset>
      <GoldFieldset number={number} />
      <fieldset className="plain">
        <legend>Annotators</legend>
        <NumberSetting
          {...number("sessionGoal")}
          min={1}
          max={100000}
          optional
          defaultText="none"
          hint="Passages an annotator aims to judge in one session (a session ends after 30 min without a judgment); the judging page shows progress towards it. Blank: no goal."
        />
        <CheckSetting
          {...check("allAnnotators")}
          hint="Every annotator, present and future, works on this campaign. Off: only the annotators added to it."
        />
        <InstructionsSetting value={draft.instructions} onChange={set("instructions")} error={problemOf("instructions")} />
      </fieldset>
      <fieldset className="plain">
        <legend>Dashboard warnings</legend>
        <div className="form-grid">
          <NumberSetting
            {...number("warnFastShare")}
            min={0}
            max={1}
            step={0.01}
            defaultText="0.5"
            hint="Flag an annotator when more than this share (0–1) of their judgments took under 2 s."
          />
          <NumberSetting
            {...number("warnMinAgreement")}
            min={0}
            max={1}
            step={0.01}
            defaultText="0.6"
            hint="Flag an annotator whose agreement with the majority (0–1) falls below this."
          />
          <NumberSetting
            {...number("warnMinJudgments")}
            min={1}
            max={100000}
            defaultText="20"
            hint="Judgments (compared ones, for agreement) before an annotator is flagged."
          />
        </div>
      </fieldset>
      {save.isError && <SaveFailure message={save.error.message} problems={problems} />}
      <div className="form-actions">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…" disabled={save.isSuccess}>
          {editing ? "Save settings" : "Create campaign"}
        </SubmitButton>
        <Link href={editing ? `/campaigns/${campaignId}` : "/campaigns"}>Cancel</Link>
      </div>
    </form>
  );
}

/** The gold settings: the gold rule (per kind of gold), the span check's slack and the decoys made at import. */
const GOLD_SETTINGS: (Omit<Parameters<typeof NumberSetting>[0], "value" | "onChange" | "error"> & { field: GoldField })[] = [
  {
    field: "goldMinJudgments",
    min: 0,
    max: 10000,
    defaultText: "4",
    hint: "Gold judgments of one kind (sufficient gold, or negative gold and decoys) an annotator makes before the gold rule applies to that kind.",
  },
  {
    field: "goldAccuracyThreshold",
    min: 0,
    max: 1,
    step: 0.01,
    defaultText: "0.3",
    hint: "An annotator whose smoothed accuracy on either kind of gold falls below this (0–1) is paused.",
  },
  {
    field: "goldSpanSlack",
    min: 0,
    max: 10,
    step: 0.05,
    defaultText: "0.2",
    hint: "On sufficient gold, a highlight may be this share longer than the sentences holding the expected span (0.2: 20%), or 3× the expected span.",
  },
  {
    field: "decoysPer100",
    min: 0,
    max: 50,
    defaultText: "0",
    hint: "At import, make about this many decoys per 100 passages: paragraphs of the candidates’ pages without any answer token, hidden as gold expected not sufficient, never exported.",
  },
];

function GoldFieldset({
  number,
}: {
  number: (f: GoldField) => Pick<Parameters<typeof NumberSetting>[0], "field" | "value" | "onChange" | "error">;
}) {
  return (
    <fieldset className="plain">
      <legend>Gold passages</legend>
      <div className="form-grid">
        {GOLD_SETTINGS.map((setting) => (
          <NumberSetting key={setting.field} {...setting} {...number(setting.field)} />
        ))}
      </div>
    </fieldset>
  );
}
