/**
 * Runs: a system's predictions uploaded, scored against the campaign's golds, and the leaderboard.
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { leaderboardQuerySchema, runQuestionListQuerySchema, runQuestionQuerySchema } from "@/lib/campaign/runs/runs.contract";

export const RUN_ROUTES: readonly RouteRow[] = [
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
    doc: "`?level=page\\|paragraph` (default page), `?ks=1,5,10` (1–10 distinct ks of 1–100, default 1,5,10) → `{level, ks, headline: {metric, kiltMetric, kinds, datasets, mixed, reason}, golds: {original: {questions}, endorsed: {questions}, both: {questions}}, computedAt, rows: [{run, scores: {original, endorsed, both}, questions: {original, endorsed, both}, originalOver: {endorsed: {scores, questions}, both: {scores, questions}}}]}`: each score is KILT's dictionary (`{page\\|paragraph: {Rprec, entity_in_input, precision@k, …}, downstream: {kilt, downstream, retrieval}}`, the level when the run ranks, downstream when it answers), as the campaign's outcomes are at this read (cached per run and gold, keyed by the campaign's outcome version; `computedAt`: when the oldest figure shown was computed). Golds: `original` the imported lines; `endorsed` the exported questions' answers with only their endorsed passages as provenance; `both` the KILT export's lines. A question not in a gold (or that a run has no prediction for) is left out of it. `originalOver`: the run against the original gold over only the questions the endorsed (or both) gold holds, the figure to compare that gold's with. `headline`: the downstream metric each row leads with (`metric`: `accuracy`\\|`em`\\|`f1`\\|`rougel`, read from `downstream.downstream`) and its KILT variant beside it (`kiltMetric`: `KILT-accuracy`\\|`KILT-em`\\|`KILT-f1`\\|`KILT-rougel`, from `downstream.kilt`): KILT's headline metric of the datasets of the campaign's batches that hold questions — accuracy for FEVER, AIDA, WNED, T-REx and zsRE, EM for NQ, TriviaQA and HotpotQA, ROUGE-L for ELI5, F1 for Wizard of Wikipedia — or of their task kind when no dataset is named (`kinds`, `datasets`: KILT keys such as `fever`); when the batches lead with different metrics, `mixed` is true and EM leads (KILT computes it alike on every dataset); `reason`: the sentence the page shows",
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
];
