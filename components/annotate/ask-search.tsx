"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { sectionTitle } from "@/lib/kilt/words";
import { ApiError } from "@/components/api/client";
import { searchKnowledgeOptions, type Segment, type SearchResult } from "@/components/api/knowledge";
import type { PassageLocation } from "@/lib/campaign/annotate/ask.contract";
import type { AskDraft, SearchMode } from "./ask-storage";

/** Matched words in <mark>: the server's segments, as React text (never HTML). */
export function Marked({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.match ? (
          <mark key={i} className="ask-match">
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** The search box's text, sent once typing pauses. */
function useSettled(text: string, ms = 250): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const t = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(t);
  }, [text, ms]);
  return settled;
}

/** ↓/↑ move between the search box and the results (Tab does too); Enter opens one. */
function onResultsKey(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
  const list = e.currentTarget.closest(".ask-search")?.querySelectorAll<HTMLButtonElement>(".ask-result");
  if (!list || list.length === 0) return;
  const items = Array.from(list);
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  e.preventDefault();
  if (e.key === "ArrowDown") items[Math.min(at + 1, items.length - 1)]?.focus();
  else if (at <= 0) e.currentTarget.closest(".ask-search")?.querySelector<HTMLInputElement>("input[type=search]")?.focus();
  else items[at - 1]?.focus();
}

interface Props {
  draft: AskDraft;
  update: (change: Partial<AskDraft>) => void;
  /** Opens a result's page (`paragraphId`: the paragraph a text result matched). */
  onOpen: (result: SearchResult) => void;
  /** Where the question's passages given to the annotator lie (`Ask.given`): results there are marked before they are opened. */
  given: readonly PassageLocation[];
}

/** What a result says about the passages already given: its paragraph is one of them, or its page holds some. */
export function givenNote(r: SearchResult, given: readonly PassageLocation[]): string | null {
  const onPage = given.filter((g) => g.wikipediaId === r.wikipediaId);
  if (onPage.length === 0) return null;
  const id = r.paragraphId;
  if (id !== null && onPage.some((g) => g.startParagraphId <= id && id <= g.endParagraphId)) return "Already a passage of this question";
  return onPage.length === 1
    ? "1 passage of this page was already given to you"
    : `${onPage.length} passages of this page were already given to you`;
}

function GivenNote({ note }: { note: string | null }) {
  return note ? (
    <span className="ask-given-label" data-testid="ask-result-given">
      {note}
    </span>
  ) : null;
}

/** Search the knowledge source: by title always, by text once the index is built (the answer says so). */
export function AskSearch({ draft, update, onOpen, given }: Props) {
  const q = useSettled(draft.q.trim());
  const search = useQuery({ ...searchKnowledgeOptions(q, draft.mode), retry: false });
  const [indexed, setIndexed] = useState(draft.mode === "text");
  useEffect(() => {
    if (search.data) setIndexed(search.data.indexed);
  }, [search.data]);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => box.current?.focus(), []);
  const results = search.data?.results ?? [];
  const error = search.error instanceof ApiError ? search.error : null;
  const setMode = (mode: SearchMode) => update({ mode });
  return (
    <div className="ask-search" role="search">
      <div className="ask-search-row">
        <label htmlFor="ask-q">Search the knowledge source</label>
        <input
          id="ask-q"
          ref={box}
          type="search"
          value={draft.q}
          autoComplete="off"
          aria-describedby={error ? "ask-q-error" : "ask-q-hint"}
          aria-invalid={error ? true : undefined}
          onChange={(e) => update({ q: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === "Enter") e.preventDefault();
            onResultsKey(e);
          }}
        />
      </div>
      {(indexed || draft.mode === "text") && (
        <fieldset className="ask-modes">
          <legend className="sr-only">Search by</legend>
          {(["title", "text"] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="ask-mode" value={m} checked={draft.mode === m} onChange={() => setMode(m)} />{" "}
              {m === "title" ? "Title" : "Text"}
            </label>
          ))}
        </fieldset>
      )}
      <p className="muted ask-hint" id="ask-q-hint">
        {draft.mode === "title"
          ? "Titles that start with these words (case and accents ignored)."
          : "Paragraphs holding these words, best first."}{" "}
        ↓ moves to the results, Enter opens one.
      </p>
      {error && (
        <p className="field-error" id="ask-q-error">
          {error.message}
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {q && search.data ? `${results.length} result${results.length === 1 ? "" : "s"}` : ""}
      </p>
      {q && search.data && results.length === 0 && <p className="muted">Nothing found for “{q}”.</p>}
      {results.length > 0 && (
        <ol className="ask-results" aria-label="Search results">
          {results.map((r) => (
            <li key={`${r.wikipediaId}:${r.paragraphId ?? "page"}`}>
              <button type="button" className="ask-result" onClick={() => onOpen(r)} onKeyDown={onResultsKey}>
                <span className="ask-result-title">
                  <Marked segments={r.titleSegments} />
                </span>
                {r.section && <span className="ask-result-section">{sectionTitle(r.section)}</span>}
                <GivenNote note={givenNote(r, given)} />
                <span className="ask-result-snippet">
                  <Marked segments={r.snippet} />
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
