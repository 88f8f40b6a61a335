"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorAlert, SubmitButton } from "@/components/ui/form-field";
import { generalMessage } from "@/lib/query/client";
import { campaignKeys, saveMembers, type CampaignMembers } from "@/lib/query/campaigns";
import type { UserRow } from "@/lib/query/people";

function savedText(stored: CampaignMembers): string {
  const n = stored.memberIds.length;
  if (stored.allAnnotators) return `Saved: every annotator, present and future, works on ${stored.name}.`;
  return `Saved: ${n === 0 ? "no annotator works" : n === 1 ? "1 annotator works" : `${n} annotators work`} on ${stored.name}.`;
}

/** A draft of a campaign's members, from what is stored; saving replaces them. */
export function MembersForm({
  campaign,
  annotators,
  savedNote,
  onSavedNote: setSavedNote,
}: {
  campaign: CampaignMembers;
  annotators: UserRow[];
  savedNote: string | null;
  onSavedNote: (note: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [allAnnotators, setAllAnnotators] = useState(campaign.allAnnotators);
  const [selected, setSelected] = useState<Set<number>>(() => new Set(campaign.memberIds));
  const save = useMutation({
    mutationFn: () => saveMembers(campaign.id, { allAnnotators, userIds: [...selected].sort((a, b) => a - b) }),
    onSuccess: ({ campaign: stored }) => {
      setSavedNote(savedText(stored));
      queryClient.setQueryData(campaignKeys.detail(campaign.id), stored);
    },
  });
  const toggle = (id: number, on: boolean) => {
    setSavedNote(null);
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSavedNote(null);
    save.mutate();
  };

  return (
    <form className="stack members-form" onSubmit={submit} aria-label={`Members of ${campaign.name}`}>
      <label className="check" htmlFor="membership-all">
        <input
          id="membership-all"
          type="checkbox"
          checked={allAnnotators}
          aria-describedby="membership-all-hint"
          onChange={(e) => {
            setSavedNote(null);
            setAllAnnotators(e.target.checked);
          }}
        />
        <span>All annotators (present and future)</span>
      </label>
      <span className="hint check-hint" id="membership-all-hint">
        {allAnnotators
          ? "Every annotator works on this campaign, including accounts created later. The ticks below are kept for when this is off."
          : "Only the annotators ticked below work on this campaign."}
      </span>
      <AnnotatorChecklist annotators={annotators} selected={selected} disabled={allAnnotators} onToggle={toggle} />
      <ErrorAlert>{generalMessage(save.error, [])}</ErrorAlert>
      <div className="form-actions">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save members
        </SubmitButton>
        {savedNote && (
          <span className="ok-note" role="status">
            {savedNote}
          </span>
        )}
      </div>
    </form>
  );
}

function AnnotatorChecklist({
  annotators,
  selected,
  disabled,
  onToggle,
}: {
  annotators: UserRow[];
  selected: Set<number>;
  disabled: boolean;
  onToggle: (id: number, on: boolean) => void;
}) {
  return (
    <fieldset className="plain annotator-list" disabled={disabled}>
      <legend>Annotators</legend>
      {annotators.length === 0 ? (
        <p className="muted">No annotator account yet. Create one under Users.</p>
      ) : (
        <ul className="check-list">
          {annotators.map((a) => (
            <li key={a.id}>
              <label className="check">
                <input type="checkbox" checked={selected.has(a.id)} onChange={(e) => onToggle(a.id, e.target.checked)} />
                <span>{a.username}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
