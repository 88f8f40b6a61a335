"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { callApi, generalMessage, peopleKeys, type CampaignMembers, type CampaignOption, type UserRow } from "./people-api";

/** Picks a campaign and edits who works on it: every annotator, or the ones ticked. */
export function MembershipSection({ initialCampaigns, initialUsers }: { initialCampaigns: CampaignOption[]; initialUsers: UserRow[] }) {
  const campaigns = useQuery({
    queryKey: peopleKeys.campaigns(),
    queryFn: () => callApi<{ campaigns: CampaignOption[] }>("GET", "/api/campaigns").then((d) => d.campaigns),
    initialData: initialCampaigns,
  });
  // The same query as the Users table: an annotator created above appears here at once.
  const users = useQuery({
    queryKey: peopleKeys.users(),
    queryFn: () => callApi<{ users: UserRow[] }>("GET", "/api/users").then((d) => d.users),
    initialData: initialUsers,
  });
  const annotators = users.data.filter((u) => u.role === "annotator");

  const [campaignId, setCampaignId] = useState<number | null>(null);
  // Kept here, not in the form: the form is remounted with the stored state after a save.
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const campaign = useQuery({
    queryKey: peopleKeys.campaign(campaignId ?? 0),
    queryFn: () => callApi<{ campaign: CampaignMembers }>("GET", `/api/campaigns/${campaignId}`).then((d) => d.campaign),
    enabled: campaignId !== null,
    // The stored membership each time a campaign is picked; no refetch on focus, which would
    // replace a draft the coordinator has not saved yet.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });

  return (
    <section className="card people-section" aria-labelledby="membership-heading">
      <h2 id="membership-heading" className="card-title">
        Campaign membership
      </h2>
      {campaigns.data.length === 0 ? (
        <p className="muted">
          No campaign yet. <Link href="/campaigns/new">Create one</Link> to choose who works on it.
        </p>
      ) : (
        <>
          <div className="field campaign-picker">
            <label htmlFor="membership-campaign">Campaign</label>
            <select
              id="membership-campaign"
              name="campaign"
              value={campaignId ?? ""}
              onChange={(e) => {
                setSavedNote(null);
                setCampaignId(e.target.value ? Number(e.target.value) : null);
              }}
            >
              <option value="">Choose a campaign…</option>
              {campaigns.data.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          {campaignId === null ? null : campaign.isPending ? (
            <p className="muted" role="status">
              Loading the campaign’s members…
            </p>
          ) : campaign.isError ? (
            <p className="error" role="alert">
              {campaign.error.message}
            </p>
          ) : (
            // Keyed by the campaign and the time its state was read: another campaign, or a save,
            // starts the draft afresh from what is stored.
            <MembersForm
              key={`${campaign.data.id}:${campaign.dataUpdatedAt}`}
              campaign={campaign.data}
              annotators={annotators}
              savedNote={savedNote}
              onSavedNote={setSavedNote}
            />
          )}
        </>
      )}
    </section>
  );
}

function MembersForm({
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
    mutationFn: () =>
      callApi<{ campaign: CampaignMembers }>("PUT", `/api/campaigns/${campaign.id}/members`, {
        allAnnotators,
        userIds: [...selected].sort((a, b) => a - b),
      }),
    onSuccess: ({ campaign: stored }) => {
      const n = stored.memberIds.length;
      setSavedNote(
        stored.allAnnotators
          ? `Saved: every annotator, present and future, works on ${stored.name}.`
          : `Saved: ${n === 0 ? "no annotator works" : n === 1 ? "1 annotator works" : `${n} annotators work`} on ${stored.name}.`,
      );
      queryClient.setQueryData(peopleKeys.campaign(campaign.id), stored);
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

  const general = generalMessage(save.error, []);

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

      <fieldset className="plain annotator-list" disabled={allAnnotators}>
        <legend>Annotators</legend>
        {annotators.length === 0 ? (
          <p className="muted">No annotator account yet. Create one under Users.</p>
        ) : (
          <ul className="check-list">
            {annotators.map((a) => (
              <li key={a.id}>
                <label className="check">
                  <input type="checkbox" checked={selected.has(a.id)} onChange={(e) => toggle(a.id, e.target.checked)} />
                  <span>{a.username}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>

      {general && (
        <p className="error" role="alert">
          {general}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save members"}
        </button>
        {savedNote && (
          <span className="ok-note" role="status">
            {savedNote}
          </span>
        )}
      </div>
    </form>
  );
}
