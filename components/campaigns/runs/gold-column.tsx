"use client";

import { useState } from "react";
import { formatScore, GOLD_HINT, GOLD_LABEL } from "./metrics";
import { setLabel, setMarks } from "./rank-marks";
import type { RankDetail } from "@/lib/kilt/score/detail";
import type { Gold } from "@/components/api/runs";

const SHOWN = 20;

const NOT_IN: Record<Gold, string> = {
  original: "Not in this gold: the question’s imported line has no provenance.",
  endorsed: "Not in this gold: the question is not exported (no passage endorsed yet, or unanswerable).",
  both: "Not in this gold: the question is not exported (no passage endorsed yet, or unanswerable).",
};

/** One gold's view of the question: its evidence sets, the run's ranked list with hits marked, and the first complete rank. */
export function GoldColumn({ gold, detail }: { gold: Gold; detail: RankDetail | null }) {
  const headingId = `gold-${gold}-heading`;
  return (
    <section className="gold-column" aria-labelledby={headingId} data-testid={`gold-${gold}`}>
      <h2 id={headingId} className="card-title">
        {GOLD_LABEL[gold]} gold
      </h2>
      <p className="hint">{GOLD_HINT[gold]}</p>
      {detail === null ? <p className="muted">{NOT_IN[gold]}</p> : <Detail detail={detail} />}
    </section>
  );
}

function Detail({ detail }: { detail: RankDetail }) {
  const marks = setMarks(detail);
  const [all, setAll] = useState(false);
  const ranked = all ? detail.ranked : detail.ranked.slice(0, SHOWN);
  const completing = new Map<number, string[]>();
  for (const m of marks) if (m.completeAt !== null) completing.set(m.completeAt, [...(completing.get(m.completeAt) ?? []), m.label]);
  return (
    <>
      <p className="first-complete" data-testid="first-complete">
        <strong>{detail.firstCompleteRank === null ? "No complete set" : `First complete set at rank ${detail.firstCompleteRank}`}</strong>
        <span className="muted">R-precision {formatScore(detail.rprec)}</span>
      </p>
      <h3>Evidence sets</h3>
      {marks.length === 0 ? (
        <p className="muted">No evidence set.</p>
      ) : (
        <ul className="evidence-sets">
          {marks.map((m) => (
            <li key={m.index}>
              <strong>{m.label}</strong>{" "}
              <span className="hint">({m.completeAt === null ? "not complete" : `complete at rank ${m.completeAt}`})</span>
              <ul>
                {m.members.map((k) => (
                  <li key={k}>
                    <code>{k}</code>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <h3>The run’s ranking</h3>
      {detail.ranked.length === 0 ? (
        <p className="muted">The run ranked nothing.</p>
      ) : (
        <ol className="ranked-list">
          {ranked.map((r) => (
            <li key={r.position} value={r.position} className={r.sets.length ? "hit" : undefined} data-testid="ranked-item">
              <code>{r.key}</code>
              {r.title && <span className="rank-title"> {r.title}</span>}
              {r.sets.length > 0 && (
                <span className="hit-badges">
                  {r.sets.map((s) => (
                    <span key={s} className="verdict-chip verdict-sufficient">
                      hit · {setLabel(marks, s)}
                    </span>
                  ))}
                </span>
              )}
              {completing.get(r.position)?.map((label) => (
                <span key={label} className="verdict-chip complete-chip">
                  {label} complete
                </span>
              ))}
            </li>
          ))}
        </ol>
      )}
      {detail.ranked.length > SHOWN && (
        <button type="button" className="secondary" onClick={() => setAll(!all)}>
          {all ? `Show the first ${SHOWN}` : `Show all ${detail.ranked.length}`}
        </button>
      )}
    </>
  );
}
