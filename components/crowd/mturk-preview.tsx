"use client";

import { useQuery } from "@tanstack/react-query";
import { Markdown } from "@/components/ui/markdown";
import { crowdEntryQuery, type CrowdEntryInfo } from "@/components/api/crowd-session";
import { SessionFacts } from "./consent-stage";
import { CrowdLoading, EntryProblem, useLandingFocus } from "./crowd-screens";

function Example({ markdown }: { markdown: string }) {
  return (
    <section className="crowd-example" aria-labelledby="example-title">
      <h2 id="example-title">An example</h2>
      <Markdown className="crowd-markdown">{markdown}</Markdown>
    </section>
  );
}

/**
 * MTurk's preview (assignmentId ASSIGNMENT_ID_NOT_AVAILABLE): the instructions and the example the settings hold, read
 * only. Nothing is claimed and no session begins until the worker accepts the HIT.
 */
export function MturkPreview({ entryKey }: { entryKey: string }) {
  const entry = useQuery(crowdEntryQuery(entryKey));
  if (entry.error) return <EntryProblem error={entry.error} onRetry={() => void entry.refetch()} />;
  if (!entry.data) return <CrowdLoading text="Loading the preview…" />;
  return <Preview e={entry.data} />;
}

function Preview({ e }: { e: CrowdEntryInfo }) {
  const headingRef = useLandingFocus();
  return (
    <main className="crowd-page">
      <h1 tabIndex={-1} ref={headingRef}>
        {e.campaignName}
      </h1>
      <p className="crowd-notice" role="note">
        <strong>Accept the HIT to start.</strong> This is a preview: nothing you do here is saved.
      </p>
      <SessionFacts training={e.trainingItems} quota={e.quota} unit={e.quotaUnit} minutes={null} />
      <p className="muted">You have {e.timeLimitMinutes} minutes once you start.</p>
      <section className="card" aria-labelledby="instructions-title">
        <h2 id="instructions-title">Instructions</h2>
        {e.instructions.trim() ? (
          <Markdown className="crowd-markdown">{e.instructions}</Markdown>
        ) : (
          <p className="muted">Your requester has not written instructions.</p>
        )}
      </section>
      {e.example.trim() && <Example markdown={e.example} />}
    </main>
  );
}
