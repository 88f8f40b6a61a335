"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type Dispatch, type SetStateAction } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { ErrorAlert } from "@/components/ui/form-field";
import {
  CROWD_DEFAULTS,
  CROWD_ENTRY_STATE_LABELS,
  CROWD_OUTCOME_LABELS,
  CROWD_OUTCOME_LIST,
  CROWD_PLATFORM_LABELS,
  MTURK_SITE_LABELS,
  type CrowdPlatform,
  type CrowdSettingsAnswer,
  type QuotaUnit,
} from "@/lib/crowd/settings.contract";
import { crowdSettingsQuery } from "@/components/api/crowd";
import { CROWD_FIELD_LABELS, toCrowdDraft, type CrowdDraft, type CrowdField } from "./crowd-draft";
import { CrowdCheck, CrowdMarkdown, CrowdSelect, CrowdText } from "./crowd-fields";
import { CROWD_NAMES, LIMIT_SETTINGS, QUOTA_SETTING, TRAINING_SETTINGS } from "./crowd-setting-specs";
import { NumberFieldset, NumberSettings } from "./setting-inputs";
import { draftFields, SettingsForm } from "./settings-form";
import { useCrowdSave } from "./use-crowd-save";

/** The "Crowd entry" section of a campaign's settings page: its settings, read from the API, then the form. */
export function CrowdSettingsSection({ campaignId }: { campaignId: number }) {
  const query = useQuery(crowdSettingsQuery(campaignId));
  if (query.isPending) return <p role="status">Loading the crowd settings…</p>;
  if (query.isError) return <ErrorAlert>{`The crowd settings could not be read: ${query.error.message}`}</ErrorAlert>;
  return <CrowdForm campaignId={campaignId} saved={query.data} />;
}

const ENTRY_HINTS: Record<CrowdPlatform, string> = {
  prolific:
    "Paste it as the study URL in Prolific and choose “I’ll use URL parameters”: Prolific fills in each participant’s PROLIFIC_PID, STUDY_ID and SESSION_ID.",
  mturk:
    "Use it as the ExternalQuestion URL of the HIT: MTurk adds workerId, assignmentId, hitId and turkSubmitTo itself, and a preview claims nothing.",
  generic:
    "Give each worker this link with WORKER_ID replaced by their id on your platform; they see their completion code on screen at the end.",
};

const QUOTA_UNITS: Record<QuotaUnit, string> = { passages: "passages", questions: "questions (all of each question’s passages)" };

function EntryLink({ saved, draftPlatform }: { saved: CrowdSettingsAnswer; draftPlatform: CrowdPlatform }) {
  return (
    <div className="field">
      <CopyField label="Entry URL" value={saved.entryUrl} describedBy="crowd-entry-url-hint" />
      <span className="hint" id="crowd-entry-url-hint">
        {ENTRY_HINTS[saved.platform]}
        {saved.entry === "closed" &&
          " The entry is closed: workers who open the link are turned away until you open it; sessions in progress finish."}
        {saved.entry === "stopped" &&
          " The entry is stopped: workers who open the link are turned away, and sessions in progress ended with the “stopped” code."}
        {draftPlatform !== saved.platform && " Save to get the link for the platform chosen above."}
      </span>
    </div>
  );
}

type CrowdFields = ReturnType<typeof draftFields<CrowdDraft, CrowdField>>;

/** The crowd entry's settings (PUT /api/campaigns/:id/crowd with the changed fields); problems beside their fields. */
function CrowdForm({ campaignId, saved }: { campaignId: number; saved: CrowdSettingsAnswer }) {
  const [draft, setDraft] = useState<CrowdDraft>(() => toCrowdDraft(saved));
  const { save, formRef, problems } = useCrowdSave(campaignId, saved, draft, setDraft);
  const fields = draftFields<CrowdDraft, CrowdField>(draft, setDraft, problems);
  return (
    <SettingsForm
      formRef={formRef}
      save={save}
      problems={problems}
      naming={{ "aria-labelledby": "crowd-heading" }}
      failure={{ labels: CROWD_FIELD_LABELS, what: "The crowd settings were" }}
      submitLabel="Save crowd settings"
      aside={
        <span role="status" className="hint">
          {save.isSuccess ? "Saved." : ""}
        </span>
      }
    >
      <h2 id="crowd-heading" style={{ margin: 0 }}>
        Crowd entry
      </h2>
      <p className="hint" style={{ margin: 0 }}>
        Workers from a crowd platform enter with one link, agree to the consent text, train on gold passages marked as training, then work a
        quota and leave with the completion code of their outcome.
      </p>
      <EntryFields draft={draft} saved={saved} fields={fields} />
      <NumberFieldset legend="Training" names={CROWD_NAMES} bind={fields.bind} specs={TRAINING_SETTINGS} />
      <SessionFields draft={draft} fields={fields} saved={saved} />
      <CodeFields draft={draft} setDraft={setDraft} problemOf={fields.problemOf} />
    </SettingsForm>
  );
}

