// The authorization matrix's cases for app/api/routes/runs.ts (issue 17): runs and the leaderboard
// (matrix.ts explains a case).
import { expect } from "vitest";
import { unique } from "../../../e2e/fixtures";
import { batchFiles, newCampaign, type Cases, type Setup } from "./matrix";

/** The KILT id of the one question of a runs campaign (ids are unique within a campaign; this one needs URL encoding). */
const RUN_QUESTION = "matrix run/q #1";

/** A new campaign with one question (RUN_QUESTION), for the runs routes. */
async function runsCampaign(setup: Setup): Promise<number> {
  const campaignId = await newCampaign(setup);
  const { queries } = await batchFiles(setup);
  const line = { ...JSON.parse(queries.buffer.toString()), id: RUN_QUESTION };
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/batches`, {
    multipart: { queries: { ...queries, buffer: Buffer.from(JSON.stringify(line) + "\n") } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return campaignId;
}

/** A run upload's parts for a runs campaign: a name and a guess predicting RUN_QUESTION. */
function runFiles() {
  const guess = {
    id: RUN_QUESTION,
    output: [{ answer: "one paragraph", provenance: [{ wikipedia_id: "matrix", start_paragraph_id: 1, end_paragraph_id: 1 }] }],
  };
  return Promise.resolve({
    name: unique("matrix-run"),
    guess: { name: "guess.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(JSON.stringify(guess) + "\n") },
  });
}

/** A runs campaign with one run uploaded: its paths' prefix `/api/campaigns/:id/runs/:runId`. */
async function runPath(setup: Setup): Promise<string> {
  const campaignId = await runsCampaign(setup);
  const res = await setup.admin.post(`/api/campaigns/${campaignId}/runs`, { multipart: await runFiles() });
  expect(res.status(), await res.text()).toBe(201);
  return `/api/campaigns/${campaignId}/runs/${(await res.json()).run.id}`;
}

export const runCases: Cases = {
  "GET /api/campaigns/[id]/runs": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/runs`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/runs": {
    path: async (s) => `/api/campaigns/${await runsCampaign(s)}/runs`,
    multipart: runFiles,
    ok: 201,
  },
  "DELETE /api/campaigns/[id]/runs/[runId]": {
    path: runPath,
    ok: 204,
  },
  "GET /api/campaigns/[id]/runs/[runId]/results": {
    path: async (s) => `${await runPath(s)}/results`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/runs/[runId]/questions": {
    path: async (s) => `${await runPath(s)}/questions?q=matrix&limit=5&level=paragraph`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/runs/[runId]/questions/[kiltId]": {
    path: async (s) => `${await runPath(s)}/questions/${encodeURIComponent(RUN_QUESTION)}?level=page`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/leaderboard": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/leaderboard?level=paragraph&ks=1,5`,
    ok: 200,
  },
};
