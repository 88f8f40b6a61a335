/**
 * The HTTP API's route table: every handler under app/api, declared once — its method, path, who may
 * call it, the zod schemas its input is parsed with (the handler's own, imported) and its summary.
 * test/api-routes.test.ts fails when a handler has no row or a row no handler; `npm run docs:api`
 * writes docs/api.md from it (scripts/api-docs.ts, header in scripts/api-docs.template.md); the authorization
 * matrix (e2e/api-authz.spec.ts) checks every row, its expectations derived from `roles`.
 */
import type { ZodType } from "zod";
import { shortcutPrefsSchema } from "@/lib/annotation/shortcuts.contract";
import { auditQuerySchema } from "@/lib/audit/schemas";
import {
  acceptInviteSchema,
  changePasswordSchema,
  createInviteSchema,
  createTokenSchema,
  createUserSchema,
  resetLinkSchema,
  setPasswordSchema,
  setupSchema,
  signInSchema,
} from "@/lib/auth/schemas";
import { explanationInputSchema } from "@/lib/campaign/annotate/explanations";
import { judgmentInputSchema, judgmentQuerySchema } from "@/lib/campaign/annotate/judgments";
import { myJudgmentsQuerySchema } from "@/lib/campaign/annotate/my-judgments";
import { proposalInputSchema } from "@/lib/campaign/annotate/proposals";
import { revisionInputSchema } from "@/lib/campaign/annotate/revise-judgment";
import { adjudicationListQuerySchema } from "@/lib/campaign/quality/adjudication";
import { suspectDecoysQuerySchema } from "@/lib/campaign/quality/suspect-decoys";
import { annotatorJudgmentsQuerySchema } from "@/lib/campaign/report/annotator-detail";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { questionListQuerySchema } from "@/lib/campaign/report/question-list-options";
import { leaderboardQuerySchema, runQuestionListQuerySchema, runQuestionQuerySchema } from "@/lib/campaign/runs/runs.contract";
import { createCampaignSchema, membersSchema, updateCampaignSchema } from "@/lib/campaign/settings.contract";
import { updateCrowdSettingsSchema } from "@/lib/crowd/settings.contract";
import { trainingAnswerSchema } from "@/lib/crowd/training";
import { workerListQuerySchema } from "@/lib/crowd/workers-report.contract";
import { pageParamsSchema, searchOptionsSchema } from "@/lib/knowledge/schemas";
import {
  annotatorListQuerySchema,
  batchListQuerySchema,
  campaignListQuerySchema,
  tokenListQuerySchema,
  userListQuerySchema,
} from "@/lib/list-options.contract";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/**
 * Who may call a route. A route lists every role it admits; a caller matching none is refused
 * (401 without credentials, else 403).
 */
export type Role =
  /** No credential needed (a link's secret may still be). */
  | "anyone"
  /** Any signed-in account or crowd worker token. */
  | "signedIn"
  /** A coordinator (session cookie or API token). */
  | "coordinator"
  /** An annotator account, whatever the campaign. */
  | "annotator"
  /** An annotator who is a member of the path's campaign. */
  | "campaignAnnotator"
  /** A crowd worker whose session is in the path's campaign. */
  | "campaignCrowdWorker"
  /** A crowd worker, on their own session (the token names it). */
  | "crowdWorker"
  /** The annotator or crowd worker holding the path's claim. */
  | "claimOwner";

/** The "who" column of docs/api.md, for a row that does not say otherwise. */
export const ROLE_LABELS: Record<Role, string> = {
  anyone: "anyone",
  signedIn: "signed in",
  coordinator: "coordinator",
  annotator: "annotator",
  campaignAnnotator: "annotator on the campaign",
  campaignCrowdWorker: "crowd worker on the campaign",
  crowdWorker: "crowd worker",
  claimOwner: "the claim's annotator",
};

/** The kinds of caller the authorization matrix tries on every route. */
export type Caller = "anonymous" | "annotator" | "coordinator" | "crowd";
export const CALLERS: readonly Caller[] = ["anonymous", "annotator", "coordinator", "crowd"];

/** The roles each kind of caller can hold (the scoped ones when the campaign, claim or session is theirs). */
const CALLER_ROLES: Record<Caller, readonly Role[]> = {
  anonymous: ["anyone"],
  annotator: ["anyone", "signedIn", "annotator", "campaignAnnotator", "claimOwner"],
  coordinator: ["anyone", "signedIn", "coordinator"],
  crowd: ["anyone", "signedIn", "campaignCrowdWorker", "crowdWorker", "claimOwner"],
};

/** Whether a caller of this kind is admitted by a route's roles (given the campaign, claim or session is theirs). */
export function admits(roles: readonly Role[], caller: Caller): boolean {
  return roles.some((role) => CALLER_ROLES[caller].includes(role));
}

