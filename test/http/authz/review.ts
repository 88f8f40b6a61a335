// The authorization matrix's cases for app/api/routes/review.ts: the dashboard, the questions and the
// decisions on passages, one annotator's standing and detail, decoys, warnings, the payment report
// (matrix.ts explains a case).
import { expect } from "vitest";
import { PASSWORD, unique } from "../../../e2e/fixtures";
import { draftBatch, newCampaign, type Cases, type Setup } from "./matrix";

/** A new annotator account's user id. */
async function newAnnotatorId({ admin }: Setup): Promise<number> {
  const res = await admin.post("/api/users", { data: { username: unique("detail"), role: "annotator", password: PASSWORD } });
  return (await res.json()).user.id;
}

/** A new campaign with one imported question: its id, the question's id and its (gold) passage's id, as a script finds them. */
async function campaignPassage(setup: Setup): Promise<{ campaignId: number; queryId: number; passageId: number }> {
  const batchId = await draftBatch(setup);
  const campaignId = (await (await setup.admin.get(`/api/batches/${batchId}`)).json()).batch.campaignId;
  const queryId = (await (await setup.admin.get(`/api/campaigns/${campaignId}/questions`)).json()).questions[0].id;
  const view = await setup.admin.get(`/api/campaigns/${campaignId}/questions/${queryId}`);
  expect(view.status(), await view.text()).toBe(200);
  return { campaignId, queryId, passageId: (await view.json()).question.passages[0].id };
}

/** The adjudication path of a passage (above) that already has a live decision when `decided`. */
async function adjudicationPath(setup: Setup, decided: boolean): Promise<string> {
  const { campaignId, passageId } = await campaignPassage(setup);
  const path = `/api/campaigns/${campaignId}/passages/${passageId}/adjudication`;
  if (decided) {
    const res = await setup.admin.put(path, { data: { decision: "reject", reason: "matrix: to revert" } });
    expect(res.status(), await res.text()).toBe(200);
  }
  return path;
}

export const reviewCases: Cases = {
  "GET /api/campaigns/[id]/dashboard": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/dashboard`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/questions": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/questions?show=unanswerable&q=a`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/questions/[queryId]": {
    path: async (s) => {
      const { campaignId, queryId } = await campaignPassage(s);
      return `/api/campaigns/${campaignId}/questions/${queryId}`;
    },
    ok: 200,
  },
  // ── issue 26: the coordinator's decision on a passage (adjudication) ──
  "PUT /api/campaigns/[id]/passages/[passageId]/adjudication": {
    path: (s) => adjudicationPath(s, false),
    body: () => ({ decision: "reject", reason: "matrix: not evidence" }),
    ok: 200,
  },
  "DELETE /api/campaigns/[id]/passages/[passageId]/adjudication": {
    path: (s) => adjudicationPath(s, true),
    ok: 200,
  },
  "GET /api/campaigns/[id]/adjudications": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/adjudications?reverted=1`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/annotators/[userId]/[action]": {
    path: async (s) => {
      const res = await s.admin.post("/api/users", { data: { username: unique("paused"), role: "annotator", password: PASSWORD } });
      return `/api/campaigns/${await newCampaign(s)}/annotators/${(await res.json()).user.id}/pause`;
    },
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators/[userId]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators/[userId]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators/${await newAnnotatorId(s)}/judgments?gold=1&limit=5`,
    ok: 200,
  },
  // ── issue 26: negative gold and decoys ──
  "GET /api/campaigns/[id]/suspect-decoys": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/suspect-decoys?limit=5`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotator-warnings": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotator-warnings`,
    ok: 200,
  },
  // ── issue 15: the payment report ──
  "GET /api/campaigns/[id]/workers": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/workers?q=a&outcome=completed&limit=5`,
    ok: 200,
  },
};
