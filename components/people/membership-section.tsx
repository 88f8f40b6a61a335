"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { campaignMembersQuery, campaignsQuery, type CampaignOption } from "@/components/api/campaigns";
import { SearchBox } from "./list-controls";
import { MembersForm } from "./members-form";
import { PeopleSection } from "./people-section";

/** Picks a campaign (the newest, or found by name) and edits who works on it: every annotator, or the ones chosen. */
export function MembershipSection({ initialCampaigns }: { initialCampaigns: CampaignOption[] }) {
  const [q, setQ] = useState("");
  const campaigns = useQuery({
    ...campaignsQuery(q),
    initialData: q === "" ? initialCampaigns : undefined,
    placeholderData: keepPreviousData,
  });
  const [campaignId, setCampaignId] = useState<number | null>(null);
  // Kept here, not in the form: the form is remounted with the stored state after a save.
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const pick = (id: number | null) => {
    setSavedNote(null);
    setCampaignId(id);
  };
  const options = campaigns.data ?? [];

  return (
    <PeopleSection id="membership" title="Campaign membership">
      {q === "" && initialCampaigns.length === 0 && options.length === 0 ? (
        <p className="muted">
          No campaign yet. <Link href="/campaigns/new">Create one</Link> to choose who works on it.
        </p>
      ) : (
        <>
          <SearchBox
            id="membership-campaign-search"
            landmark="Campaigns"
            label="Find a campaign"
            placeholder="a part of its name"
            value={q}
            onSearch={setQ}
          />
          <CampaignPicker campaigns={options} campaignId={campaignId} onPick={pick} searched={q !== ""} />
          {campaignId !== null && <CampaignMembers campaignId={campaignId} savedNote={savedNote} onSavedNote={setSavedNote} />}
        </>
      )}
    </PeopleSection>
  );
}

function CampaignPicker({
  campaigns,
  campaignId,
  onPick,
  searched,
}: {
  campaigns: CampaignOption[];
  campaignId: number | null;
  onPick: (id: number | null) => void;
  searched: boolean;
}) {
  return (
    <div className="field campaign-picker">
      <label htmlFor="membership-campaign">Campaign</label>
      <select
        id="membership-campaign"
        name="campaign"
        value={campaignId ?? ""}
        aria-describedby="membership-campaign-hint"
        onChange={(e) => onPick(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">{campaigns.length === 0 ? "No campaign matches" : "Choose a campaign…"}</option>
        {campaignId !== null && !campaigns.some((c) => c.id === campaignId) && (
          <option value={campaignId}>(the campaign chosen before)</option>
        )}
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <span className="hint" id="membership-campaign-hint">
        {searched ? "The newest campaigns whose name matches." : "The newest campaigns; find an older one by its name."}
      </span>
    </div>
  );
}

function CampaignMembers({
  campaignId,
  savedNote,
  onSavedNote,
}: {
  campaignId: number;
  savedNote: string | null;
  onSavedNote: (note: string | null) => void;
}) {
  const campaign = useQuery({
    ...campaignMembersQuery(campaignId),
    // The stored membership each time a campaign is picked; no refetch on focus, which would
    // replace a draft the coordinator has not saved yet.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
  if (campaign.isPending) {
    return (
      <p className="muted" role="status">
        Loading the campaign’s members…
      </p>
    );
  }
  if (campaign.isError) return <ErrorAlert>{campaign.error.message}</ErrorAlert>;
  return (
    // Keyed by the campaign and the time its state was read: another campaign, or a save,
    // starts the draft afresh from what is stored.
    <MembersForm
      key={`${campaign.data.id}:${campaign.dataUpdatedAt}`}
      campaign={campaign.data}
      savedNote={savedNote}
      onSavedNote={onSavedNote}
    />
  );
}