/** The status a refused caller gets. */
export function refusedStatus(caller: Caller): 401 | 403 {
  return caller === "anonymous" ? 401 : 403;
}

export interface RouteRow {
  method: Method;
  /** The path as the folders under app/ spell it: `/api/campaigns/[id]/batches`. */
  path: string;
  roles: readonly Role[];
  /** The JSON body's schema, where the handler parses one with a shared schema. */
  body?: ZodType;
  /** The query string's schema. */
  query?: ZodType;
  /** The path parameters' schema, where shared. */
  params?: ZodType;
  /** One line: what the route does. */
  summary: string;
  /** The docs/api.md table it is listed in (default: the main one). */
  section?: "main" | "crowd";
  /** docs/api.md's route cell, when not `METHOD /path/:param`. */
  docRoute?: string;
  /** docs/api.md's "who" cell, when not the roles' labels. */
  who?: string;
  /** Listed in docs/api.md with the row before (same text): no line of its own. */
  docInPrevious?: true;
  /** docs/api.md's "body → answer" cell (Markdown). */
  doc: string;
}

/** `METHOD /path`, the key of a row (and of the matrix's cases). */
export function routeKey(row: Pick<RouteRow, "method" | "path">): string {
  return `${row.method} ${row.path}`;
}

/** Every route of the API, in the order docs/api.md lists them. */
export const ROUTES: readonly RouteRow[] = [
  {
    method: "GET",
    path: "/api/health",
    roles: ["anyone"],
    summary: "Liveness and database reachability",
    doc: "→ `{status, database}`",
  },
  {
    method: "POST",
    path: "/api/auth/sign-in",
    roles: ["anyone"],
    body: signInSchema,
    summary: "Sign in with a username and password; sets the session cookie",
    doc: "`{username, password}` as `application/json` (415 otherwise) from the app's own origin (403 otherwise) → `{user, expiresAt}` and the session cookie",
  },
  {
    method: "POST",
    path: "/api/auth/sign-out-everywhere",
    roles: ["signedIn"],
    summary: "End every session of the caller",
    doc: "`{}` → `{signedOut, sessionsEnded}`: every session of the caller ends",
  },
  {
    method: "POST",
    path: "/api/auth/sign-out",
    roles: ["anyone"],
    summary: "End the current session and clear the cookie",
    doc: "`{}` → ends the current session, clears the cookie",
  },
  {
    method: "GET",
    path: "/api/me",
    roles: ["signedIn"],
    summary: "The caller's account and how they are authenticated",
    doc: "→ `{user: {id, username, role}, via}`",
  },
  {
    method: "PUT",
    path: "/api/me/password",
    roles: ["signedIn"],
    body: changePasswordSchema,
    summary: "Change one's own password",
    doc: "`{currentPassword, newPassword}` → `{sessionsEnded}` (the caller's other sessions); 422 on `currentPassword` when wrong; guesses count as sign-in attempts (429)",
  },
  {
    method: "GET",
    path: "/api/me/shortcuts",
    roles: ["signedIn"],
    summary: "The caller's judging shortcuts",
    doc: "→ `{shortcuts: {enabled, keys}, keys}`: the caller's judging shortcuts as stored (defaults until saved) and the key of every action",
  },
  {
    method: "PUT",
    path: "/api/me/shortcuts",
    roles: ["signedIn"],
    body: shortcutPrefsSchema,
    summary: "Save the caller's judging shortcuts",
    doc: "`{enabled, keys: {action: key}}` → the same as GET; actions `sufficient`, `insufficient`, `unreadable`, `startLeft`, `startRight`, `sentence`, `instructions`; a key is one printable character (letters stored lower-case), not space, `/` or `'`, and not another action's key; 422 names the field (`keys.<action>`)",
  },
  {
    method: "POST",
    path: "/api/setup",
    roles: ["anyone"],
    body: setupSchema,
    summary: "Create the first coordinator while there is no user",
    who: "anyone, only while there is no user",
    doc: "`{username, password}` → 201 `{user}` (the first coordinator)",
  },
  {
    method: "GET",
    path: "/api/users",
    roles: ["coordinator"],
    query: userListQuerySchema,
    summary: "List accounts, paged",
    doc: "`?q=` (a part of the username), `?role=annotator\\|coordinator`, `?memberOf=` (a campaign id: its chosen members), `?after=` (the `next` of the page before), `?limit=` (1–500, default 50) → `{users: [{id, username, role, hasPassword, createdAt, disabledAt}], next}`, newest first (id descending); `next` is null on the last page. A bad value is a 422 naming the parameter",
  },
  {
    method: "POST",
    path: "/api/users/[id]/disable",
    roles: ["coordinator"],
    summary: "Disable an account (ends its sessions, revokes its tokens)",
    docRoute: "`POST /api/users/:id/disable`, `/enable`",
    doc: "→ `{user}`; disabling ends the user's sessions and revokes their tokens at once; 409 on one's own account",
  },
  {
    method: "POST",
    path: "/api/users/[id]/enable",
    roles: ["coordinator"],
    summary: "Enable a disabled account",
    docInPrevious: true,
    doc: "→ `{user}`; disabling ends the user's sessions and revokes their tokens at once; 409 on one's own account",
  },
  {
    method: "PUT",
    path: "/api/users/[id]/password",
    roles: ["coordinator"],
    body: setPasswordSchema,
    summary: "Set another account's password",
    doc: "`{password}` → `{sessionsEnded}`; 409 on one's own account (use `/api/me/password`)",
  },
  {
    method: "POST",
    path: "/api/users/[id]/reset-link",
    roles: ["coordinator"],
    body: resetLinkSchema,
    summary: "Make a single-use password reset link",
    doc: "`{expiresInHours?}` → 201 `{resetLink: {url, username, expiresAt}}`: single use; using it ends the user's sessions",
  },
  {
    method: "GET",
    path: "/api/audit",
    roles: ["coordinator"],
    query: auditQuerySchema,
    summary: "Read the audit log",
    doc: "`?cursor=&order=desc\\|asc&since=&limit=1..500` → `{entries: [{id, at, actorId, actorUsername, action, targetType, targetId, details, address}], nextCursor}`",
  },
  {
    method: "POST",
    path: "/api/users",
    roles: ["coordinator"],
    body: createUserSchema,
    summary: "Create an account, with a password or an invite",
    doc: "`{username, role, password?}` → 201 `{user, invite?: {url, expiresAt}}`",
  },
  {
    method: "GET",
    path: "/api/tokens",
    roles: ["coordinator"],
    query: tokenListQuerySchema,
    summary: "List API tokens, paged (never the secrets)",
    doc: "`?q=` (a part of the name, the prefix or the owner's username), `?after=` (the `next` of the page before), `?limit=` (1–500, default 50) → `{tokens: [{id, name, prefix, owner, createdAt, lastUsedAt, revokedAt, expiresAt}], next}`, newest first (id descending), never the secrets; `next` is null on the last page. A bad value is a 422 naming the parameter",
  },
  {
    method: "POST",
    path: "/api/tokens",
    roles: ["coordinator"],
    body: createTokenSchema,
    summary: "Create an API token (shown once)",
    doc: "`{name, expiresInDays? = 90 (1–3650, or null: never)}` → 201 `{token: {token, id, expiresAt, …}}`",
  },
  {
    method: "DELETE",
    path: "/api/tokens/[id]",
    roles: ["coordinator"],
    summary: "Revoke an API token",
    doc: "→ `{revoked: true}`",
  },
  {
    method: "POST",
    path: "/api/invites",
    roles: ["coordinator"],
    body: createInviteSchema,
    summary: "Create an invite link",
    doc: "`{role, expiresInHours?}` → 201 `{invite: {url, role, expiresAt}}`",
  },
  {
    method: "POST",
    path: "/api/invites/accept",
    roles: ["anyone"],
    body: acceptInviteSchema,
    summary: "Accept an invite: make the account",
    who: "anyone with the link",
    doc: "`{token, username?, password}` → 201 `{user}`",
  },
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
    doc: "`?q=` (a part of the name), `?after=` (the `next` of the page before), `?limit=` (1–500, default 50) → `{batches: [{id, name, status, queries, passages, goldPassages, pages, …}], next}`, newest first (id descending; it was oldest first before the list was paged); `next` is null on the last page. A bad value is a 422 naming the parameter",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/batches",
    roles: ["coordinator"],
    summary: "Import a batch (multipart: questions and candidates files)",
    doc: 'multipart: `queries` file, optional `candidates` files (one per retriever, at most 20; the retriever is an item\'s `meta.retriever`, else the file\'s name without extension; two files of one name are a problem), and the fields `perRetriever` (1–100, default 4: the top K of each file; `topK` is its old name, and both differing is a 422), `minAnswerOverlap` (0–1, none by default: keep a candidate only when one answer\'s normalised tokens are at least that share in the passage; questions without answers, gold passages and candidates at a gold location are kept), `retrieve` (only `"text"`: also the best paragraphs of the text index, origin `retrieval:text`; a 422 on `retrieve` when the index is not built), `retrieveTopK` (1–100, default 4, only with `retrieve`), `name`; numbers in decimal → 201 `{batch, queries, passages, goldPassages, decoys, candidatePassages, pages, retrievers: [{retriever, read, droppedByRank, droppedByOverlap, kept, merged}]}` (`read`: candidates within the top K; `merged`: kept ones sharing their passage with another origin); 422 with `details.problems: [{file, line, field, message}]` and nothing stored; a provenance item of the `queries` file (gold) may carry `"training": true` (a training item for crowd workers) and, with it, `"explanation"` (≤ 2,000 characters, shown after a worker\'s training answer); on a candidate, or an explanation without the flag, it is a problem. A provenance item of the `queries` file or a candidate may carry `"gold": "insufficient"`: a negative control, stored as gold expected insufficient (no expected span), hidden like other gold, never exported (a candidate so marked is kept whatever its rank and the overlap rule); any other value is a problem on `….gold`, and so is one location of a question given both as gold evidence and as a negative control. With the campaign\'s `decoysPer100` above 0, about that many decoys per 100 passages are added (`decoys` in the answer, counted in `goldPassages` too): see docs/quality-control.md',
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
  {
    method: "POST",
    path: "/api/knowledge",
    roles: ["coordinator"],
    summary: "Import knowledge pages (JSONL, raw or multipart)",
    doc: "a raw JSONL body (plain or gzip; `?name=` names it in messages), or multipart: optional `references` files (task/retrieval files: keep only the pages they cite), then `file` → 201 `{file, lines, pages, inserted, updated, unchanged, skipped, bytes, indexed}` (`updated`: pages already there whose title or text changed; `unchanged`: pages already there and the same, left as they were; audited `knowledge.import` with these counts; `indexed`: new or changed pages put into the text index, when it was built before; at most 5,000, the rest wait for a build); 422 with `details.problems`; 413 past the size limit",
  },
  {
    method: "GET",
    path: "/api/knowledge/search",
    roles: ["coordinator", "annotator"],
    query: searchOptionsSchema,
    summary: "Search the knowledge pages by title or text",
    docRoute: "`GET /api/knowledge/search?q=&mode=title\\|text&limit=`",
    who: "coordinator, annotator (crowd: 403)",
    doc: "`q` 1–200 characters, `mode` `title` (default) or `text`, `limit` 1–50 (default 20) → `{mode, indexed, results: [{wikipediaId, title, paragraphId, section, titleSegments, snippet}]}`; segments are `{text, match}` (they concatenate to the plain text; no HTML). Title: a prefix of the title, case- and accent-insensitive (`%` and `_` literal), the exact title first, then shorter ones; `paragraphId` null, the snippet the start of the first paragraph. Text: paragraphs ranked by their words (an OR of the query's English lexemes, the title's counting most), `section` the `Section::::…` header above (\"\" before the first); 409 `conflict` until the text index has been built",
  },
  {
    method: "GET",
    path: "/api/knowledge/pages/[wikipediaId]",
    roles: ["coordinator", "annotator"],
    params: pageParamsSchema,
    summary: "A knowledge page's paragraphs",
    who: "coordinator, annotator (crowd: 403)",
    doc: "→ `{wikipediaId, title, paragraphs: [{id, text, section}]}`, every paragraph as KILT stores it (id 0 the title line); 404 when no such page; 422 for an id over 200 characters",
  },
  {
    method: "GET",
    path: "/api/knowledge/index",
    roles: ["coordinator"],
    summary: "The text index's state",
    doc: "→ `{state: none\\|building\\|ready, pages, indexedPages, stalePages, paragraphs, builtAt, progress: {done, total} \\| null, lastError}` (stale: never indexed, or changed since)",
  },
  {
    method: "POST",
    path: "/api/knowledge/index",
    roles: ["coordinator"],
    summary: "Start an incremental build of the text index",
    doc: "empty body → 202 with the status: starts an incremental build in the background (stale pages, 500 per statement); a build already running is left to finish (one at a time, in any process); a build started is audited `knowledge.index` (`details.stalePages`)",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/next",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "Claim the next passage to judge",
    who: "annotator on the campaign",
    doc: "→ 200 `{claim: {handle, expiresAt}, query: {id, input, answers?}, passage: {wikipediaId, title, paragraphs: [{id, text, section}]}, progress: {judgedToday, passageOfQuestion, passagesInQuestion}}`, or 204 when nothing is left; no database id: `handle` is a random 22-character string naming the claim, and a question's passages come in a random order per annotator; the caller's live claim first (a reload resumes); `?after=<handle>` prefetches a different passage; 403 while paused",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/my-progress",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "The caller's own progress in the campaign",
    who: "annotator on the campaign",
    doc: "→ `{progress: {percentFilled, judgedToday, judgedTotal, left: {count, capped}, session: {judged, goal}}}`: the caller's own judgments today (the database's day) and in all; `left`: passages of launched batches with an open slot they never claimed, plus their live claim, counted up to 1,000 (`capped`: more); `percentFilled`: the campaign's slots (launched, paused and closed batches) neither open nor claimed, whole percent; `session.judged`: judgments since the first one after a pause of 30 min or more (0 once the last is 30 min old); nothing of gold or other annotators; 403 while paused, coordinators 403",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/ask",
    roles: ["campaignAnnotator", "campaignCrowdWorker"],
    summary: "The question the caller owes a proposal or an explanation for",
    who: "annotator on the campaign",
    doc: "→ `{ask: {queryId, input, answers?, judged} \\| null}`: the question the caller owes another passage or an explanation for — they judged at least one of its passages, all `insufficient`, none of its passages is left for them (no live claim, no open passage they never claimed), the campaign's `askWhenNoneSufficient` is on, its batch launched, and they have neither proposed nor explained for it; the most recent such question among their last 50 judgments. `queryId` is the KILT id; `answers` only with `showAnswers`; `judged`: their judgments on it. Call it once the judgment outbox has drained. Crowd workers: always `{ask: null}`; 403 while paused, coordinators 403",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/proposals",
    roles: ["campaignAnnotator"],
    body: proposalInputSchema,
    summary: "Propose a passage for a question",
    doc: '`{queryId, wikipediaId, startParagraphId, endParagraphId, span: {startParagraphId, startCharacter, endParagraphId, endCharacter, text}}` (content paragraphs from 1, at most 10 of them, the span inside that range, code points, end exclusive, `text` the page\'s text there) → 201 `{proposal: {merged}}`: a new passage of that question (origin `{kind: "annotator", annotator: <pseudonym>}`, R open slots, never gold) that R *other* annotators judge — never the proposer; `merged: true` when the question already had a passage at that location (its origins gain the proposer). 422 naming the field (`queryId`, `wikipediaId`, `endParagraphId`, `span`, `span.text`, …); 409 unless `ask` is this question for the caller (a second response, the setting off, a passage still left for them, the batch not launched), or when the location is a passage they judged; crowd workers 403',
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
    doc: '`{verdict: "sufficient"\\|"insufficient", span: {startParagraphId, startCharacter, endParagraphId, endCharacter, text} \\| null, unreadable?, durationMs, idempotencyKey, comment?: string (1–2000 code points) \\| null, flags?: ("broken_text"\\|"offensive"\\|"question_wrong")[]}` → 201 `{judgment}`; 200 with the same body on a replay of the key; 409 for the key with another body; 403 for another\'s claim; 409 when the passage\'s batch is paused or closed (`details.batch`; nothing stored); 410 when the claim expired and its slot was taken; 422 when `text` is not the stored paragraph sliced by code points (or the handle is malformed). The judgment comes back as `{claim, verdict, unreadable, span, durationMs, createdAt, comment, flags}`. `durationMs` in the body is the client\'s figure: stored as `client_duration_ms`, a hint that no rule, warning or report reads; the `durationMs` answered (and everywhere else) is the time the server measured — from handing out the task (or the annotator\'s previous judgment in the campaign, if later) to receiving the judgment, in ms, at most 24 h. `?next=1` answers with the next task too, in the same request: `{judgment, next: Task \\| null}` (`Task` as from `…/next`; null: nothing left); `&after=<claim handle>` (only with `next=1`) takes a task other than that claim, the one the client holds prefetched. A replay answers with the same next task (the live claim comes first: nothing is claimed twice); `next` is left out when no task can be given now (e.g. the gold rule paused the annotator with this judgment: ask `…/next`). A bad `next` or `after` is a 422 naming it. The judgment is two statements in one transaction; the passage row is locked for one of them',
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
    path: "/api/campaigns/[id]/my-judgments",
    roles: ["campaignAnnotator"],
    query: myJudgmentsQuerySchema,
    summary: "The caller's own judgments, paged",
    who: "annotators of the campaign",
    doc: "`?after=` (a claim handle: the `next` of the page before), `?limit=` (1–50, default 20) → `{judgments: [{claim, query: {id, input}, passage: {title, paragraphs}, verdict, unreadable, span, comment, flags, revision, submittedAt, revisedAt, locked}], next}`, the caller's own judgments newest first; `locked`: why it cannot be revised now, null when it can. Nothing about gold, counts or other annotators; no database id. A paused annotator still lists them (locked)",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/judgments",
    roles: ["coordinator"],
    summary: "Every judgment, explanation and proposal as JSONL",
    doc: "→ JSONL, streamed: one line per judgment (`query_id`, `passage_id`, `wikipedia_id`, `start_paragraph_id`, `end_paragraph_id`, `annotator` (pseudonym), `verdict`, `unreadable`, `span`, `is_gold`, `counted`, `batch_id`, `duration_ms` (the time the server measured), `client_duration_ms` (the client's claim, a hint; null when none was kept), `created_at`, `revision`, `revised_at`, `comment`, `flags`, `versions`: the earlier versions oldest first, each `{revision, verdict, unreadable, span, comment, flags, duration_ms, client_duration_ms, submitted_at, replaced_at}`); after the judgments, one line per explanation (`{query_id, annotator, explanation: {reason, text}, batch_id, created_at}`), then one per proposal (`{query_id, passage_id, wikipedia_id, start_paragraph_id, end_paragraph_id, annotator, proposal: {span}, batch_id, created_at}`), none for a campaign without them; `?batch=` filters",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/export",
    roles: ["coordinator"],
    query: exportQuerySchema,
    summary: "The KILT provenance export (JSONL)",
    doc: '`?batch=&location=span\\|passage&aggregation=majority\\|dawid-skene` → KILT provenance JSONL, streamed: one line per question with an endorsed passage, its original line plus one `{"provenance": [item]}` entry per endorsed passage; downloads as `campaign-<id>[-batch-<b>]-kilt.jsonl`, or `…-kilt-passage-location.jsonl` with `location=passage` (and `…-<aggregation>.jsonl` when `aggregation` is given). `aggregation` decides what "endorsed" means for this export (absent: the campaign\'s setting); every item\'s `meta` has `aggregation` and `confidence` (the passage\'s Dawid–Skene posterior P(sufficient), or under majority the share of its counted votes that say sufficient). Another value is a 422 naming `aggregation`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/export/report",
    roles: ["coordinator"],
    query: exportQuerySchema,
    summary: "The export's report",
    doc: 'same query → `{report: {aggregation, queries, queriesExported, passagesEndorsed, unanswerable: [ids], withoutEndorsement, explained: [{queryId, explanations: [{reason, text, annotator, createdAt}]}]}}` (`explained`: the questions annotators explained, in question order). `spansWithoutAnswer: [{queryId, passageId, wikipediaId, startParagraphId, startCharacter, endParagraphId, endCharacter}]`: every exported provenance item whose text holds none of its question\'s normalised answers (KILT\'s `normalize_answer`, whole words in a row), after a consensus span that lost the answer was widened to one an endorser highlighted; questions without answers are never listed; `kps export` prints the count and the first 50. An endorsed proposed passage is exported like any other, its `meta` with `origins` (e.g. `[{"kind": "annotator", "annotator": "<pseudonym>"}]`); imported passages\' `meta` has no `origins`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/annotators",
    roles: ["coordinator"],
    query: annotatorListQuerySchema,
    summary: "A campaign's annotators with their figures, paged",
    doc: "`?sort=username\\|judgments\\|goldJudged\\|goldAccuracy\\|agreement\\|medianSeconds\\|shareUnder2s\\|status` (default `username`), `?dir=asc\\|desc` (default `asc`), `?q=` (a part of the username), `?after=` (the `next` of the page before: a user id), `?limit=` (1–500, default 50) → `{annotators: [{userId, username, status, pauseReason, judgments, goldJudged, goldCorrect, goldAccuracy, sufficientGoldJudged, sufficientGoldCorrect, negativeGoldJudged, negativeGoldCorrect, agreement, compared, medianSeconds, shareUnder2s}], next}`, sorted by `sort` (null values — no data yet — last either way; ties by user id); `next` is the user id of the page's last row, null on the last page; a page follows that annotator wherever the sort puts them at the time of the request. `agreement`: share of the annotator's judgments on finished passages matching the outcome; null before any. A bad value is a 422 naming the parameter",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/runs",
    roles: ["coordinator"],
    summary: "A campaign's uploaded runs",
    doc: "→ `{runs: [{id, name, createdAt, createdBy, questions, hasProvenance, hasAnswers}]}`, newest first (`createdBy`: the uploader's username; `hasProvenance`/`hasAnswers`: every line gave a ranked list / an answer, so retrieval / downstream figures are computed)",
  },
  {
    method: "POST",
    path: "/api/campaigns/[id]/runs",
    roles: ["coordinator"],
    summary: "Upload a run (multipart: name and KILT guess file)",
    doc: 'multipart: the field `name` (1–80 characters, unique in the campaign: 409 otherwise) and one `guess` file (a KILT guess JSONL, plain or gzip, one line per question: `{"id", "output": [{"answer"?, "provenance"?: [{wikipedia_id, start_paragraph_id?, end_paragraph_id?, title?, text?}]}]}`), in either order → 201 `{run}`. Every line is checked as KILT\'s evaluator reads it; the ids must be the campaign\'s questions\' KILT ids, each once, and every question needs a prediction (reported at its batch file\'s line); 422 with `details.problems: [{file, line, field, message}]` and nothing stored. Limits: `KPS_MAX_BATCH_BYTES`; at most 50 runs per campaign (409: delete one first)',
  },
  {
    method: "DELETE",
    path: "/api/campaigns/[id]/runs/[runId]",
    roles: ["coordinator"],
    summary: "Delete a run",
    doc: "→ 204; the run and its predictions are gone (audited `run.delete`); 404 for a run of another campaign",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/leaderboard",
    roles: ["coordinator"],
    query: leaderboardQuerySchema,
    summary: "The runs' KILT scores against the campaign's golds",
    doc: "`?level=page\\|paragraph` (default page), `?ks=1,5,10` (1–10 distinct ks of 1–100, default 1,5,10) → `{level, ks, golds: {original: {questions}, endorsed: {questions}, both: {questions}}, computedAt, rows: [{run, scores: {original, endorsed, both}, questions: {original, endorsed, both}}]}`: each score is KILT's dictionary (`{page\\|paragraph: {Rprec, entity_in_input, precision@k, …}, downstream: {kilt, downstream, retrieval}}`, the level when the run ranks, downstream when it answers), computed from the campaign's outcomes at this read. Golds: `original` the imported lines; `endorsed` the exported questions' answers with only their endorsed passages as provenance; `both` the KILT export's lines. A question not in a gold (or that a run has no prediction for) is left out of it",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/runs/[runId]/results",
    roles: ["coordinator"],
    summary: "A run's KILT scores",
    doc: "→ `{original, endorsed, both}`, each KILT's dictionary with `page` and `paragraph` at ks 1,3,5,10 and `downstream`; downloads as `run-<name>-scores.json`",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/runs/[runId]/questions",
    roles: ["coordinator"],
    query: runQuestionListQuerySchema,
    summary: "A run's per-question figures, paged",
    doc: "`?q=` (a part of the question, or its KILT id), `?after=` (the `next` of the page before), `?limit=` (1–200, default 50), `?level=page\\|paragraph` (default page) → `{questions: [{id, kiltId, input, rprec: {original, endorsed, both}, firstCompleteRank: {…}}], next}`, in question order; null where the question is not in that gold",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/runs/[runId]/questions/[kiltId]",
    roles: ["coordinator"],
    query: runQuestionQuerySchema,
    summary: "A run's prediction on one question against the golds",
    doc: "the KILT id URL-encoded; `?level=page\\|paragraph` → `{question: {kiltId, input, answers}, guess: {answer, ranked: [{position, key, title}]}, golds: {original, endorsed, both}}`, each gold `{sets: [{index, members}], ranked: [{position, key, title, sets, completes}], firstCompleteRank, rprec}` or null when the question is not in it; 404 for an unknown question",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/dashboard",
    roles: ["coordinator"],
    summary: "The campaign dashboard",
    doc: '→ `{dashboard: {campaign, generatedAt, totals, batches: [{id, name, status, …totals}], questions: {unanswerable, answered}, activity: {binMinutes, points: [{at, judgments}]}, projection: {windowMinutes, judgmentsInWindow, perHour, remainingSlots, secondsLeft, outlook: {kind: "empty"} \\| {kind: "done"} \\| {kind: "too_few", judgmentsInWindow, needed} \\| {kind: "eta", secondsLeft}}, disputed: [{queryId, kiltId, input, passages, disputed}], noted: {count, latest: [{queryId, input, comment, flags}]}, responses: {questionsWithExplanations, proposals}, gold: {sufficient: {judged, correct}, negative: {judged, correct}}, skills: {annotators: [{userId, username, skill, sensitivity, specificity, judgments}], total}, waiting: {any, split, explained, decoy, gold}}}` (`waiting`: the questions that wait for the coordinator\'s decision, as `GET …/questions?show=waiting…` lists them; `gold`: every annotator\'s gold judgments summed, sufficient gold and negative gold — imported controls and decoys — apart; `campaign` has `aggregation`; `skills`: the annotators with counted judgments by their Dawid–Skene accuracy Σ prior·P(right), least skilled first, at most 50 of `total`; under `dawid-skene` the endorsed figures count finished passages with a posterior of at least 0.5, computed from the campaign\'s fit, which is cached until a judgment, revision, pause, resume, close or gold changes) (the annotators are no longer in it: `GET /api/campaigns/:id/annotators` pages them); totals and batches: `{passages, slots, filled, claimed, open, notNeeded, finishedPassages, endorsedPassages, alpha, kappa}` (Krippendorff\'s alpha, nominal, and Fleiss\' kappa on the counted verdicts; null while undefined). Read from tallies kept by triggers: its cost does not grow with the number of passages, but for `skills` and the Dawid–Skene endorsed figures, which read the campaign\'s fit (refitted over every counted judgment only when its fingerprint changes, else from the cache)',
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
    doc: "`:queryId` the `id` of the list above → `{question: {campaign: {id, name, judgmentsPerPassage, endorsementThreshold, aggregation}, query: {id, kiltId, input, answers, batchId, lineNumber}, unanswerable, passages: [{id, wikipediaId, title, startParagraphId, endParagraphId, paragraphs: [{id, text}], isGold, expectedVerdict, expectedSpan, judgmentCount, sufficientCount, claimCount, openSlots, isDecided, finished, endorsed, consensus, consensusOfHighlights, adjudication, posterior, proposedBy, judgments: [{id, username, verdict, unreadable, span, spanText, durationMs, createdAt, counted, paused, comment, flags, revision}]}], explanations}}`: the question view's data (`endorsed`: by the vote; `adjudication`: the live decision or null; `unanswerable` follows the decisions as the export does); `posterior`: P(sufficient) under the campaign's Dawid–Skene fit (a gold passage: its expected verdict, clamped), null without counted judgments); 404 for another campaign's question; a bad id is a 422 naming it",
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
    doc: "`?gold=1` (gold passages only), `?after=` (the `next` of the page before: a judgment id), `?limit=` (1–100, default 20) → `{judgments: [{id, createdAt, verdict, unreadable, span, spanText, durationMs, agrees, query: {id, kiltId, input}, passage: {id, wikipediaId, title, paragraphs: [{id, text}]}, gold: {expectedVerdict, expectedSpan, correct} \\| null}], next}`, newest first",
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
  {
    method: "GET",
    path: "/api/crowd/[key]",
    roles: ["anyone"],
    summary: "A crowd entry's public preview",
    section: "crowd",
    who: "anyone with the link",
    doc: '→ `{campaignName, platform, consent, instructions, trainingItems, quota, quotaUnit, timeLimitMinutes, example}`: `example` is the settings\' example (Markdown; "" when none: the preview shows the instructions alone), never a passage of the campaign; 404 when the entry is unknown, closed or stopped',
  },
  {
    method: "POST",
    path: "/api/crowd/[key]/enter",
    roles: ["anyone"],
    summary: "Enter a crowd campaign: a worker session and its token",
    section: "crowd",
    who: "anyone with the link",
    doc: 'body: the entry URL\'s parameters — Prolific `{PROLIFIC_PID, STUDY_ID, SESSION_ID}`, MTurk `{workerId, assignmentId, hitId, turkSubmitTo}`, generic `{worker}` (each 1–100 of `A–Z a–z 0–9 _ - . :`; 422 naming a missing or bad one) → `{token, session}`. The worker id maps to one pseudonymous crowd account of this campaign; entering again with the same ids resumes the open session (also while the entry is closed or stopped: a stopped one then ends; newcomers get 404), or past `maxSessionsPerWorker` answers the last session with its code again. A session\'s platform ids are fixed at entry: another `assignmentId` (MTurk) or `SESSION_ID` (Prolific) while it is in progress is a 409 with `details: {sessionInProgress: true, field}`. MTurk: `assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE` (a preview) is a 409 with `details.preview`; `turkSubmitTo` must be a URL but is not used: the completion form goes to the entry\'s `mturkSite`. Limits (no account is made when refused): a new worker id past `maxWorkers` is a 409 with `details.full: "places"`; a new session past `maxSessionsInProgress` a 409 with `details.full: "sessions"` and Retry-After; more than 120 entries a minute into the campaign from one address, or 10 × `maxSessionsInProgress` (at least 100) from all, a 429 `rate_limited` with `details.retryAfterSeconds` and Retry-After (also while the entry is closed or stopped)',
  },
  {
    method: "GET",
    path: "/api/crowd/session",
    roles: ["crowdWorker"],
    summary: "The crowd worker's session",
    section: "crowd",
    doc: '→ `CrowdSessionView` (`lib/crowd/session.contract.ts`): `{stage: consent\\|training\\|working\\|ended, campaignId, campaignName, platform, consent, instructions, number, maxSessions, training: {total, answered, correct, passShare}, work: {judged, quota, unit}, deadline, outcome, code, completion, message}`; `completion` once ended: `{kind: "redirect", url}` (Prolific: `{completionUrl}?cc=CODE`), `{kind: "mturk", action: "{turkSubmitTo}/mturk/externalSubmit", fields: {assignmentId, outcome, code}}`, or `{kind: "code"}`. A session whose time ran out ends here',
  },
  {
    method: "POST",
    path: "/api/crowd/session/consent",
    roles: ["crowdWorker"],
    summary: "Give consent",
    section: "crowd",
    doc: "no body → the session: training next, or work when the campaign has no training item or the worker passed training in an earlier session",
  },
  {
    method: "GET",
    path: "/api/crowd/session/training",
    roles: ["crowdWorker"],
    summary: "The next training item",
    section: "crowd",
    doc: "→ `{item: {position, total, query, passage} \\| null, session}`: the next training item (a gold passage marked training, in an order fixed per worker)",
  },
  {
    method: "POST",
    path: "/api/crowd/session/training",
    roles: ["crowdWorker"],
    body: trainingAnswerSchema,
    summary: "Answer a training item",
    section: "crowd",
    doc: "`{position, verdict, unreadable?, span: {…, text} \\| null, durationMs}` (checked like a judgment's; `durationMs` is kept for the record only: no rule or report reads it) → `{correct, given, expected: {verdict, span}, explanation, session}`; 409 when `position` is not the item on screen. Stored in `training_answers`, never as a judgment; no passage of its question (candidates, gold, passages added later) is ever given to this worker as work, and the feedback shows this item's expected verdict, span and explanation only. After the K-th answer the worker passes (`correct ≥ ceil(passShare × K)`: work begins) or the session ends as `training_failed`",
  },
];
