"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyField } from "@/components/ui/copy-field";
import { ErrorAlert, SubmitButton } from "@/components/ui/form-field";
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
import { CROWD_FIELD_LABELS, toCrowdDraft, type CrowdDraft, type CrowdField, type CrowdNumberField } from "./crowd-draft";
import { SaveFailure } from "./campaign-fields";
import { ConsentSetting, CrowdCheck, CrowdNumber, CrowdSelect, CrowdText, ExampleSetting } from "./crowd-fields";
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

/** The crowd entry's settings (PUT /api/campaigns/:id/crowd with the changed fields); problems beside their fields. */
function CrowdForm({ campaignId, saved }: { campaignId: number; saved: CrowdSettingsAnswer }) {
  const [draft, setDraft] = useState<CrowdDraft>(() => toCrowdDraft(saved));
  const { save, formRef, problems } = useCrowdSave(campaignId, saved, draft, setDraft);
  const problemOf = (f: CrowdField) => problems.find((p) => p.field === f)?.message;
  const set =
    <K extends keyof CrowdDraft>(key: K) =>
    (value: CrowdDraft[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const number = (f: CrowdNumberField) => ({ field: f, value: draft[f], onChange: set(f), error: problemOf(f) });
  const setCode = (o: (typeof CROWD_OUTCOME_LIST)[number]) => (code: string) =>
    setDraft((d) => ({ ...d, codes: { ...d.codes, [o]: code } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <form ref={formRef} className="stack" onSubmit={submit} aria-labelledby="crowd-heading">
      <h2 id="crowd-heading" style={{ margin: 0 }}>
        Crowd entry
      </h2>
      <p className="hint" style={{ margin: 0 }}>
        Workers from a crowd platform enter with one link, agree to the consent text, train on gold passages marked as training, then work a
        quota and leave with the completion code of their outcome.
      </p>
      <EntryFields draft={draft} saved={saved} set={set} problemOf={problemOf} />
      <fieldset className="plain">
        <legend>Training</legend>
        <div className="form-grid">
          <CrowdNumber
            {...number("trainingItems")}
            min={0}
            max={50}
            defaultText="5"
            hint="Gold passages marked as training each worker answers first, with feedback (0: no training); at most as many as the campaign has marked. The worker never gets those questions as work."
          />
          <CrowdNumber
            {...number("trainingPassShare")}
            min={0}
            max={1}
            step={0.01}
            defaultText="0.8"
            hint="Share (0–1) of training answers that must be right to enter real work."
          />
        </div>
      </fieldset>
      <SessionFields draft={draft} set={set} number={number} problemOf={problemOf} saved={saved} />
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
      {save.isError && (
        <SaveFailure message={save.error.message} problems={problems} labels={CROWD_FIELD_LABELS} what="The crowd settings were" />
      )}
      <div className="form-actions">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save crowd settings
        </SubmitButton>
        <span role="status" className="hint">
          {save.isSuccess ? "Saved." : ""}
        </span>
      </div>
    </form>
  );
}

type SetDraft = <K extends keyof CrowdDraft>(key: K) => (value: CrowdDraft[K]) => void;

/** The entry's state, platform, link, completion URL, consent and example. */
function EntryFields({
  draft,
  saved,
  set,
  problemOf,
}: {
  draft: CrowdDraft;
  saved: CrowdSettingsAnswer;
  set: SetDraft;
  problemOf: (f: CrowdField) => string | undefined;
}) {
  return (
    <fieldset className="plain">
      <legend>Entry</legend>
      <CrowdSelect
        field="entry"
        value={draft.entry}
        options={CROWD_ENTRY_STATE_LABELS}
        onChange={set("entry")}
        error={problemOf("entry") ?? problemOf("enabled")}
        defaultText="closed"
        hint="Closing turns newcomers away and lets sessions in progress finish; stopping also ends those sessions at their next request, with the “stopped” code."
      />
      <CrowdSelect
        field="platform"
        value={draft.platform}
        options={CROWD_PLATFORM_LABELS}
        onChange={set("platform")}
        error={problemOf("platform")}
        defaultText="Prolific"
      />
      {draft.platform === "mturk" && (
        <CrowdSelect
          field="mturkSite"
          value={draft.mturkSite}
          options={MTURK_SITE_LABELS}
          onChange={set("mturkSite")}
          error={problemOf("mturkSite")}
          defaultText="production"
          hint="Where a finished assignment is submitted. The app never takes the address from the link (turkSubmitTo)."
        />
      )}
      <EntryLink saved={saved} draftPlatform={draft.platform} />
      {draft.platform === "prolific" && (
        <CrowdText
          field="completionUrl"
          type="url"
          maxLength={2000}
          value={draft.completionUrl}
          onChange={set("completionUrl")}
          error={problemOf("completionUrl")}
          hint={`Where a finished session sends the worker, with ?cc=CODE added (default ${CROWD_DEFAULTS.completionUrl}).`}
        />
      )}
      <ConsentSetting value={draft.consent} onChange={set("consent")} error={problemOf("consent")} />
      <ExampleSetting value={draft.example} onChange={set("example")} error={problemOf("example")} />
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
  set,
  number,
  problemOf,
  saved,
}: {
  draft: CrowdDraft;
  set: SetDraft;
  number: (f: CrowdNumberField) => { field: CrowdNumberField; value: string; onChange: (v: string) => void; error?: string };
  problemOf: (f: CrowdField) => string | undefined;
  saved: CrowdSettingsAnswer;
}) {
  return (
    <fieldset className="plain">
      <legend>Sessions and limits</legend>
      <EntryUsageLine saved={saved} />
      <div className="form-grid">
        <CrowdNumber
          {...number("quota")}
          min={1}
          max={10000}
          defaultText="20"
          hint="A session ends once the worker has judged this many."
        />
        <CrowdSelect
          field="quotaUnit"
          value={draft.quotaUnit}
          options={QUOTA_UNITS}
          onChange={set("quotaUnit")}
          error={problemOf("quotaUnit")}
          defaultText="passages"
        />
        <CrowdNumber
          {...number("timeLimitMinutes")}
          min={1}
          max={1440}
          defaultText="60"
          hint="A session ends with the “time limit reached” code after this long."
        />
        <CrowdNumber
          {...number("maxSessionsPerWorker")}
          min={1}
          max={1000}
          defaultText="1"
          hint="How many sessions one worker id may have in this campaign."
        />
        <CrowdNumber
          {...number("maxWorkers")}
          min={1}
          max={1000000}
          defaultText="200"
          hint="The platform’s number of places: worker ids past it are turned away, and no account is made for them."
        />
        <CrowdNumber
          {...number("maxSessionsInProgress")}
          min={1}
          max={100000}
          defaultText="50"
          hint="Sessions not yet ended, at once. A newcomer past it is asked to come back later; no account is made."
        />
        <CrowdNumber
          {...number("maxJudgmentsPerWorker")}
          min={1}
          max={1000000000}
          optional
          defaultText="none"
          hint="Judgments one worker may make in all their sessions. Blank: no limit."
        />
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
