"use client";

import { useEffect, useRef, type RefObject } from "react";
import { TaskBlock } from "@/components/task/task-block";
import { AskExplain } from "./ask-explain";
import { AskPropose } from "./ask-propose";
import type { AskPath } from "./ask-storage";
import { AskStyles } from "./ask-styles";
import type { AskFlow } from "./use-ask";
import type { AskProposal } from "./use-ask-proposal";

interface Props {
  flow: AskFlow;
  proposal: AskProposal;
  questionRef: RefObject<HTMLHeadingElement | null>;
}

/**
 * Asked before the next passage: none of this question's passages held enough evidence for the
 * annotator, so they propose another passage (search, open a page, pick paragraphs, highlight) or
 * explain why none does. Shown in place of the passage, inside the judging page's header and
 * instructions; its draft survives a reload (ask-storage.ts).
 */
export function AskScreen({ flow, proposal, questionRef }: Props) {
  const { ask, draft, update } = flow;
  const focused = useRef<string | null>(null);
  useEffect(() => {
    // A new question asked: start at the top, focus on the question (screen readers hear where they are).
    if (!ask || focused.current === ask.queryId) return;
    focused.current = ask.queryId;
    window.scrollTo({ top: 0 });
    questionRef.current?.focus({ preventScroll: true });
  }, [ask, questionRef]);
  if (!ask || !draft) return null;
  const choose = (path: AskPath) => update({ path });
  return (
    <section className="ask" aria-labelledby="ask-question">
      <AskStyles />
      <TaskBlock kind={ask.kind} input={ask.input} answers={ask.answers} headingRef={questionRef} headingId="ask-question" />
      <p className="ask-lead">
        None of this question&rsquo;s passages held enough evidence. Propose another passage or explain why none does.
      </p>
      <div className="ask-paths" role="group" aria-label="Your answer">
        <button type="button" aria-pressed={draft.path === "propose"} onClick={() => choose("propose")}>
          Propose a passage
        </button>
        <button type="button" aria-pressed={draft.path === "explain"} onClick={() => choose("explain")}>
          Explain why none does
        </button>
      </div>
      {draft.path === "propose" && <AskPropose flow={flow} proposal={proposal} />}
      {draft.path === "explain" && <AskExplain flow={flow} />}
    </section>
  );
}
