"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { campaignMembersQuery, campaignsQuery, type CampaignOption } from "@/lib/query/campaigns";
import { usersQuery, type UserRow } from "@/lib/query/people";
import { MembersForm } from "./members-form";
import { PeopleSection } from "./people-section";

/** Picks a campaign and edits who works on it: every annotator, or the ones ticked. */
export function MembershipSection({ initialCampaigns, initialUsers }: { initialCampaigns: CampaignOption[]; initialUsers: UserRow[] }) {
  const campaigns = useQuery({ ...campaignsQuery(), initialData: initialCampaigns });
  const [campaignId, setCampaignId] = useState<number | null>(null);
  // Kept here, not in the form: the form is remounted with the stored state after a save.
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const pick = (id: number | null) => {
    setSavedNote(null);
    setCampaignId(id);
  };

  return (
    <PeopleSection id="membership" title="Campaign membership">
      {campaigns.data.length === 0 ? (
        <p className="muted">
          No campaign yet. <Link href="/campaigns/new">Create one</Link> to choose who works on it.
        </p>
      ) : (
        <>
          <CampaignPicker campaigns={campaigns.data} campaignId={campaignId} onPick={pick} />
          {campaignId !== null && <CampaignMembers campaignId={campaignId} initialUsers={initialUsers} savedNote={savedNote} onSavedNote={setSavedNote} />}
        </>
      )}
    </PeopleSection>
  );
}

function CampaignPicker({ campaigns, campaignId, onPick }: { campaigns: CampaignOption[]; campaignId: number | null; onPick: (id: number | null) => void }) {
  return (
    <div className="field campaign-picker">
      <label htmlFor="membership-campaign">Campaign</label>
      <select id="membership-campaign" name="campaign" value={campaignId ?? ""} onChange={(e) => onPick(e.target.value ? Number(e.target.value) : null)}>
        <option value="">Choose a campaign…</option>
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function CampaignMembers({
  campaignId,
  initialUsers,
  savedNote,
  onSavedNote,
}: {
  campaignId: number;
  initialUsers: UserRow[];
  savedNote: string | null;
  onSavedNote: (note: string | null) => void;
}) {
  // The same query as the Users table: an annotator created above appears here at once.
  const users = useQuery({ ...usersQuery(), initialData: initialUsers });
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
      annotators={users.data.filter((u) => u.role === "annotator")}
      savedNote={savedNote}
      onSavedNote={onSavedNote}
    />
  );
}
