/**
 * Judging, the annotator's and crowd worker's side: the next passage and one's progress, proposals and
 * explanations, a claim's renewal, judgment and revision, one's own judgments.
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { explanationInputSchema } from "@/lib/campaign/annotate/explanations";
import { judgmentInputSchema, judgmentQuerySchema } from "@/lib/campaign/annotate/judgments";
import { myJudgmentsQuerySchema } from "@/lib/campaign/annotate/my-judgments";
import { proposalInputSchema } from "@/lib/campaign/annotate/proposals";
import { revisionInputSchema } from "@/lib/campaign/annotate/revise-judgment";

export const JUDGING_ROUTES: readonly RouteRow[] = [
  {
    method: "POST",
    path: "/api/campaigns/[id]/next",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "Claim the next passage to judge",
    who: "annotator on the campaign",
    doc: "→ 200 `{claim: {handle, expiresAt}, query: {id, input, kind, answers?}, passage: {wikipediaId, title, paragraphs: [{id, text, section}]}, members?: passage[], partialEvidence?: true, progress: {judgedToday, passageOfQuestion, passagesInQuestion}}`, or 204 when nothing is left; `members`: an evidence set, judged together (every member in page order, `passage` being the first); `partialEvidence`: the batch asks for *part of the evidence* (verdict `partial`) on this single passage; `kind`: the KILT task of the passage's batch (`qa`, `fact-checking`, `slot-filling`, `entity-linking`, `dialogue`); no database id: `handle` is a random 22-character string naming the claim, and a question's passages come in a random order per annotator; the caller's live claim first (a reload resumes); `?after=<handle>` prefetches a different passage; 403 while paused",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/my-progress",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "The caller's own progress in the campaign",
    who: "annotator on the campaign",
    doc: "→ `{progress: {percentFilled, judgedToday, judgedTotal, left: {count, capped}, session: {judged, goal}}}`: the caller's own judgments today (the UTC day) and in all; `left`: passages of launched batches with an open slot they never claimed, plus their live claim, counted up to 1,000 (`capped`: more); `percentFilled`: the campaign's slots (launched, paused and closed batches) neither open nor claimed, whole percent; `session.judged`: judgments since the first one after a pause of 30 min or more (0 once the last is 30 min old); nothing of gold or other annotators; 403 while paused, coordinators 403",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/ask",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "The question the caller owes a proposal or an explanation for",
    who: "annotator on the campaign",
    doc: "→ `{ask: {queryId, input, kind, answers?, judged, given} \\| null}`: the question the caller owes another passage or an explanation for — they judged at least one of its passages, all `insufficient`, every passage of it was given to them or finished without them (a passage another holds and has not finished may yet be sufficient: no ask while one is), no live claim of theirs on it, the campaign's `askWhenNoneSufficient` is on, its batch launched, and they have neither proposed nor explained for it; the most recent such question among their last 50 judgments. `queryId` is the KILT id; `answers` only with `showAnswers`; `judged`: their judgments on it; `given`: `[{wikipediaId, startParagraphId, endParagraphId}]`, where its passages given to the caller lie (the Ask screen marks them; proposing one again is a 409). Call it once the judgment outbox has drained. Crowd workers: always `{ask: null}`; 403 while paused, coordinators 403",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/proposals",
    roles: ["campaignAnnotator"],
    body: proposalInputSchema,
    summary: "Propose a passage for a question",
    doc: "`{queryId, wikipediaId, startParagraphId, endParagraphId, span: {startParagraphId, startCharacter, endParagraphId, endCharacter, text}}` (content paragraphs from 1, at most 10 of them, the span inside that range, code points, end exclusive, `text` the page's text there), and optionally `also: {wikipediaId, startParagraphId, endParagraphId, span}`, a second passage (another page, or apart on the same one) with its span: the two are proposed as one evidence set, sufficient together, its members in page order and the proposer's judgment holding a span per member → 201 `{proposal: {merged}}`: a new passage of that question (origin `{kind: \"annotator\", annotator: <pseudonym>}`, never gold) whose first judgment is the proposer's highlight (`sufficient`, counted) when T ≥ 2, so R − 1 *other* annotators judge it (with T = 1: R others, since one sufficient verdict would endorse it) — never the proposer again, who cannot revise that judgment; `merged: true` when the question already had a passage at that location (its origins gain the proposer). 422 naming the field (`queryId`, `wikipediaId`, `endParagraphId`, `span`, `span.text`, `also.startParagraphId` for a second passage that overlaps the first, `also.span.text`, …); 409 unless `ask` is this question for the caller (a second response, the setting off, a passage still left for them, the batch not launched), or when the location is a passage they judged; crowd workers 403",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/explanations",
    roles: ["campaignAnnotator"],
    body: explanationInputSchema,
    summary: "Explain why no passage answers a question",
    doc: '`{queryId, reason: "not_in_wikipedia"\\|"ambiguous"\\|"false_premise"\\|"other", text?=""}` (≤ 2000 code points, required for `other`) → 201 `{explanation: {reason}}`; 409 unless `ask` is this question for the caller; crowd workers 403. Shown in the question view, counted on the dashboard (`responses`), written to the judgments export and listed in the export report',
  },
  {
    method: "POST",
    path: "/api/claims/[handle]/renew",
    roles: ["claimOwner"],
    summary: "Renew a claim's lease",
    doc: "→ `{claim: {handle, expiresAt}}`; 410 once expired or ended (its batch paused or closed)",
  },
  {
    method: "POST",
    path: "/api/claims/[handle]/judgment",
    roles: ["claimOwner"],
    body: judgmentInputSchema,
    query: judgmentQuerySchema,
    summary: "Judge a claimed passage (optionally taking the next task)",
    doc: '`{verdict: "sufficient"\\|"insufficient"\\|"partial", span: {startParagraphId, startCharacter, endParagraphId, endCharacter, text} \\| null, spans?: span[] \\| null, label?: "SUPPORTS"\\|"REFUTES" \\| null, unreadable?, durationMs, idempotencyKey, comment?: string (1–2000 code points) \\| null, flags?: ("broken_text"\\|"offensive"\\|"question_wrong")[]}` → 201 `{judgment}`; 200 with the same body on a replay of the key; 409 for the key with another body; 403 for another\'s claim; 409 when the passage\'s batch is paused or closed (`details.batch`; nothing stored); 410 when the claim expired and its slot was taken; 422 when `text` is not the stored paragraph sliced by code points (or the handle is malformed). Per task (the passage\'s batch\'s `kind`): a sufficient verdict needs a `span`, except for entity linking (without one the verdict is stored page-level: `span` null, the page itself the evidence); fact checking\'s sufficient verdict needs `label` (SUPPORTS or REFUTES, exactly so), which every other task and an insufficient verdict refuse: a 422 naming `label` (or `span`). On fact-checking gold a label other than the line\'s dataset label (its first answer) is a wrong gold answer. An evidence set (a task with `members`) is judged together: `span` null, and a sufficient verdict needs `spans`, one highlight per member in member order, each checked against the page of its member (a 422 names `spans`, `spans.1`, `spans.1.text`, …); `partial` on a set is a 422 naming `verdict`. `partial` (part of the evidence) goes only on a single passage of a batch that asks for partial evidence (the task has `partialEvidence`), with its `span`: it is stored as insufficient with that highlight (`judgments.partial`), so it never counts towards endorsement or as sufficient gold; elsewhere a 422 naming `verdict`. The judgment comes back as `{claim, verdict, label, unreadable, span, spans?, durationMs, createdAt, comment, flags}`. `durationMs` in the body is the client\'s figure: stored as `client_duration_ms`, a hint that no rule, warning or report reads; the `durationMs` answered (and everywhere else) is the time the server measured — from handing out the task (or the annotator\'s previous judgment in the campaign, if later) to receiving the judgment, in ms, at most 24 h. `?next=1` answers with the next task too, in the same request: `{judgment, next: Task \\| null}` (`Task` as from `…/next`; null: nothing left); `&after=<claim handle>` (only with `next=1`) takes a task other than that claim, the one the client holds prefetched. A replay answers with the same next task (the live claim comes first: nothing is claimed twice); `next` is left out when no task can be given now (e.g. the gold rule paused the annotator with this judgment: ask `…/next`). A bad `next` or `after` is a 422 naming it. The judgment is two statements in one transaction; the passage row is locked for one of them',
  },
  {
    method: "PUT",
    path: "/api/claims/[handle]/judgment",
    roles: ["claimOwner"],
    body: revisionInputSchema,
    summary: "Revise one's judgment on a claim",
    doc: "revises their judgment on that claim (undo, history): the body of the POST plus `revision` (the revision it replaces, 0 for a judgment never revised) → 200 `{judgment: {…, revision, revisedAt}}` (`durationMs` stays the server's time of the first submission; the body's `durationMs` is added to the client's hint); the same key and body again → 200, the same answer; the key with another body → 409. 409 with `details.reason` when it cannot change: `finished` (\"This passage is finished: its judgments can no longer change.\"), `paused` (the annotator), `batch_paused`, `closed`, `stale` (`revision` is not the current one). 404 for a claim that is not theirs or has no judgment; 403 for coordinators. The earlier version is kept (`versions` in the judgments export); a revision moves the passage's sufficient count, early stop and the annotator's gold score as a judgment does, in one transaction that locks the passage, then the judgment",
  },
  {
    method: "GET",
    path: "/api/claims/[handle]/context",
    roles: ["claimOwner", "coordinator"],
    summary: "The paragraphs before and after a claim's passage",
    who: "the claim's annotator, coordinator",
    doc: "→ `{context: {before: [{id, text}], after: [{id, text}]}}`: the page's paragraphs around the claim's passage, read-only and never part of it (a highlight stays inside the passage): up to 2 paragraphs of text on each side, with the `Section::::` headers between them (at most 6 paragraphs a side, never the title, paragraph 0); either list is empty at the page's edge. For the annotator or crowd worker whose claim it is, live or judged (the judging page's *Context* control asks for it only when used), and for coordinators; anyone else's claim is a 404, a malformed handle a 422; 409 `sessionEnded` once a crowd worker's session is over",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/my-judgments",
    roles: ["campaignAnnotator"],
    query: myJudgmentsQuerySchema,
    summary: "The caller's own judgments, paged",
    who: "annotators of the campaign",
    doc: "`?verdict=` (`sufficient`, `insufficient`: not sufficient and readable, `partial`: part of the evidence, or `unreadable`), `?q=` (a part of the question, at most 200 characters), `?after=` (a claim handle: the `next` of the page before), `?limit=` (1–50, default 20) → `{judgments: [{claim, query: {id, input, kind}, passage: {title, paragraphs}, members?, verdict, label, unreadable, span, spans?, comment, flags, revision, submittedAt, revisedAt, locked}], next}` (`members` and `spans`: an evidence set's passages and, when sufficient, the highlight in each), the caller's own judgments newest first; `locked`: why it cannot be revised now, null when it can. Nothing about gold, counts or other annotators; no database id. A paused annotator still lists them (locked)",
  },
];
