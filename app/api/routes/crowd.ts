/**
 * The crowd entry and a crowd worker's session (docs/api.md's crowd table).
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { trainingAnswerSchema } from "@/lib/crowd/training";

export const CROWD_ROUTES: readonly RouteRow[] = [
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
    doc: '`{position, verdict, unreadable?, span: {…, text} \\| null, label?: "SUPPORTS"\\|"REFUTES" \\| null, durationMs}` (checked like a judgment\'s, label included, and stored with it in `training_answers.label`; `durationMs` is kept for the record only: no rule or report reads it) → `{correct, given, expected: {verdict, span}, explanation, session}`; 409 when `position` is not the item on screen. Stored in `training_answers`, never as a judgment; no passage of its question (candidates, gold, passages added later) is ever given to this worker as work, and the feedback shows this item\'s expected verdict, span and explanation only. After the K-th answer the worker passes (`correct ≥ ceil(passShare × K)`: work begins) or the session ends as `training_failed`',
  },
];
