/**
 * The coordinator's review of a campaign: the dashboard, the questions and the decisions on passages
 * (adjudication), one annotator's standing and detail, suspect decoys, warnings, the crowd workers'
 * payment report.
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { adjudicationListQuerySchema } from "@/lib/campaign/quality/adjudication";
import { suspectDecoysQuerySchema } from "@/lib/campaign/quality/suspect-decoys";
import { annotatorJudgmentsQuerySchema } from "@/lib/campaign/report/annotator-detail";
import { questionListQuerySchema } from "@/lib/campaign/report/question-list-options";
import { workerListQuerySchema } from "@/lib/crowd/workers-report.contract";

export const REVIEW_ROUTES: readonly RouteRow[] = [
  {
    method: "GET",
    path: "/api/campaigns/[id]/dashboard",
    roles: ["coordinator"],
    summary: "The campaign dashboard",
    doc: '→ `{dashboard: {campaign, generatedAt, totals, batches: [{id, name, status, …totals}], questions: {unanswerable, answered}, activity: {binMinutes, points: [{at, judgments}]}, projection: {windowMinutes, judgmentsInWindow, perHour, remainingSlots, secondsLeft, outlook: {kind: "empty"} \\| {kind: "done"} \\| {kind: "too_few", judgmentsInWindow, needed} \\| {kind: "eta", secondsLeft}}, disputed: [{queryId, kiltId, input, passages, disputed}], noted: {count, latest: [{queryId, input, comment, flags}]}, responses: {questionsWithExplanations, proposals}, gold: {sufficient: {judged, correct}, negative: {judged, correct}}, skills: {annotators: [{userId, username, skill, sensitivity, specificity, judgments}], total}, waiting: {any, split, explained, decoy, gold}, unfillable: {slots, passages, eligible}}}` (`unfillable`: open slots of launched batches that no eligible annotator — not paused, not disabled, who never claimed the passage — can fill, the passages holding them and how many annotators are eligible; not a tally: it reads the claims of the K eligible people with the fewest judgments (K: the most open slots a passage has), then counts claimers only on the passages they claimed; `waiting`: the questions that wait for the coordinator\'s decision, as `GET …/questions?show=waiting…` lists them; `gold`: every annotator\'s gold judgments summed, sufficient gold and negative gold — imported controls and decoys — apart; `campaign` has `aggregation`; `skills`: the annotators with counted judgments by their Dawid–Skene accuracy Σ prior·P(right), least skilled first, at most 50 of `total`; under `dawid-skene` the endorsed figures count finished passages with a posterior of at least 0.5, computed from the campaign\'s fit, which is cached until a judgment, revision, pause, resume, close or gold changes) (the annotators are no longer in it: `GET /api/campaigns/:id/annotators` pages them); totals and batches: `{passages, slots, filled, claimed, open, notNeeded, finishedPassages, endorsedPassages, alpha, kappa}` (Krippendorff\'s alpha, nominal, and Fleiss\' kappa on the counted verdicts; null while undefined). Read from tallies kept by triggers: its cost does not grow with the number of passages, but for `skills` and the Dawid–Skene endorsed figures, which read the campaign\'s fit (refitted over every counted judgment only when its fingerprint changes, else from the cache)',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/questions",
    roles: ["coordinator"],
    query: questionListQuerySchema,
    summary: "A campaign's questions, filtered and paged",
    doc: "`?show=all\\|disputed\\|unanswerable\\|answered\\|open\\|waiting\\|waiting-split\\|waiting-explained\\|waiting-decoy\\|waiting-gold` (default `all`), `?q=` (text in the question, or its exact KILT id), `?after=` (the `next` of the page before), `?limit=` (1–200, default 50) → `{questions: [{id, kiltId, input, batchName, lineNumber, passages, finished, endorsed, disputed, unanswerable}], next, counts: {all, disputed, unanswerable, answered, open, waiting, waiting-split, waiting-explained, waiting-decoy, waiting-gold}}`, in id order. `disputed`: a passage with both verdicts among its counted judgments; `unanswerable`: a gold passage expected sufficient finished unendorsed; `answered`: an endorsed passage; `open`: a passage not finished; `waiting`: the questions that wait for the coordinator's decision, for any of the reasons `waiting-split` (a finished passage with split counted verdicts), `waiting-decoy` (a decoy that at least T counted judgments call sufficient: a suspect decoy), `waiting-gold` (a sufficient gold passage finished unendorsed: gold the vote missed), each while that passage has no live decision, and `waiting-explained` (annotators explained no passage answers it, until it has a live endorse or a live decision on every passage); a closed batch is read as sealed. A bad value is a 400 naming the parameter",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/questions/[queryId]",
    roles: ["coordinator"],
    summary: "The question view's data",
    doc: "`:queryId` the `id` of the list above → `{question: {campaign: {id, name, judgmentsPerPassage, endorsementThreshold, aggregation}, query: {id, kiltId, input, answers, batchId, lineNumber, taskKind, dataset}, unanswerable, passages: [{id, wikipediaId, title, startParagraphId, endParagraphId, paragraphs: [{id, text}], isGold, expectedVerdict, expectedSpan, judgmentCount, sufficientCount, claimCount, openSlots, isDecided, finished, endorsed, consensus, consensusOfHighlights, adjudication, posterior, members, proposedBy, judgments: [{id, username, verdict, unreadable, span, spanText, partial, memberSpans, durationMs, createdAt, counted, paused, comment, flags, revision, label, labelDisagrees}]}], explanations}}`: the question view's data (`taskKind`: its batch's KILT task, `qa`\\|`fact-checking`\\|`slot-filling`\\|`entity-linking`\\|`dialogue`; `dataset`: the KILT dataset the batch came from (`fever`, `nq`, …) or null; a judgment's `label`: fact checking's SUPPORTS or REFUTES on a sufficient judgment, else null, and `labelDisagrees`: true when that label is not the dataset's (the question's answers); `proposedBy` and `explanations[].annotator`: usernames, a crowd worker's pseudonym; `endorsed`: by the vote; `adjudication`: the live decision or null; `unanswerable` follows the decisions as the export does; `members`: an evidence set's members in page order, each `{wikipediaId, title, startParagraphId, endParagraphId, paragraphs, expectedSpan, consensus}` (the consensus of the counted highlights in that member, when endorsed), null for a single passage; a judgment's `memberSpans`: a set's highlight per member, else null; `partial`: part of the evidence, stored as insufficient); `posterior`: P(sufficient) under the campaign's Dawid–Skene fit (a gold passage: its expected verdict, clamped), null without counted judgments); 404 for another campaign's question; a bad id is a 422 naming it",
  },
  {
    method: "PUT",
    path: "/api/campaigns/[id]/passages/[passageId]/adjudication",
    roles: ["coordinator"],
    summary: "Decide a passage (endorse or reject), overriding the vote",
    doc: 'the coordinator\'s final word on a passage: `{decision: "endorse"\\|"reject", span?: {startParagraphId, startCharacter, endParagraphId, endCharacter, text} \\| null, reason: string (1–2000 characters, trimmed)}` → `{adjudication: {id, passageId, queryId, decision, span, reason, by: {id, username}, at, revertedAt: null, revertedBy: null}}`. `span`: endorse only (a reject with one is a 422), code points, end exclusive, inside the passage, `text` as the page reads there (checked like a judgment\'s span); null or absent: the consensus span, which needs at least one counted sufficient highlight (else a 422 on `span`). A new decision replaces the live one (reverted and replaced in one transaction). It overrides the vote in the KILT export, its report and the runs\' golds: an endorsed passage is exported with its span (or the consensus span) and `meta.adjudicated_by: {username, reason, at}`, a rejected one is left out even when the vote endorsed it (a question left with none counts as without endorsement), a decided gold passage no longer makes its question unanswerable; closed batches too. Negative gold and decoys are never exported, whatever the decision. 404 for a passage of another campaign. Audited as `passage.adjudicate` (target the passage; details: campaignId, adjudicationId, decision, span, reason, replaced)',
  },
  {
    method: "DELETE",
    path: "/api/campaigns/[id]/passages/[passageId]/adjudication",
    roles: ["coordinator"],
    summary: "Revert a passage's live decision",
    doc: "reverts the live decision: the vote decides again → `{adjudication}` (with `revertedAt`, `revertedBy`); 404 when the passage has none. Audited as `passage.adjudication_revert`",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/adjudications",
    roles: ["coordinator"],
    query: adjudicationListQuerySchema,
    summary: "A campaign's adjudications",
    doc: "`?queryId=` (one question's), `?reverted=1` (the reverted ones too) → `{adjudications: [{id, passageId, queryId, decision, span, reason, by, at, revertedAt, revertedBy}]}`, newest first",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/annotators/[userId]/[action]",
    roles: ["coordinator"],
    summary: "Pause or resume an annotator in a campaign",
    docRoute: "`POST /api/campaigns/:id/annotators/:userId/pause`, `/resume`",
    doc: "→ `{annotator}`; a paused annotator's judgments stop counting and their slots reopen at once",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/annotators/[userId]",
    roles: ["coordinator"],
    summary: "One annotator's figures and warnings in a campaign",
    doc: '→ `{annotator: {campaign: {id, name, warnFastShare, warnMinAgreement, warnMinJudgments}, annotator: {…a row of GET …/annotators}, warnings: [{kind: "fast", shareUnder2s} \\| {kind: "agreement", agreement}], speed: [{fromSeconds, toSeconds, judgments}], agreementByDay: [{day, judgments, compared, agreed}]}}`; 404 for a user who is not an annotator',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/annotators/[userId]/judgments",
    roles: ["coordinator"],
    query: annotatorJudgmentsQuerySchema,
    summary: "One annotator's judgments in a campaign, paged",
    doc: "`?gold=1` (gold passages only), `?after=` (the `next` of the page before: a judgment id), `?limit=` (1–100, default 20) → `{judgments: [{id, createdAt, verdict, unreadable, span, spanText, partial, memberSpans, durationMs, agrees, query: {id, kiltId, input}, passage: {id, wikipediaId, title, paragraphs: [{id, text}], members}, gold: {expectedVerdict, expectedSpan, correct} \\| null}], next}`, newest first (an evidence set: `passage.members` in page order, each `{wikipediaId, title, startParagraphId, endParagraphId, paragraphs, expectedSpan}`, and `memberSpans` its highlight per member; a gold set is right only with each member's expected span highlighted)",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/suspect-decoys",
    roles: ["coordinator"],
    query: suspectDecoysQuerySchema,
    summary: "Decoys the annotators found sufficient",
    doc: "`?limit=` (1–200, default 50) → `{decoys: [{passageId, queryId, kiltId, input, wikipediaId, title, paragraphId, text, judgments, sufficient}], total, decoyCount}`: the decoys that at least T counted judgments (annotators in good standing; T as sealed for a closed batch) found sufficient, most-endorsed first (ties: the oldest); `text` the decoy's paragraph, at most 300 code points; `total` every such decoy, `decoyCount` every decoy of the campaign. A bad value is a 422 naming the parameter",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/annotator-warnings",
    roles: ["coordinator"],
    summary: "Annotators flagged as too fast or disagreeing",
    doc: "→ `{thresholds, flagged: [{userId, username, judgments, warnings}], total}`: annotators with more than `warnFastShare` of their judgments under 2 s (once they have `warnMinJudgments`), or agreement with the majority below `warnMinAgreement` (once `warnMinJudgments` were compared), worst agreement first, at most 20",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/workers",
    roles: ["coordinator"],
    query: workerListQuerySchema,
    summary: "A crowd campaign's payment report",
    doc: "the payment report of a crowd campaign: `?q=` (a part of the platform worker id), `?outcome=completed\\|queue_empty\\|paused\\|timed_out\\|training_failed\\|open` (`open`: not ended yet), `?after=` (the `next` of the page before: a session id), `?limit=` (1–500, default 50) → `{workers: [{id, platform, workerId, pseudonym, session, studyId, platformSessionId, stage, outcome, code, startedAt, endedAt, judgments, countedJudgments, activeSeconds, trainingJudged, trainingCorrect, goldJudged, goldCorrect, goldAccuracy, agreed, compared, agreement, paused, pauseReason}], next}`, one row per worker and session, newest first (`id`: the session's). `workerId`: the platform's (PROLIFIC_PID, MTurk workerId, `?worker=`); `studyId`: Prolific STUDY_ID or MTurk hitId; `platformSessionId`: Prolific SESSION_ID or MTurk assignmentId; `code`: the completion code given, null while open. A session's judgments are its worker's from the start of real work (none if training was not passed) up to the start of the worker's next session, so one submitted just after the end still counts in it; `countedJudgments`: those counting towards consensus now; `activeSeconds`: the server's time — the sum of those judgments' server-measured times, plus the session's training, from its start to its last training answer as received (never the client's `durationMs`); `goldJudged`, `goldCorrect`, `goldAccuracy` (smoothed (0.5 + correct) / (1 + judged), null before any gold), `paused` and `pauseReason`: the worker's in the campaign, not per session; `agreement`: `agreed` / `compared`, the session's judgments on finished passages matching the outcome, null before any. `?format=csv\\|jsonl`: every row matching `q` and `outcome` as a streamed download (`campaign-N-workers.csv`/`.jsonl`): CSV with a header line, RFC 4180 quoting, and a leading `'` on text cells starting with `=`, `+`, `-`, `@` (so a spreadsheet does not run them as formulas); JSONL one object per line with the same keys, without `id`. A bad value is a 422 naming the parameter",
  },
];
