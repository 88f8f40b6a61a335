"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { AnnotatorCampaignView } from "@/lib/campaign/annotate/annotator-view";
import { moveHighlight, passageWords, spanOfWords, wordRangeOfSpan, type HighlightMove, type WordRange } from "@/lib/kilt/words";
import { InstructionsPanel } from "./instructions-panel";
import {
  ApiError,
  dropDraft,
  fetchTask,
  loadDraft,
  newDraft,
  otherDrafts,
  postJudgment,
  questionNumber,
  saveDraft,
  sweepOldDrafts,
  taskKey,
  useRenewal,
  type Draft,
  type JudgmentBody,
  type TaskAnswer,
} from "./judging-data";
import { JudgingStyles } from "./judging-styles";
import { PassageView } from "./passage-view";
import { NotOnCampaignScreen, NothingLeftScreen, PausedScreen } from "./status-screens";
import { VerdictBar, type BarStatus } from "./verdict-bar";

const INSTRUCTIONS_ID = "judging-instructions";

const taskQueryOptions = {
  staleTime: Infinity,
  gcTime: 5 * 60_000,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
  retry: (failures: number, error: Error) => error instanceof ApiError && error.retryable && failures < 4,
  retryDelay: (attempt: number) => Math.min(500 * 2 ** attempt, 8_000),
} as const;

/** A judgment acknowledged in this session: progress counts of tasks fetched before it are one short. */
interface Saved {
  queryId: string;
  sentAt: number;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, [contenteditable='true']") !== null;
}

/**
 * The annotator's judging screen: one passage at a time, the next one already fetched, every
 * judgment kept as a draft until the server acknowledges it.
 */
