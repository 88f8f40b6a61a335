"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { JudgmentFlag } from "@/lib/campaign/annotate/judgments.contract";
import { passageWords, spanOfWords, wordRangeOfSpan, type Span, type WordRange } from "@/lib/kilt/words";
import type { Task, Verdict } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";
import { myJudgmentKeys, putRevision, type RevisedJudgment } from "@/components/api/my-judgments";
import { newIdempotencyKey } from "./judging-storage";
import { notesBody, NotesFields, type Notes } from "./notes-fields";
import { PassageView } from "./passage-view";

/** A judgment of the annotator's own, opened again: what undo and the history page hand the editor. */
export interface RevisionTarget {
  claim: string;
  question: string;
  passage: Omit<Task["passage"], "wikipediaId">;
  verdict: Verdict;
  unreadable: boolean;
  span: Span | null;
  comment: string | null;
  flags: JudgmentFlag[];
  /** The revision it is at (0: never revised). */
  revision: number;
}

interface Choice {
  verdict: Verdict | null;
  unreadable: boolean;
  span: Span | null;
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}

/** 1, 2, U choose; Enter saves (not on a button or link, which keep their own meaning). */
function useEditorKeys(choose: (c: Partial<Choice>) => void, save: () => void) {
  const latest = useRef({ choose, save });
  useLayoutEffect(() => {
    latest.current = { choose, save };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || isTyping(e.target)) return;
      const { choose, save } = latest.current;
      const act = new Map<string, () => void>([
        ["1", () => choose({ verdict: "sufficient", unreadable: false })],
        ["2", () => choose({ verdict: "insufficient", unreadable: false, span: null })],
        ["u", () => choose({ verdict: "insufficient", unreadable: true, span: null })],
        ["U", () => choose({ verdict: "insufficient", unreadable: true, span: null })],
      ]).get(e.key);
      if (act) {
        e.preventDefault();
        act();
      } else if (e.key === "Enter" && !(e.target instanceof HTMLElement && e.target.closest("a, button, summary"))) {
        e.preventDefault();
        save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** The three verdicts as toggle buttons, and clearing the highlight. */
function VerdictChoices({ choice, choose }: { choice: Choice; choose: (c: Partial<Choice>) => void }) {
  const pressed = (v: Verdict, unreadable: boolean) => choice.verdict === v && choice.unreadable === unreadable;
  return (
    <div className="revision-controls" role="group" aria-label="Verdict">
      <button
        type="button"
        aria-pressed={pressed("sufficient", false)}
        aria-keyshortcuts="1"
        onClick={() => choose({ verdict: "sufficient", unreadable: false })}
      >
        <kbd>1</kbd> Sufficient
      </button>
      <button
        type="button"
        aria-pressed={pressed("insufficient", false)}
        aria-keyshortcuts="2"
        onClick={() => choose({ verdict: "insufficient", unreadable: false, span: null })}
      >
        <kbd>2</kbd> Not sufficient
      </button>
      <button
        type="button"
        aria-pressed={pressed("insufficient", true)}
        aria-keyshortcuts="U"
        onClick={() => choose({ verdict: "insufficient", unreadable: true, span: null })}
      >
        <kbd>U</kbd> Unreadable
      </button>
      {choice.span && (
        <button type="button" className="link-button" onClick={() => choose({ span: null })}>
          Clear highlight
        </button>
      )}
    </div>
  );
}

/**
 * Edits a judgment already stored and saves it as a revision (PUT …/judgment): verdict, highlight
 * (a drag snaps to words, as on the judging screen), comment and flags. A refusal (the passage
 * finished, the annotator paused, the batch closed) is shown as the server words it.
 */
export function RevisionEditor({
  campaignId,
  target,
  onSaved,
  onCancel,
}: {
  campaignId: number;
  target: RevisionTarget;
  onSaved: (j: RevisedJudgment) => void;
  onCancel: () => void;
}) {
  const [choice, setChoice] = useState<Choice>({ verdict: target.verdict, unreadable: target.unreadable, span: target.span });
  const [notes, setNotes] = useState<Notes>({ comment: target.comment ?? "", flags: target.flags });
  const [prompt, setPrompt] = useState<string | null>(null);
  const [started] = useState(() => Date.now());
  const [key] = useState(newIdempotencyKey);
  const words = useMemo(() => passageWords(target.passage.paragraphs), [target.passage.paragraphs]);
  const queryClient = useQueryClient();
  const saving = useMutation({
    mutationFn: () => {
      const { verdict, unreadable, span } = choice;
      const durationMs = Math.min(Math.max(0, Date.now() - started), 24 * 3600 * 1000 - 1);
      return putRevision(target.claim, {
        verdict: verdict!,
        span: verdict === "sufficient" ? span : null,
        unreadable,
        durationMs,
        idempotencyKey: key,
        revision: target.revision,
        ...notesBody(notes),
      });
    },
    onSuccess: (j) => {
      void queryClient.invalidateQueries({ queryKey: myJudgmentKeys.all(campaignId) });
      onSaved(j);
    },
  });
  const choose = (c: Partial<Choice>) => {
    if (saving.isPending) return;
    setPrompt(null);
    setChoice((old) => ({ ...old, ...c }));
  };
  const range = useMemo(() => (choice.span ? wordRangeOfSpan(words, choice.span) : null), [choice.span, words]);
  const select = (range: WordRange) => {
    const span = spanOfWords(target.passage.paragraphs, words, range);
    if (span) choose({ span, verdict: "sufficient", unreadable: false });
  };
  const save = () => {
    if (saving.isPending) return;
    if (choice.verdict === null) return setPrompt("Choose a verdict first.");
    if (choice.verdict === "sufficient" && !choice.span)
      return setPrompt("Highlight the words that answer the question (drag across them).");
    saving.mutate();
  };
  useEditorKeys(choose, save);
  const view: Task = {
    claim: { handle: target.claim, expiresAt: "" },
    query: { id: "", input: target.question },
    passage: { wikipediaId: "", ...target.passage },
    progress: { judgedToday: 0, passageOfQuestion: 1, passagesInQuestion: 1 },
  };
  const error = saving.error;
  return (
    <section className="revision-editor" aria-label="Revise your judgment">
      <p className="question-label">Question</p>
      <p className="revision-question">{target.question}</p>
      <PassageView task={view} words={words} span={choice.span} range={range} onSelect={select} />
      <VerdictChoices choice={choice} choose={choose} />
      <p className="revision-quote">{choice.span ? <q>{choice.span.text}</q> : <span className="muted">No highlight</span>}</p>
      <NotesFields idPrefix={`revise-${target.claim}`} notes={notes} disabled={saving.isPending} onChange={setNotes} />
      <div className="revision-actions">
        <button type="button" onClick={save} disabled={saving.isPending} data-enter-submits>
          {saving.isPending ? "Saving…" : "Save revision"} <kbd>Enter</kbd>
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={saving.isPending}>
          Cancel
        </button>
      </div>
      {prompt && (
        <p className="hint" role="status">
          {prompt}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          Not revised: {error instanceof ApiError ? error.message : "the server could not be reached; try again."}
        </p>
      )}
    </section>
  );
}
