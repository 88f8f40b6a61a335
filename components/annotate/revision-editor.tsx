"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState, type RefObject } from "react";
import type { JudgmentFlag } from "@/lib/campaign/annotate/judgments.contract";
import { passageSentences } from "@/lib/kilt/sentences";
import { passageWords, spanOfWords, wordRangeOfSpan, type PassageWord, type Span, type WordRange } from "@/lib/kilt/words";
import type { Task, Verdict } from "@/components/api/annotate";
import { ApiError } from "@/components/api/client";
import { myJudgmentKeys, putRevision, type RevisedJudgment } from "@/components/api/my-judgments";
import { durationSince, newIdempotencyKey } from "./judging-storage";
import { notesBody, NotesFields, type Notes } from "./notes-fields";
import { PassageView } from "./passage-view";
import { chooseLabelPrompt, highlightPrompt, partialPrompt } from "./pointer-texts";
import { useEditorKeys, VerdictChoices, type Choice, type ChoiceOptions } from "./revision-choices";
import { useRevisionHighlightKeys } from "./revision-keys";
import { memberWithoutHighlight, setHighlightPrompt } from "./set-draft";
import { SetStyles } from "./set-view";
import { TaskBlock } from "@/components/task/task-block";
import { needsSpan, taskVerdictProblem } from "@/lib/campaign/annotate/task-verdicts.contract";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";

type ShownPassage = Omit<Task["passage"], "wikipediaId">;

/** A judgment of the annotator's own, opened again: what undo and the history page hand the editor. */
export interface RevisionTarget {
  claim: string;
  question: string;
  /** The task of its batch: how the line shows, what the verdict asks (fact checking: a label). */
  kind: TaskKind;
  label: FactLabel | null;
  passage: ShownPassage;
  /** An evidence set: every member in page order (the first is `passage`); absent for a single passage. */
  members?: ShownPassage[];
  verdict: Verdict;
  unreadable: boolean;
  span: Span | null;
  /** An evidence set's sufficient verdict: one highlight per member. */
  spans?: Span[] | null;
  /** "Part of the evidence" is offered (the batch asks for it, or the judgment is partial already). */
  partialEvidence?: boolean;
  comment: string | null;
  flags: JudgmentFlag[];
  /** The revision it is at (0: never revised). */
  revision: number;
}

/** The body's verdict and highlights: a set's `spans` when every member has one, a single passage's `span` with sufficient or partial. */
function highlightsBody({ verdict, span, spans }: Choice, set: boolean): { span: Span | null; spans?: Span[] } {
  if (set)
    return verdict === "sufficient" && spans && spans.length > 0 && spans.every(Boolean)
      ? { span: null, spans: spans as Span[] }
      : { span: null };
  return { span: verdict === "sufficient" || verdict === "partial" ? span : null };
}

