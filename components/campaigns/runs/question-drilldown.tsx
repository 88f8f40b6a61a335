"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorAlert } from "@/components/ui/form-field";
import { TermList } from "@/components/ui/term-list";
import { GoldColumn } from "./gold-column";
import { LevelSwitch } from "./level-switch";
import { GOLDS } from "./metrics";
import type { Level } from "@/lib/kilt/score/types";
import { runQuestionQuery } from "@/components/api/runs";
import "./runs.css";

/** One question of a run against the three golds: the question, its answers and the run's, then a column per gold. */
export function QuestionDrilldown({ campaignId, runId, kiltId }: { campaignId: number; runId: number; kiltId: string }) {
  const [level, setLevel] = useState<Level>("page");
  const detail = useQuery({ ...runQuestionQuery(campaignId, runId, kiltId, level), placeholderData: keepPreviousData });
  const data = detail.data;
  if (detail.isPending) return <p className="muted">Loading…</p>;
  if (!data) return <ErrorAlert>{detail.error?.message ?? "The question could not be read."}</ErrorAlert>;
  const { question, guess } = data;
  return (
    <>
      <section className="card question-card" aria-label="The question">
        <p className="question-input">{question.input}</p>
        <TermList
          className="settings-summary"
          terms={[
            ["KILT id", <code>{question.kiltId}</code>],
            ["Gold answers", question.answers.length ? question.answers.join(" · ") : <span className="muted">none</span>],
            ["The run’s answer", guess.answer ?? <span className="muted">none (provenance only)</span>, "run-answer"],
          ]}
        />
      </section>
      <LevelSwitch id="drilldown-level" value={level} onChange={setLevel} />
      <ErrorAlert>{detail.isError && `The question could not be read again: ${detail.error.message}`}</ErrorAlert>
      <div className="gold-columns" aria-busy={detail.isFetching}>
        {GOLDS.map((g) => (
          <GoldColumn key={g} gold={g} detail={data.golds[g]} />
        ))}
      </div>
    </>
  );
}
