"use client";

import { useState } from "react";
import type { SearchResult } from "@/components/api/knowledge";
import { FirstPassageNote, HighlightStep, PageReader } from "./ask-reader";
import { AskSearch } from "./ask-search";
import type { AskFlow } from "./use-ask";
import type { AskProposal } from "./use-ask-proposal";

/** Propose a passage, in three steps kept in the draft: search, the opened page (pick paragraphs), the highlight. */
export function AskPropose({ flow, proposal }: { flow: AskFlow; proposal: AskProposal }) {
  const { ask, draft, update, proposing } = flow;
  const [focusParagraph, setFocusParagraph] = useState<number | null>(null);
  if (!draft || !ask) return null;
  const open = (r: SearchResult) => {
    setFocusParagraph(r.paragraphId);
    if (r.wikipediaId !== draft.page) update({ page: r.wikipediaId, range: null, span: null, highlighting: false });
  };
  const first = <FirstPassageNote draft={draft} update={update} />;
  if (!draft.page)
    return (
      <>
        {first}
        <AskSearch draft={draft} update={update} onOpen={open} given={ask.given} />
      </>
    );
  if (proposal.page.isError) {
    return (
      <div className="ask-reader">
        <p className="field-error" role="alert">
          The page could not be opened: {proposal.page.error.message}
        </p>
        <button type="button" className="secondary" onClick={() => update({ page: null, range: null, span: null, highlighting: false })}>
          Back to the search
        </button>
      </div>
    );
  }
  if (!proposal.data) {
    return (
      <p className="loading" aria-live="polite">
        Opening the page…
      </p>
    );
  }
  if (draft.highlighting && draft.range) {
    return (
      <>
        {first}
        <HighlightStep
          ask={ask}
          draft={draft}
          proposal={proposal}
          error={proposing.error}
          busy={proposing.isPending}
          onBack={() => update({ highlighting: false })}
        />
      </>
    );
  }
  return (
    <>
      {first}
      <PageReader
        ask={ask}
        page={proposal.data}
        draft={draft}
        update={update}
        focusParagraph={focusParagraph}
        onBack={() => update({ page: null, range: null, span: null, highlighting: false })}
      />
    </>
  );
}