export function JudgingScreen({ campaign }: { campaign: AnnotatorCampaignView }) {
  const campaignId = campaign.id;
  const qc = useQueryClient();

  // The task on screen is "the task after claim `after`" (null: the live claim, what a reload resumes).
  // The prefetch is "the task after the one on screen": once that is judged, it becomes the task on
  // screen under the same query key, so it shows at once.
  const [after, setAfter] = useState<number | null>(null);
  const current = useQuery<TaskAnswer, Error>({ queryKey: taskKey(campaignId, after), queryFn: () => fetchTask(campaignId, after), ...taskQueryOptions });
  const answer = current.data;
  const task = answer?.kind === "task" ? answer.task : null;
  const claimId = task?.claim.id ?? null;
  const prefetch = useQuery<TaskAnswer, Error>({
    queryKey: claimId === null ? ["annotate", campaignId, "idle"] : taskKey(campaignId, claimId),
    queryFn: () => fetchTask(campaignId, claimId),
    enabled: claimId !== null,
    ...taskQueryOptions,
  });
  const prefetched = prefetch.data?.kind === "task" ? prefetch.data : null;

  // Leaving the page forgets the cached tasks: coming back asks the server for the live claim.
  useEffect(() => () => qc.removeQueries({ queryKey: ["annotate", campaignId] }), [qc, campaignId]);

  const [paused, setPaused] = useState(false);
  const [status, setStatus] = useState<BarStatus | null>(null);
  const [instructionsOpen, setInstructionsOpen] = useState(false);
  const [question, setQuestion] = useState<number | null>(null);
  const saves = useRef<Saved[]>([]);
  const questionRef = useRef<HTMLHeadingElement>(null);

  // The draft of the claim on screen: restored from localStorage (a reload), or begun now.
  const [draftState, setDraftState] = useState<Draft | null>(null);
  if (task && draftState?.claimId !== task.claim.id) {
    const stored = loadDraft(campaignId, task.claim.id);
    // The server still holds this claim live, so no judgment of it was stored: a submission cut off
    // by the reload is not frozen any more (it keeps its idempotency key).
    setDraftState(stored ? { ...stored, pending: null } : newDraft(campaignId, task.claim.id));
  }
  const draft = task && draftState?.claimId === task.claim.id ? draftState : null;
  useEffect(() => {
    if (draftState) saveDraft(draftState);
  }, [draftState]);

  const words = useMemo(() => (task ? passageWords(task.passage.paragraphs) : []), [task]);
  const range = useMemo(() => (draft?.span ? wordRangeOfSpan(words, draft.span) : null), [draft?.span, words]);
  const span = useMemo(() => (task && range ? spanOfWords(task.passage.paragraphs, words, range) : null), [task, words, range]);

  const renewCurrentGone = useCallback(() => {
    setStatus({ tone: "warn", text: "Your hold on this passage has lapsed. Submit now: it still counts unless someone else has taken it." });
  }, []);
  const renewNextGone = useCallback(() => {
    // The prefetched passage lapsed while this one was on screen: fetch another.
    void qc.resetQueries({ queryKey: taskKey(campaignId, claimId), exact: true });
  }, [qc, campaignId, claimId]);
  useRenewal(claimId, answer?.kind === "task" ? answer.leaseMs : null, renewCurrentGone);
  useRenewal(prefetched?.task.claim.id ?? null, prefetched?.leaseMs ?? null, renewNextGone);

  // A new passage on screen: number its question, start at the top, move focus to the question.
  useEffect(() => {
    if (!task) return;
    setQuestion(questionNumber(campaignId, task.query.id));
    window.scrollTo({ top: 0 });
    questionRef.current?.focus({ preventScroll: true });
  }, [campaignId, task]);

  // First visit to a campaign with instructions: show them once.
  useEffect(() => {
    sweepOldDrafts();
    const key = `kps:instructions-seen:${campaignId}`;
    try {
      if (campaign.instructions.trim() && !localStorage.getItem(key)) {
        setInstructionsOpen(true);
        localStorage.setItem(key, "1");
      }
    } catch {
      // storage disabled
    }
  }, [campaignId, campaign.instructions]);

  const saving = useMutation<{ status: number }, Error, { claimId: number; body: JudgmentBody; queryId: string; sentAt: number }>({
    mutationFn: (v) => postJudgment(v.claimId, v.body),
    // Network failures and 5xx: the same body with the same key, so the server stores it once.
    retry: (failures, error) => error instanceof ApiError && error.retryable && failures < 4,
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8_000),
  });

  // Judgments a reload cut off (their claims are no longer live): send them again, same key.
  const flushed = useRef(false);
  useEffect(() => {
    if (flushed.current || claimId === null) return;
    flushed.current = true;
    for (const d of otherDrafts(campaignId, [claimId])) {
      if (!d.pending) continue;
      postJudgment(d.claimId, d.pending).then(
        () => dropDraft(campaignId, d.claimId),
        (error: unknown) => {
          if (error instanceof ApiError && !error.retryable) dropDraft(campaignId, d.claimId);
        },
      );
    }
  }, [campaignId, claimId]);

  /** Shows the next passage: the prefetched one at once, else a fresh fetch. */
  const advance = useCallback(
    (doneClaimId: number) => {
      const key = taskKey(campaignId, doneClaimId);
      const state = qc.getQueryState<TaskAnswer>(key);
      // A prefetch that found nothing (204) or failed may be out of date now: ask again.
      if (state && state.fetchStatus !== "fetching" && state.data?.kind !== "task") qc.removeQueries({ queryKey: key, exact: true });
      const previous = taskKey(campaignId, after);
      setAfter(doneClaimId);
      setTimeout(() => qc.removeQueries({ queryKey: previous, exact: true }), 0);
    },
    [qc, campaignId, after],
  );

  const update = useCallback(
    (change: (d: Draft) => Draft) => {
      setDraftState((d) => {
        if (!d || d.pending) return d; // frozen while a submission is on its way
        return change(d);
      });
    },
    [],
  );

  const frozen = saving.isPending || Boolean(draft?.pending);

  const setHighlight = useCallback(
    (r: WordRange | null) => {
      if (!task || frozen) return;
      const s = r ? spanOfWords(task.passage.paragraphs, words, r) : null;
      update((d) => {
        const location = s ? { startParagraphId: s.startParagraphId, startCharacter: s.startCharacter, endParagraphId: s.endParagraphId, endCharacter: s.endCharacter } : null;
        // A highlight is evidence: it does not go with "not sufficient".
        const verdict = location && d.verdict === "insufficient" ? null : d.verdict;
        return { ...d, span: location, verdict, unreadable: verdict === null ? false : d.unreadable };
      });
      if (s && draft?.verdict === "insufficient") setStatus({ tone: "info", text: "Highlight made: press 1 if it shows the answer." });
      else if (s && status?.tone === "warn") setStatus(null);
    },
    [task, frozen, words, update, draft?.verdict, status?.tone],
  );

  const chooseSufficient = useCallback(() => {
    if (!draft || frozen) return;
    update((d) => ({ ...d, verdict: "sufficient", unreadable: false }));
    setStatus(
      draft.span ? null : { tone: "warn", text: "Highlight the words that answer the question: drag across them, or press Shift+→ to start at the first word." },
    );
  }, [draft, frozen, update]);

  const chooseInsufficient = useCallback(
    (unreadable: boolean) => {
      if (!draft || frozen) return;
      update((d) => ({ ...d, verdict: "insufficient", unreadable, span: null }));
      setStatus(null);
    },
    [draft, frozen, update],
  );

  const submit = useCallback(() => {
    if (!task || !draft || saving.isPending) return;
    let body = draft.pending;
    if (!body) {
      if (draft.verdict === null) {
        setStatus({ tone: "warn", text: "Choose first: 1 Sufficient, 2 Not sufficient or U Unreadable." });
        return;
      }
      if (draft.verdict === "sufficient" && !span) {
        setStatus({ tone: "warn", text: "Highlight the words that answer the question before submitting (drag, or Shift+→)." });
        return;
      }
      body = {
        verdict: draft.verdict,
        span: draft.verdict === "sufficient" ? span : null,
        unreadable: draft.verdict === "insufficient" && draft.unreadable,
        durationMs: Math.min(Math.max(0, Math.round(Date.now() - draft.startedAt)), 24 * 3600 * 1000 - 1),
        idempotencyKey: draft.idempotencyKey,
      };
      const frozenDraft: Draft = { ...draft, pending: body };
      setDraftState(frozenDraft);
      saveDraft(frozenDraft); // before the request leaves: a reload mid-flight still has it
    }
    const claim = task.claim.id;
    const vars = { claimId: claim, body, queryId: task.query.id, sentAt: Date.now() };
    setStatus({ tone: "busy", text: "Saving…" });
    saving.mutate(vars, {
      onSuccess: () => {
        saves.current.push({ queryId: vars.queryId, sentAt: vars.sentAt });
        dropDraft(campaignId, claim);
        setStatus({ tone: "ok", text: "Saved" });
        advance(claim);
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) {
          setStatus({ tone: "error", text: `Not saved: ${error.message}` });
          return;
        }
        if (error.paused) {
          setPaused(true);
          return;
        }
        if (error.status === 409 || error.status === 410 || error.status === 404) {
          // 409: already judged (stored before); 410: the hold lapsed and the slot went to someone else.
          dropDraft(campaignId, claim);
          if (error.status === 409) {
            saves.current.push({ queryId: vars.queryId, sentAt: vars.sentAt });
            setStatus({ tone: "ok", text: "Saved (it was already stored)" });
          } else {
            setStatus({ tone: "warn", text: "Your hold on that passage expired and it went to another annotator, so that judgment was not stored. Here is the next passage." });
          }
          advance(claim);
          return;
        }
        if (error.retryable) {
          setStatus({ tone: "error", text: "Not saved — the server cannot be reached. Your judgment is kept here: press Enter to try again." });
          return;
        }
        // Refused as it is (422 and the like): nothing was stored, so the draft may change (same key).
        setDraftState((d) => (d && d.claimId === claim ? { ...d, pending: null } : d));
        setStatus({ tone: "error", text: `Not saved: ${error.message}` });
      },
    });
  }, [task, draft, span, saving, campaignId, advance]);

  // Retries show in the bar.
  const barStatus: BarStatus | null =
    saving.isPending && saving.failureCount > 0
      ? { tone: "error", text: `Not saved — retrying (attempt ${saving.failureCount + 1})…` }
      : status;

  const moveBy = useCallback(
    (move: HighlightMove) => {
      if (!task || frozen) return;
      const next = moveHighlight(range, move, words.length);
      if (!next) return;
      setHighlight(next);
      requestAnimationFrame(() => {
        const marks = document.querySelectorAll(".passage-body mark");
        const edge = move === "extend" || move === "shrink" ? marks[marks.length - 1] : marks[0];
        edge?.scrollIntoView({ block: "nearest" });
      });
    },
    [task, frozen, range, words.length, setHighlight],
  );

  // One keydown listener; it reads the latest state through a ref.
  const onKey = useRef<(e: KeyboardEvent) => void>(() => {});
  useLayoutEffect(() => {
    onKey.current = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (e.key === "?") {
        e.preventDefault();
        setInstructionsOpen((o) => !o);
        return;
      }
      if (e.key === "Escape") {
        if (target?.closest(`#${INSTRUCTIONS_ID}`) || (!range && instructionsOpen)) {
          setInstructionsOpen(false);
          return;
        }
        if (range) {
          e.preventDefault();
          setHighlight(null);
        }
        return;
      }
      if (!task) return;
      if (e.key === "Enter") {
        // Enter on a link or another button keeps its own meaning; on a verdict button it submits.
        if (target?.closest("a, button, summary") && !target.closest("[data-enter-submits]")) return;
        e.preventDefault();
        submit();
        return;
      }
      if (e.altKey && !e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        e.preventDefault(); // Alt+← is the browser's Back
        moveBy(e.key === "ArrowLeft" ? "start-left" : "start-right");
        return;
      }
      if (e.shiftKey && !e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
        e.preventDefault();
        moveBy(e.key === "ArrowRight" ? "extend" : "shrink");
        return;
      }
      if (e.altKey) return;
      switch (e.key) {
        case "1":
          e.preventDefault();
          chooseSufficient();
          break;
        case "2":
          e.preventDefault();
          chooseInsufficient(false);
          break;
        case "u":
        case "U":
          e.preventDefault();
          chooseInsufficient(true);
          break;
        case "[":
          e.preventDefault();
          moveBy("start-left");
          break;
        case "]":
          e.preventDefault();
          moveBy("start-right");
          break;
      }
    };
  });
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onKey.current(e);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  // ------------------------------------------------------------------------------------------

  const error = current.error;
  if (paused || (error instanceof ApiError && error.paused)) return <PausedScreen />;
  if (error instanceof ApiError && error.status === 404) return <NotOnCampaignScreen message={error.message} />;

  // Counts of tasks fetched before later saves are behind by those saves.
  const fetchedAt = answer?.kind === "task" ? answer.receivedAt : 0;
  const savedSince = saves.current.filter((s) => s.sentAt > fetchedAt);
  const judgedToday = task ? task.progress.judgedToday + savedSince.length : null;
  if (answer?.kind === "done") return <NothingLeftScreen judgedThisVisit={saves.current.length} />;
  const passageNo = task
    ? Math.min(task.progress.passageOfQuestion + savedSince.filter((s) => s.queryId === task.query.id).length, task.progress.passagesInQuestion)
    : null;

  return (
    <div className={`judging${instructionsOpen ? " with-instructions" : ""}`}>
      <JudgingStyles />
      <header className="judging-top">
        <span className="campaign-name">{campaign.name}</span>
        {task && (
          <span className="progress">
            {question !== null ? `Question ${question} · ` : ""}passage {passageNo} of {task.progress.passagesInQuestion}
          </span>
        )}
        {judgedToday !== null && <span className="judged">{judgedToday} judged today</span>}
        <span className="spacer" />
        <button
          type="button"
          className="link-button"
          aria-expanded={instructionsOpen}
          aria-controls={INSTRUCTIONS_ID}
          aria-keyshortcuts="?"
          onClick={() => setInstructionsOpen((o) => !o)}
        >
          Instructions <kbd>?</kbd>
        </button>
        <Link href="/annotate" className="back-link">
          Your queue
        </Link>
      </header>

      <div className="judging-body">
        <main className="judging-main">
          {task && draft ? (
            <>
              <section className="question-block" aria-label="Question">
                <p className="question-label">Question</p>
                <h1 className="question" ref={questionRef} tabIndex={-1}>
                  {task.query.input}
                </h1>
                {task.query.answers && task.query.answers.length > 0 && (
                  <p className="answers">
                    <span className="answers-label">Answers:</span>{" "}
                    {task.query.answers.map((a, i) => (
                      <span key={i} className="answer">
                        {a}
                      </span>
                    ))}
                  </p>
                )}
              </section>
              <PassageView task={task} words={words} span={draft.span} onSelect={setHighlight} />
            </>
          ) : error ? (
            <div className="card" role="alert">
              <h1>The next passage could not be loaded</h1>
              <p>{error.message}</p>
              <button type="button" onClick={() => void current.refetch()}>
                Try again
              </button>
            </div>
          ) : (
            <p className="loading" aria-live="polite">
              Finding your next passage…
            </p>
          )}
        </main>
        {instructionsOpen && <InstructionsPanel id={INSTRUCTIONS_ID} instructions={campaign.instructions} onClose={() => setInstructionsOpen(false)} />}
      </div>

      {task && draft && (
        <VerdictBar
          verdict={draft.pending?.verdict ?? draft.verdict}
          unreadable={draft.pending?.unreadable ?? draft.unreadable}
          quote={draft.pending ? (draft.pending.span?.text ?? null) : (span?.text ?? null)}
          status={barStatus}
          busy={frozen}
          onSufficient={chooseSufficient}
          onInsufficient={() => chooseInsufficient(false)}
          onUnreadable={() => chooseInsufficient(true)}
          onSubmit={submit}
          onClearHighlight={() => setHighlight(null)}
        />
      )}
    </div>
  );
}
