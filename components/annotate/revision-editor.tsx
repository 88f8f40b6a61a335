"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { JudgmentFlag } from "@/lib/campaign/annotate/judgments.contract";
import { passageWords, spanOfWords, wordRangeOfSpan, type Span, type WordRange } from "@/lib/kilt/words";
import type { Task, Verdict } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";
import { myJudgmentKeys, putRevision, type RevisedJudgment } from "@/components/api/my-judgments";
import { durationSince, newIdempotencyKey } from "./judging-storage";
import { notesBody, NotesFields, type Notes } from "./notes-fields";
import { PassageView } from "./passage-view";
import { chooseLabelPrompt, highlightPrompt } from "./pointer-texts";
import { TaskBlock } from "@/components/task/task-block";
import { taskVerdictProblem, VERDICT_QUESTION } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";

/** A judgment of the annotator's own, opened again: what undo and the history page hand the editor. */
export interface RevisionTarget {
  claim: string;
  question: string;
  /** The task of its batch: how the line shows, what the verdict asks (fact checking: a label). */
  kind: TaskKind;
  label: FactLabel | null;
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
  label: FactLabel | null;
}

type ChoiceButton = { key: string; label: string; className: string; change: Partial<Choice> & { verdict: Verdict; unreadable: boolean } };

const NOT_SUFFICIENT: ChoiceButton[] = [
  {
    key: "2",
    label: "Not sufficient",
    className: "choice-no",
    change: { verdict: "insufficient", unreadable: false, span: null, label: null },
  },
  {
    key: "U",
    label: "Unreadable",
    className: "choice-unreadable",
    change: { verdict: "insufficient", unreadable: true, span: null, label: null },
  },
];

/** The verdicts of a task: their key (also in lower case, the judging screen's defaults), their button's label and what they set. */
function choicesOf(kind: TaskKind): ChoiceButton[] {
  if (kind === "fact-checking")
    return [
      { key: "3", label: "Supports", className: "choice-yes", change: { verdict: "sufficient", unreadable: false, label: "SUPPORTS" } },
      { key: "4", label: "Refutes", className: "choice-yes", change: { verdict: "sufficient", unreadable: false, label: "REFUTES" } },
      ...NOT_SUFFICIENT,
    ];
  return [
    { key: "1", label: "Sufficient", className: "choice-yes", change: { verdict: "sufficient", unreadable: false } },
    ...NOT_SUFFICIENT,
  ];
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest("input, textarea, select") !== null);
}

