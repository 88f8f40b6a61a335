"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorAlert, SubmitButton } from "@/components/ui/form-field";
import { generalMessage } from "@/components/api/client";
import { campaignKeys, saveMembers, type CampaignMembers } from "@/components/api/campaigns";
import { usersQuery } from "@/components/api/people";
import { Pager, SearchBox, useCursorPages } from "./list-controls";

function savedText(stored: CampaignMembers): string {
  const n = stored.memberIds.length;
  if (stored.allAnnotators) return `Saved: every annotator, present and future, works on ${stored.name}.`;
  return `Saved: ${n === 0 ? "no annotator works" : n === 1 ? "1 annotator works" : `${n} annotators work`} on ${stored.name}.`;
}

/** How many annotators a search shows to add. */
const FOUND_PAGE = 20;

/**
 * A draft of a campaign's members, from what is stored; saving replaces them. Annotators are found by
 * searching and added one by one; the chosen ones are listed a page at a time with a tick each, so a
 * campaign with thousands of annotators never shows thousands of checkboxes.
 */
export function MembersForm({
  campaign,
  savedNote,
  onSavedNote: setSavedNote,
}: {
  campaign: CampaignMembers;
  savedNote: string | null;
  onSavedNote: (note: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const [allAnnotators, setAllAnnotators] = useState(campaign.allAnnotators);
  const [selected, setSelected] = useState<Set<number>>(() => new Set(campaign.memberIds));
  // Annotators added in this draft (not stored yet), newest first, with their names.
  const [added, setAdded] = useState<{ id: number; username: string }[]>([]);
  const save = useMutation({
    mutationFn: () => saveMembers(campaign.id, { allAnnotators, userIds: [...selected].sort((a, b) => a - b) }),
    onSuccess: ({ campaign: stored }) => {
      setSavedNote(savedText(stored));
      void queryClient.invalidateQueries({ queryKey: ["users"] });
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
  const add = (user: { id: number; username: string }) => {
    toggle(user.id, true);
    setAdded((a) => (a.some((u) => u.id === user.id) || campaign.memberIds.includes(user.id) ? a : [user, ...a]));
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
          ? "Every annotator works on this campaign, including accounts created later. The annotators chosen below are kept for when this is off."
          : "Only the annotators chosen below work on this campaign."}
      </span>
      <fieldset className="plain annotator-list" disabled={allAnnotators}>
        <legend>Chosen annotators ({selected.size.toLocaleString("en-US")})</legend>
        <ChosenList campaignId={campaign.id} added={added} selected={selected} onToggle={toggle} />
      </fieldset>
      <AnnotatorFinder selected={selected} disabled={allAnnotators} onAdd={add} />
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

/** The chosen annotators: those added in this draft, then the stored members a page at a time; unticking one leaves it out. */
function ChosenList({
  campaignId,
  added,
  selected,
  onToggle,
}: {
  campaignId: number;
  added: { id: number; username: string }[];
  selected: Set<number>;
  onToggle: (id: number, on: boolean) => void;
}) {
  const pages = useCursorPages();
  const stored = useQuery({ ...usersQuery({ memberOf: campaignId, after: pages.after }), placeholderData: keepPreviousData });
  const addedIds = new Set(added.map((u) => u.id));
  const rows = [...(pages.page === 1 ? added : []), ...(stored.data?.users ?? []).filter((u) => !addedIds.has(u.id))];
  return (
    <>
      {stored.isPending ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No annotator chosen. Find one below to add.</p>
      ) : (
        <ul className="check-list">
          {rows.map((a) => (
            <li key={a.id}>
              <label className="check">
                <input type="checkbox" checked={selected.has(a.id)} onChange={(e) => onToggle(a.id, e.target.checked)} />
                <span>{a.username}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert>{stored.isError && `The members could not be read: ${stored.error.message}`}</ErrorAlert>
      <Pager what="chosen annotators" page={pages.page} next={stored.data?.next ?? null} onPrevious={pages.previous} onNext={pages.next} />
    </>
  );
}

/** Searches annotators by username and adds them to the draft. */
function AnnotatorFinder({
  selected,
  disabled,
  onAdd,
}: {
  selected: Set<number>;
  disabled: boolean;
  onAdd: (u: { id: number; username: string }) => void;
}) {
  const [q, setQ] = useState("");
  const found = useQuery({ ...usersQuery({ role: "annotator", q: q || undefined, limit: FOUND_PAGE }), enabled: q !== "" && !disabled });
  return (
    <div className="annotator-finder" aria-disabled={disabled || undefined}>
      {!disabled && (
        <SearchBox
          nested
          id="membership-find"
          landmark="Annotators to add"
          label="Find annotators to add"
          placeholder="a part of the username"
          value={q}
          onSearch={setQ}
        />
      )}
      {q !== "" && !disabled && found.data && (
        <>
          {found.data.users.length === 0 ? (
            <p className="muted">No annotator matches “{q}”.</p>
          ) : (
            <ul className="found-list" aria-label="Annotators found">
              {found.data.users.map((u) => (
                <li key={u.id}>
                  <span>{u.username}</span>
                  <button
                    type="button"
                    className="secondary"
                    disabled={selected.has(u.id)}
                    aria-label={selected.has(u.id) ? `${u.username} is chosen` : `Add ${u.username}`}
                    onClick={() => onAdd(u)}
                  >
                    {selected.has(u.id) ? "Chosen" : "Add"}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {found.data.next !== null && <p className="hint">The first {FOUND_PAGE} matches; type more of the name to narrow it.</p>}
        </>
      )}
      <ErrorAlert>{found.isError && `The search failed: ${found.error.message}`}</ErrorAlert>
    </div>
  );
}
