"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { JudgingStyles } from "@/components/annotation/judging-styles";
import { PassageView } from "@/components/annotation/passage-view";
import { Markdown } from "@/components/ui/markdown";
import { passageWords } from "@/lib/kilt/words";
import { crowdEntryQuery, type CrowdEntryInfo, type TrainingItemView } from "@/lib/query/crowd-session";
import { SessionFacts } from "./consent-stage";
import { CrowdLoading, EntryProblem, useLandingFocus } from "./crowd-screens";
import { taskOfItem } from "./crowd-task";

function Example({ item }: { item: TrainingItemView }) {
  const task = useMemo(() => taskOfItem(item, "example"), [item]);
  const words = useMemo(() => passageWords(task.passage.paragraphs), [task]);
  return (
    <section className="crowd-example" aria-labelledby="example-title">
      <JudgingStyles />
      <h2 id="example-title">An example</h2>
      <p className="muted">Each item is a question and a passage like this one: you say whether the passage holds enough evidence to answer it, and highlight the words that do.</p>
      <div className="question-block">
        <p className="question-label">Question</p>
        <p className="question">{item.query.input}</p>
      </div>
      <PassageView task={task} words={words} span={null} range={null} onSelect={() => {}} />
    </section>
  );
}

/**
 * MTurk's preview (assignmentId ASSIGNMENT_ID_NOT_AVAILABLE): the instructions and one example, read
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
        {e.instructions.trim() ? <Markdown className="crowd-markdown">{e.instructions}</Markdown> : <p className="muted">Your requester has not written instructions.</p>}
      </section>
      {e.example && <Example item={e.example} />}
    </main>
  );
}
