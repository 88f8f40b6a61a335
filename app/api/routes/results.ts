/**
 * What a campaign produced: every judgment as JSONL, the KILT export and its report, the annotators'
 * figures.
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { exportQuerySchema } from "@/lib/campaign/report/export-options";
import { annotatorListQuerySchema } from "@/lib/list-options.contract";

export const RESULT_ROUTES: readonly RouteRow[] = [
  {
    method: "GET",
    path: "/api/campaigns/[id]/judgments",
    roles: ["coordinator"],
    summary: "Every judgment, explanation and proposal as JSONL",
    doc: "→ JSONL, streamed: one line per judgment (`query_id`, `passage_id`, `wikipedia_id`, `start_paragraph_id`, `end_paragraph_id`, `members` (an evidence set's members in page order, each `{wikipedia_id, start_paragraph_id, end_paragraph_id}`; null for a single passage), `annotator` (pseudonym), `verdict`, `label` (fact checking: SUPPORTS or REFUTES on a sufficient judgment; else null), `unreadable`, `span`, `partial` (part of the evidence: stored as insufficient with its `span`), `member_spans` (a set's sufficient judgment: one span per member; else null), `is_gold`, `counted`, `batch_id`, `duration_ms` (the time the server measured), `client_duration_ms` (the client's claim, a hint; null when none was kept), `created_at`, `revision`, `revised_at`, `comment`, `flags`, `versions`: the earlier versions oldest first, each `{revision, verdict, label, unreadable, span, partial, member_spans, comment, flags, duration_ms, client_duration_ms, submitted_at, replaced_at}`); after the judgments, one line per explanation (`{query_id, annotator, explanation: {reason, text}, batch_id, created_at}`), then one per proposal (`{query_id, passage_id, wikipedia_id, start_paragraph_id, end_paragraph_id, members, annotator, proposal: {span, member_spans}, batch_id, created_at}`; a proposal of two passages: the set's `members` and a highlight per member, else null), none for a campaign without them; `?batch=` filters",
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/export",
    roles: ["coordinator"],
    query: exportQuerySchema,
    summary: "The KILT provenance export (JSONL)",
    doc: '`?batch=&location=span\\|passage&aggregation=majority\\|dawid-skene` → KILT provenance JSONL, streamed: one line per question with an endorsed passage, its original line plus one `{"provenance": [item]}` entry per endorsed passage (an evidence set: one entry, an item per member in page order) and its partial evidence appended to `meta.partial_evidence`; downloads as `campaign-<id>[-batch-<b>]-kilt.jsonl`, or `…-kilt-passage-location.jsonl` with `location=passage` (and `…-<aggregation>.jsonl` when `aggregation` is given). `aggregation` decides what "endorsed" means for this export (absent: the campaign\'s setting); every item\'s `meta` has `aggregation` and `confidence` (the passage\'s Dawid–Skene posterior P(sufficient), or under majority the share of its counted votes that say sufficient). Another value is a 422 naming `aggregation`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/export/report",
    roles: ["coordinator"],
    query: exportQuerySchema,
    summary: "The export's report",
    doc: 'same query → `{report: {aggregation, queries, queriesExported, passagesEndorsed, unanswerable: [ids], withoutEndorsement, explained: [{queryId, explanations: [{reason, text, annotator, createdAt}]}]}}` (`explained`: the questions annotators explained, in question order; `annotator`: the username, a crowd worker\'s pseudonym). `spansWithoutAnswer: [{queryId, passageId, wikipediaId, startParagraphId, startCharacter, endParagraphId, endCharacter}]`: every exported provenance item whose text holds none of its question\'s normalised answers (KILT\'s `normalize_answer`, whole words in a row), after a consensus span that lost the answer was widened to one an endorser highlighted; questions without answers are never listed; `kps export` prints the count and the first 50. An endorsed proposed passage is exported like any other, its `meta` with `origins` (e.g. `[{"kind": "annotator", "annotator": "<pseudonym>"}]`); imported passages\' `meta` has no `origins`',
  },
  {
    method: "GET",
    path: "/api/campaigns/[id]/annotators",
    roles: ["coordinator"],
    query: annotatorListQuerySchema,
    summary: "A campaign's annotators with their figures, paged",
    doc: "`?sort=username\\|judgments\\|goldJudged\\|goldAccuracy\\|agreement\\|medianSeconds\\|shareUnder2s\\|status` (default `username`), `?dir=asc\\|desc` (default `asc`), `?q=` (a part of the username), `?after=` (the `next` of the page before: a user id), `?limit=` (1–500, default 50) → `{annotators: [{userId, username, status, pauseReason, judgments, goldJudged, goldCorrect, goldAccuracy, sufficientGoldJudged, sufficientGoldCorrect, negativeGoldJudged, negativeGoldCorrect, agreement, compared, medianSeconds, shareUnder2s}], next}`, sorted by `sort` (null values — no data yet — last either way; ties by user id); `next` is the user id of the page's last row, null on the last page; a page follows that annotator wherever the sort puts them at the time of the request. `agreement`: share of the annotator's judgments on finished passages matching the outcome; null before any. A bad value is a 422 naming the parameter",
  },
];
