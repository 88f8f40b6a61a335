/**
 * Campaigns: listing and creating them, their settings and members, their crowd entry's settings, and
 * their batches (import and lifecycle).
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { createCampaignSchema, membersSchema, updateCampaignSchema } from "@/lib/campaign/settings.contract";
import { updateCrowdSettingsSchema } from "@/lib/crowd/settings.contract";
import { batchListQuerySchema, campaignListQuerySchema } from "@/lib/list-options.contract";

export const CAMPAIGN_ROUTES: readonly RouteRow[] = [
  {
    method: "GET",
    path: "/api/campaigns",
    roles: ["coordinator"],
    query: campaignListQuerySchema,
    summary: "List campaigns, paged",
    doc: "`?q=` (a part of the name), `?after=` (the `next` of the page before), `?limit=` (1–500, default 50) → `{campaigns: [{id, name, status, batches, launchedBatches, queries, passages, slots, filled, createdAt}], next}`, newest first (id descending); `next` is null on the last page (`status`: empty, draft, running, paused or closed). A bad value is a 422 naming the parameter",
  },
  {
    method: "POST",
    path: "/api/campaigns",
    roles: ["coordinator"],
    body: createCampaignSchema,
    summary: "Create a campaign",
    doc: '`{name, judgmentsPerPassage?=3, endorsementThreshold?=2, showAnswers?=false, goldMinJudgments?=4, goldAccuracyThreshold?=0.3 (the gold rule, per kind of gold: see docs/quality-control.md), goldSpanSlack?=0.2 (0–10: the span check of sufficient gold), decoysPer100?=0 (0–50: decoys made per 100 imported passages), leaseMinutes?=10 (leaseSeconds?: 30–86,400, for scripts and tests, wins over leaseMinutes), earlyStop?=false, askWhenNoneSufficient?=true, instructions?="", allAnnotators?=true, sessionGoal?=null (1–100,000 passages per session, null: none), warnFastShare?=0.5, warnMinAgreement?=0.6, warnMinJudgments?=20, aggregation?="majority"}` → 201 `{campaign}`. `aggregation`: `"majority"` (endorsed: T of the R counted votes) or `"dawid-skene"` (endorsed: finished, and a Dawid–Skene posterior P(sufficient) of at least 0.5); any other value is a 422 naming `aggregation`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]",
    roles: ["coordinator"],
    summary: "A campaign's settings and members",
    doc: "→ `{campaign}` (settings and `memberIds`)",
  },
  {
    method: "PATCH",
    path: "/api/campaigns/[id]",
    roles: ["coordinator"],
    body: updateCampaignSchema,
    summary: "Change a campaign's settings",
    doc: "any settings → `{campaign}`; 409 when R changes after annotation started. Every change is in the audit log (`campaign.update`, `details.changes`), `aggregation` too",
  },
  {
    method: "PUT",
    path: "/api/campaigns/[id]/members",
    roles: ["coordinator"],
    body: membersSchema,
    summary: "Choose a campaign's annotators",
    doc: "`{allAnnotators, userIds}` → `{campaign}`",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/crowd",
    roles: ["coordinator"],
    summary: "A campaign's crowd entry (made on first read)",
    doc: "→ `{crowd: {campaignId, entryKey, entryUrl, enabled, platform, consent, trainingItems, trainingPassShare, quota, quotaUnit, timeLimitMinutes, maxSessionsPerWorker, maxJudgmentsPerWorker, pauseFastWorkers, completionUrl, codes: {completed, queue_empty, paused, timed_out, training_failed}, updatedAt, usage: {workers, sessionsInProgress}}}`: the campaign's crowd entry (`usage`: its crowd workers and its sessions not ended and within their time, the counts beside `maxWorkers` and `maxSessionsInProgress`), made on the first read (off, `prolific`, no consent text, 5 training items, pass share 0.8, a quota of 20 passages, 60 minutes, 1 session and no judgment limit per worker, fast workers not paused, Prolific's completion URL, a random 128-bit `entryKey` and five distinct generated codes of 8 letters and digits). `entryUrl` is the link to paste into the platform, from `KPS_PUBLIC_URL` (or the request's host outside production): Prolific `…/crowd/<key>?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`, MTurk `…/crowd/<key>` (the ExternalQuestion URL), generic `…/crowd/<key>?worker=WORKER_ID`",
  },
  {
    method: "PUT",
    path: "/api/campaigns/[id]/crowd",
    roles: ["coordinator"],
    body: updateCrowdSettingsSchema,
    summary: "Change a campaign's crowd entry",
    doc: 'any of `{enabled, platform: "prolific"\\|"mturk"\\|"generic", consent (Markdown, ≤ 50,000 characters), trainingItems (0–50), trainingPassShare (0–1), quota (1–10,000), quotaUnit: "passages"\\|"questions", timeLimitMinutes (1–1440), maxSessionsPerWorker (1–1000), maxJudgmentsPerWorker (≥ 1, or null: none), pauseFastWorkers, completionUrl (an absolute http(s) URL; `?cc=CODE` is added), codes: {outcome: code}}` → the same as GET; codes sent replace those outcomes\' codes, the others are kept; a code is 1–64 of `A–Z a–z 0–9 _ -`, and the five must differ (regardless of letter case). `trainingItems` K > 0 sent with fewer than K gold passages of the campaign marked `"training": true` (any batch) is a 422 on `trainingItems` saying how many are marked (`5 asked, but only 3 passages of this campaign are marked for training; …`); 0 always goes, and a K stored earlier is not checked again when other fields change (training then gives the marked passages of launched batches, fewer than K). A bad value is a 422 naming the field (`codes.<outcome>` for a code); audited as `campaign.crowd`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/batches",
    roles: ["coordinator"],
    query: batchListQuerySchema,
    summary: "List a campaign's batches, paged",
    doc: "`?q=` (a part of the name), `?after=` (the `next` of the page before), `?limit=` (1–500, default 50) → `{batches: [{id, name, status, taskKind, dataset, queries, passages, goldPassages, pages, …}], next}` (`taskKind`: qa, fact-checking, slot-filling, entity-linking or dialogue; `dataset`: the KILT dataset its file named, or null), newest first (id descending; it was oldest first before the list was paged); `next` is null on the last page. A bad value is a 422 naming the parameter",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/batches",
    roles: ["coordinator"],
    summary: "Import a batch (multipart: questions, candidates and redirects files)",
    doc: 'multipart: `queries` file, optional `candidates` files (one per retriever, at most 20; the retriever is an item\'s `meta.retriever`; an item without one takes the `retriever` field when given (one file only), else the single retriever the file\'s other items name, else the file\'s name without extension, and when the others name several it is a problem naming the line; two files of one name are a problem), and the fields `perRetriever` (1–100, default 4: the top K of each file; `topK` is its old name, and both differing is a 422), `minAnswerOverlap` (0–1, none by default: keep a candidate only when one answer\'s normalised tokens are at least that share in the passage; questions without answers, gold passages and candidates at a gold location are kept), `retrieve` (only `"text"`: also the best paragraphs of the text index, origin `retrieval:text`; a 422 on `retrieve` when the index is not built), `retrieveTopK` (1–100, default 4, only with `retrieve`), `retriever` (≤ 100 characters, with one candidates file), `task` (qa, fact-checking, slot-filling, entity-linking or dialogue: the KILT task of the lines, over what the import detects; any other value is a 422 naming `task`), `sets` (only `"pairs"`: also every pair of each question\'s top candidate pages as an evidence set, origin `pair`), `setPages` (2–6, default 3, only with `sets`), `partialEvidence` (`on` or `off`; by default on for a HotpotQA-like batch or with `sets`), `mapEvidence` (`on` or `off`, default off: locate the provenance items given as text, `{evidence, title | wikipedia_id}`), `minBleu` (0–1, default 0.5, only with `mapEvidence`: items whose best match scores less are dropped), an optional `redirects` file (only with `mapEvidence`: from-title, tab, to-title a line), `name`; numbers in decimal → 201 `{batch, task: {kind, detected, dataset, reason}, queries, passages, goldPassages, decoys, candidatePassages, trainingPassages, sets, partialEvidence, pages, retrievers: [{retriever, read, droppedByRank, droppedByOverlap, kept, merged}], retrieverDefaults: [{file, lines, retriever}], answerOverlap: {threshold, rule} | null, evidence: {file, minBleu, items, exact, fuzzy, dropped, unknownPages, pagesBy: {id, title, redirect, folded}, sharedTitles, sharedTitleItems: [{line, id, title, pages, wikipediaId, pageTitle}], bleuBins: [10 counts], droppedItems: [{line, id, field, evidence, page, reason, best: {wikipediaId, title, paragraphId, startCharacter, endCharacter, bleu} | null}]} | null}` (see docs/formats.md#evidence-given-as-text) (`rule` by the task kind: `tokens`, `titles` for entity linking, whose answers are page titles, `off` for fact checking, whose answers are labels; the text retrieval queries with what the input means for the kind, e.g. `subject relation` for slot filling) (`read`: candidates within the top K; `merged`: kept ones sharing their passage with another origin); 422 with `details.problems: [{file, line, field, message}]` and nothing stored; a provenance item of the `queries` file (gold) may carry `"training": true` (a training item for crowd workers) and, with it, `"explanation"` (≤ 2,000 characters, shown after a worker\'s training answer); on a candidate, or an explanation without the flag, it is a problem. A provenance item of the `queries` file or a candidate may carry `"gold": "insufficient"`: a negative control, stored as gold expected insufficient (no expected span), hidden like other gold, never exported (a candidate so marked is kept whatever its rank and the overlap rule); any other value is a problem on `….gold`, and so is one location of a question given both as gold evidence and as a negative control. A gold output whose provenance lists several places is one gold evidence set, and a candidates file\'s items sharing a `set` key are one candidate set (2–8 members; a training flag on a set is a problem): see docs/formats.md#evidence-sets. With the campaign\'s `decoysPer100` above 0, about that many decoys per 100 passages are added (`decoys` in the answer, counted in `goldPassages` too): see docs/quality-control.md. With `Accept: application/x-ndjson` and `retrieve: "text"`, once ranking starts the answer is 200 NDJSON: `{progress: {step: "retrieve", done, total}}` lines, then `{status, body}`, the usual answer\'s status and body (docs/formats.md#candidates-as-kilt-made-them)',
  },
  {
    method: "GET",
    path: "/api/batches/[id]",
    roles: ["coordinator"],
    summary: "A batch",
    doc: "→ `{batch}`",
  },
  {
    method: "POST",
    path: "/api/batches/[id]/[action]",
    roles: ["coordinator"],
    summary: "Launch, pause or close a batch",
    docRoute: "`POST /api/batches/:id/launch`, `/pause`, `/close`",
    doc: "→ `{batch}`; 409 when the lifecycle forbids the move; pausing or closing ends the batch's live claims (their slots reopen); closing seals the batch: R, T, the passages' counts and which judgments counted are copied, and both exports read those, so a closed batch's export never changes",
  },
];