/** 1, 2, U (fact checking: 3, 4, 2, U) choose; Enter saves (not on a button or link, which keep their own meaning). */
function useEditorKeys(kind: TaskKind, choose: (c: Partial<Choice>) => void, save: () => void) {
  const latest = useRef({ choose, save });
  useLayoutEffect(() => {
    latest.current = { choose, save };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || isTyping(e.target)) return;
      const { choose, save } = latest.current;
      const choice = choicesOf(kind).find((c) => c.key === e.key || c.key.toLowerCase() === e.key);
      if (choice) {
        e.preventDefault();
        choose(choice.change);
      } else if (e.key === "Enter" && !(e.target instanceof HTMLElement && e.target.closest("a, button, summary"))) {
        e.preventDefault();
        save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [kind]);
}

/** The three verdicts as toggle buttons, and clearing the highlight. */
function VerdictChoices({ kind, choice, choose }: { kind: TaskKind; choice: Choice; choose: (c: Partial<Choice>) => void }) {
  const labelOf = (c: ChoiceButton) => c.change.label ?? choice.label;
  return (
    <div className="revision-controls" role="group" aria-label={VERDICT_QUESTION[kind]}>
      {choicesOf(kind).map((c) => (
        <button
          key={c.key}
          type="button"
          className={`choice ${c.className}`}
          aria-pressed={choice.verdict === c.change.verdict && choice.unreadable === c.change.unreadable && labelOf(c) === choice.label}
          aria-keyshortcuts={c.key}
          onClick={() => choose(c.change)}
        >
          <kbd>{c.key}</kbd>
          {` ${c.label}`}
        </button>
      ))}
      {choice.span && (
        <button type="button" className="link-button" onClick={() => choose({ span: null })}>
          Clear highlight
        </button>
      )}
    </div>
  );
}

/** Saving the revision (PUT …/judgment): once, with one idempotency key; the annotator's judgments are fetched again after. */
function useRevisionSave(campaignId: number, target: RevisionTarget, choice: Choice, notes: Notes, onSaved: (j: RevisedJudgment) => void) {
  const [started] = useState(() => Date.now());
  const [key] = useState(newIdempotencyKey);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const { verdict, unreadable, span, label } = choice;
      return putRevision(target.claim, {
        verdict: verdict!,
        ...(verdict === "sufficient" && label ? { label } : {}),
        span: verdict === "sufficient" ? span : null,
        unreadable,
        durationMs: durationSince(started),
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
}

export interface RevisionEditorProps {
  campaignId: number;
  target: RevisionTarget;
  /** The task's heading level: 2 under the undo screen's title, 3 inside a history card. */
  taskLevel?: 2 | 3;
  onSaved: (j: RevisedJudgment) => void;
  onCancel: () => void;
}

/**
 * Edits a judgment already stored and saves it as a revision (PUT …/judgment): verdict, highlight
 * (a drag snaps to words, as on the judging screen), comment and flags. A refusal (the passage
 * finished, the annotator paused, the batch closed) is shown as the server words it.
 */
export function RevisionEditor({ campaignId, target, taskLevel = 2, onSaved, onCancel }: RevisionEditorProps) {
  const [choice, setChoice] = useState<Choice>({
    verdict: target.verdict,
    unreadable: target.unreadable,
    span: target.span,
    label: target.label,
  });
  const [notes, setNotes] = useState<Notes>({ comment: target.comment ?? "", flags: target.flags });
  const [prompt, setPrompt] = useState<string | null>(null);
  const words = useMemo(() => passageWords(target.passage.paragraphs), [target.passage.paragraphs]);
  const saving = useRevisionSave(campaignId, target, choice, notes, onSaved);
  const choose = (c: Partial<Choice>) => {
    if (saving.isPending) return;
    setPrompt(null);
    setChoice((old) => ({ ...old, ...c }));
  };
  const range = useMemo(() => (choice.span ? wordRangeOfSpan(words, choice.span) : null), [choice.span, words]);
  const select = (range: WordRange) => {
    const span = spanOfWords(target.passage.paragraphs, words, range);
    if (span) choose({ span, verdict: "sufficient", unreadable: false, label: choice.verdict === "sufficient" ? choice.label : null });
  };
  const save = () => {
    if (saving.isPending) return;
    if (choice.verdict === null) return setPrompt("Choose a verdict first.");
    const problem = taskVerdictProblem(target.kind, { ...choice, verdict: choice.verdict });
    if (problem) return setPrompt(problem.field === "label" ? chooseLabelPrompt() : `${highlightPrompt(target.kind)}.`);
    saving.mutate();
  };
  useEditorKeys(target.kind, choose, save);
  const view: Task = {
    claim: { handle: target.claim, expiresAt: "" },
    query: { id: "", input: target.question, kind: target.kind },
    passage: { wikipediaId: "", ...target.passage },
    progress: { judgedToday: 0, passageOfQuestion: 1, passagesInQuestion: 1 },
  };
  const error = saving.error;
  return (
    <section className="revision-editor" aria-label="Revise your judgment">
      <TaskBlock kind={target.kind} input={target.question} level={taskLevel} />
      <PassageView task={view} words={words} span={choice.span} range={range} onSelect={select} />
      <VerdictChoices kind={target.kind} choice={choice} choose={choose} />
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
