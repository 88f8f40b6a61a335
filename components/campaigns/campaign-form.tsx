"use client";

import Link from "next/link";
import { useState } from "react";
import { FormField } from "@/components/ui/form-field";
import {
  DEFAULT_SETTINGS,
  FIELD_LABELS,
  fieldId,
  toDraft,
  type BooleanField,
  type CampaignSettings,
  type Draft,
  type Field,
} from "./campaign-draft";
import { AggregationSetting, CheckSetting, InstructionsSetting } from "./campaign-fields";
import {
  CAMPAIGN_NAMES,
  CHECK_HINTS,
  GOLD_SETTINGS,
  JUDGING_SETTINGS,
  SESSION_GOAL_SETTING,
  WARNING_SETTINGS,
} from "./campaign-setting-specs";
import { NumberFieldset, NumberSettings } from "./setting-inputs";
import { draftFields, SettingsForm } from "./settings-form";
import { useCampaignSave } from "./use-campaign-save";

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
  const { problemOf, set, bind } = draftFields<Draft, Field>(draft, setDraft, problems);
  const numbers = { names: CAMPAIGN_NAMES, bind };
  const check = (f: BooleanField) => ({ field: f, checked: draft[f], onChange: set(f), error: problemOf(f), hint: CHECK_HINTS[f] });

  return (
    <SettingsForm
      formRef={formRef}
      save={save}
      problems={problems}
      naming={{ "aria-label": editing ? "Campaign settings" : "New campaign" }}
      submitLabel={editing ? "Save settings" : "Create campaign"}
      doneWhenSaved
      aside={<Link href={editing ? `/campaigns/${campaignId}` : "/campaigns"}>Cancel</Link>}
    >
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
          <NumberSettings {...numbers} specs={JUDGING_SETTINGS} />
        </div>
        <CheckSetting {...check("showAnswers")} />
        <CheckSetting {...check("earlyStop")} />
        <CheckSetting {...check("askWhenNoneSufficient")} />
        <AggregationSetting {...bind("aggregation")} />
      </fieldset>
      <NumberFieldset legend="Gold passages" {...numbers} specs={GOLD_SETTINGS} />
      <fieldset className="plain">
        <legend>Annotators</legend>
        <NumberSettings {...numbers} specs={[SESSION_GOAL_SETTING]} />
        <CheckSetting {...check("allAnnotators")} />
        <InstructionsSetting {...bind("instructions")} />
      </fieldset>
      <NumberFieldset legend="Dashboard warnings" {...numbers} specs={WARNING_SETTINGS} />
    </SettingsForm>
  );
}