/** Saving the revision (PUT …/judgment): once, with one idempotency key; the annotator's judgments are fetched again after. */
function useRevisionSave(campaignId: number, target: RevisionTarget, choice: Choice, notes: Notes, onSaved: (j: RevisedJudgment) => void) {
  const [started] = useState(() => Date.now());
  const [key] = useState(newIdempotencyKey);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const { verdict, unreadable, label } = choice;
      return putRevision(target.claim, {
        verdict: verdict!,
        ...(verdict === "sufficient" && label ? { label } : {}),
        ...highlightsBody(choice, Boolean(target.members)),
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

/** What the choice still lacks before saving (a set: the member without a highlight), or null. */
function missingOf(target: RevisionTarget, choice: Choice): string | null {
  if (choice.verdict === null) return "Choose a verdict first.";
  if (choice.verdict === "partial" && !choice.span) return partialPrompt(target.kind);
  if (target.members && choice.verdict === "sufficient" && needsSpan(target.kind)) {
    const missing = memberWithoutHighlight(target.members.map((_, i) => choice.spans?.[i] ?? null));
    if (missing >= 0) return setHighlightPrompt(target.members, missing);
  }
  const span = target.members ? (choice.spans?.[0] ?? null) : choice.span;
  const problem = taskVerdictProblem(target.kind, { ...choice, span, verdict: choice.verdict });
  if (problem) return problem.field === "label" ? chooseLabelPrompt() : `${highlightPrompt(target.kind)}.`;
  return null;
}

interface PassagesProps {
  target: RevisionTarget;
  choice: Choice;
  passages: ShownPassage[];
  words: PassageWord[][];
  /** The member the keys act on (an evidence set). */
  active: number;
  select: (range: WordRange, i: number) => void;
}

/** The passage (a set: each member, under "Passage 1 of 2", the one in focus outlined) with its highlight; a drag or a tap highlights, snapped to words. */
function RevisionPassages({ target, choice, passages, words, active, select }: PassagesProps) {
  const set = Boolean(target.members);
  const view: Task = {
    claim: { handle: target.claim, expiresAt: "" },
    query: { id: "", input: target.question, kind: target.kind },
    passage: { wikipediaId: "", ...target.passage },
    progress: { judgedToday: 0, passageOfQuestion: 1, passagesInQuestion: 1 },
  };
  return passages.map((p, i) => {
    const span = set ? (choice.spans?.[i] ?? null) : choice.span;
    const range = span ? wordRangeOfSpan(words[i]!, span) : null;
    const member = set
      ? { passage: { wikipediaId: "", ...p }, index: i, heading: `Passage ${i + 1} of ${passages.length}`, active: i === active }
      : undefined;
    return <PassageView key={i} task={view} words={words[i]!} span={span} range={range} onSelect={(r) => select(r, i)} member={member} />;
  });
}

/**
 * The highlight's keys (revision-keys.ts) on the passage in focus, and a drag's or a tap's in any
 * passage, which then comes into focus: either sets that passage's highlight with the verdict a
 * highlight gives (sufficient, or part of the evidence when that is the verdict).
 */
function useRevisionHighlight(
  target: RevisionTarget,
  choice: Choice,
  choose: (c: Partial<Choice>) => void,
  announce: (text: string) => void,
  section: RefObject<HTMLElement | null>,
) {
  const passages = useMemo(() => target.members ?? [target.passage], [target.members, target.passage]);
  const words = useMemo(() => passages.map((p) => passageWords(p.paragraphs)), [passages]);
  const set = Boolean(target.members);
  const [active, setActive] = useState(0);
  const select = (range: WordRange, i: number) => {
    const span = spanOfWords(passages[i]!.paragraphs, words[i]!, range);
    if (!span) return;
    setActive(i);
    const verdict = choice.verdict === "partial" ? "partial" : "sufficient";
    const label = choice.verdict === "sufficient" ? choice.label : null;
    if (!set) return choose({ span, verdict, unreadable: false, label });
    const spans = passages.map((_, j) => (j === i ? span : (choice.spans?.[j] ?? null)));
    choose({ spans, verdict: "sufficient", unreadable: false, label });
  };
  const span = set ? (choice.spans?.[active] ?? null) : choice.span;
  const activeWords = words[active]!;
  const paragraphs = passages[active]!.paragraphs;
  const sentences = useMemo(() => passageSentences(paragraphs, activeWords), [paragraphs, activeWords]);
  const scrollTo = (i: number, selector: string) =>
    requestAnimationFrame(() =>
      section.current?.querySelector(`.passage[data-member="${i}"] ${selector}`)?.scrollIntoView({ block: "nearest" }),
    );
  useRevisionHighlightKeys({
    range: span ? wordRangeOfSpan(activeWords, span) : null,
    words: activeWords.length,
    sentences,
    highlight: (range) => {
      select(range, active);
      scrollTo(active, ".passage-body mark");
    },
    chooseMember: set
      ? (delta) => {
          const to = active + delta;
          if (to < 0 || to >= passages.length) return;
          setActive(to);
          announce(`Passage ${to + 1} of ${passages.length}.`);
          scrollTo(to, "");
        }
      : undefined,
  });
  return { passages, words, active, select };
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
 * (a drag snaps to words, as on the judging screen; an evidence set: one per member), comment and
 * flags. A refusal (the passage finished, the annotator paused, the batch closed) is shown as the
 * server words it.
 */
export function RevisionEditor({ campaignId, target, taskLevel = 2, onSaved, onCancel }: RevisionEditorProps) {
  const [choice, setChoice] = useState<Choice>({
    verdict: target.verdict,
    unreadable: target.unreadable,
    span: target.span,
    spans: target.members ? target.members.map((_, i) => target.spans?.[i] ?? null) : null,
    label: target.label,
  });
  const [notes, setNotes] = useState<Notes>({ comment: target.comment ?? "", flags: target.flags });
  const [prompt, setPrompt] = useState<string | null>(null);
  const saving = useRevisionSave(campaignId, target, choice, notes, onSaved);
  const options: ChoiceOptions = { set: Boolean(target.members), partial: Boolean(target.partialEvidence) || target.verdict === "partial" };
  const choose = (c: Partial<Choice>) => {
    if (saving.isPending) return;
    setPrompt(null);
    // "Clear" and the verdicts without a highlight empty a set's highlights (`spans: []`).
    setChoice((old) => ({
      ...old,
      ...c,
      spans: c.spans && c.spans.length === 0 ? (old.spans ?? []).map(() => null) : (c.spans ?? old.spans),
    }));
  };
  const save = () => {
    if (saving.isPending) return;
    const missing = missingOf(target, choice);
    if (missing) return setPrompt(missing);
    saving.mutate();
  };
  useEditorKeys(target.kind, options, choose, save);
  const section = useRef<HTMLElement>(null);
  const highlight = useRevisionHighlight(target, choice, choose, setPrompt, section);
  const error = saving.error;
  const quotes = (target.members ? (choice.spans ?? []) : [choice.span]).filter((s): s is Span => s !== null);
  return (
    <section className="revision-editor" aria-label="Revise your judgment" ref={section}>
      <TaskBlock kind={target.kind} input={target.question} level={taskLevel} />
      {target.members && <SetStyles />}
      <RevisionPassages target={target} choice={choice} {...highlight} />
      <p className="hint revision-keys">
        <kbd>Shift</kbd>+<kbd>→</kbd> / <kbd>←</kbd> grow or shrink the highlight, <kbd>Alt</kbd>+<kbd>←</kbd> / <kbd>→</kbd> move its start
        {target.members ? (
          <>
            ; <kbd>N</kbd> / <kbd>B</kbd> the next or previous passage
          </>
        ) : null}
        .
      </p>
      <VerdictChoices kind={target.kind} options={options} choice={choice} choose={choose} />
      <p className="revision-quote">
        {quotes.length > 0 ? quotes.map((s, i) => <q key={i}>{s.text}</q>) : <span className="muted">No highlight</span>}
      </p>
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