/** One completion code per outcome. */
function CodeFields({
  draft,
  setDraft,
  problemOf,
}: {
  draft: CrowdDraft;
  setDraft: Dispatch<SetStateAction<CrowdDraft>>;
  problemOf: CrowdFields["problemOf"];
}) {
  const setCode = (o: (typeof CROWD_OUTCOME_LIST)[number]) => (code: string) =>
    setDraft((d) => ({ ...d, codes: { ...d.codes, [o]: code } }));
  return (
    <fieldset className="plain">
      <legend>Completion codes</legend>
      <p className="hint" style={{ margin: 0 }}>
        One code per outcome, as set up on the platform: 1–64 letters, digits, “_” or “-”, each different.
      </p>
      <div className="form-grid">
        {CROWD_OUTCOME_LIST.map((o) => (
          <CrowdText
            key={o}
            field={`codes.${o}`}
            maxLength={64}
            value={draft.codes[o]}
            onChange={setCode(o)}
            error={problemOf(`codes.${o}`)}
            hint={`Given when: ${CROWD_OUTCOME_LABELS[o].toLowerCase()}.`}
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The entry's state, platform, link, completion URL, consent and example. */
function EntryFields({
  draft,
  saved,
  fields: { bind, problemOf },
}: {
  draft: CrowdDraft;
  saved: CrowdSettingsAnswer;
  fields: CrowdFields;
}) {
  return (
    <fieldset className="plain">
      <legend>Entry</legend>
      <CrowdSelect
        {...bind("entry")}
        options={CROWD_ENTRY_STATE_LABELS}
        error={problemOf("entry") ?? problemOf("enabled")}
        defaultText="closed"
        hint="Closing turns newcomers away and lets sessions in progress finish; stopping also ends those sessions at their next request, with the “stopped” code."
      />
      <CrowdSelect {...bind("platform")} options={CROWD_PLATFORM_LABELS} defaultText="Prolific" />
      {draft.platform === "mturk" && (
        <CrowdSelect
          {...bind("mturkSite")}
          options={MTURK_SITE_LABELS}
          defaultText="production"
          hint="Where a finished assignment is submitted. The app never takes the address from the link (turkSubmitTo)."
        />
      )}
      <EntryLink saved={saved} draftPlatform={draft.platform} />
      {draft.platform === "prolific" && (
        <CrowdText
          {...bind("completionUrl")}
          type="url"
          maxLength={2000}
          hint={`Where a finished session sends the worker, with ?cc=CODE added (default ${CROWD_DEFAULTS.completionUrl}).`}
        />
      )}
      <CrowdMarkdown {...bind("consent")} />
      <CrowdMarkdown {...bind("example")} />
    </fieldset>
  );
}

/** The counts beside the caps, as the server last answered them (the saved caps, not the draft's). */
function EntryUsageLine({ saved }: { saved: CrowdSettingsAnswer }) {
  const { workers, sessionsInProgress } = saved.usage;
  return (
    <p className="hint" style={{ margin: 0 }} data-testid="crowd-usage">
      Now: {workers} of {saved.maxWorkers} workers; {sessionsInProgress} of {saved.maxSessionsInProgress} sessions in progress.
    </p>
  );
}

function SessionFields({
  draft,
  fields: { bind, set, problemOf },
  saved,
}: {
  draft: CrowdDraft;
  fields: CrowdFields;
  saved: CrowdSettingsAnswer;
}) {
  return (
    <fieldset className="plain">
      <legend>Sessions and limits</legend>
      <EntryUsageLine saved={saved} />
      <div className="form-grid">
        <NumberSettings names={CROWD_NAMES} bind={bind} specs={[QUOTA_SETTING]} />
        <CrowdSelect {...bind("quotaUnit")} options={QUOTA_UNITS} defaultText="passages" />
        <NumberSettings names={CROWD_NAMES} bind={bind} specs={LIMIT_SETTINGS} />
      </div>
      <CrowdCheck
        field="pauseFastWorkers"
        checked={draft.pauseFastWorkers}
        onChange={set("pauseFastWorkers")}
        error={problemOf("pauseFastWorkers")}
        hint="Pause a worker whose median time per judgment is under 2 s, as failing gold does (after the campaign’s warning threshold of judgments)."
      />
    </fieldset>
  );
}
