// The authorization matrix's cases for app/api/routes/campaigns.ts: campaigns, their settings, members
// and crowd entry, their batches (matrix.ts explains a case).
import { unique } from "../../../e2e/fixtures";
import { batchFiles, draftBatch, newCampaign, type Cases } from "./matrix";

export const campaignCases: Cases = {
  "GET /api/campaigns": { ok: 200 },
  "POST /api/campaigns": { body: () => ({ name: unique("matrix") }), ok: 201 },
  "GET /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    ok: 200,
  },
  "PATCH /api/campaigns/[id]": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}`,
    body: () => ({ showAnswers: true }),
    ok: 200,
  },
  "PUT /api/campaigns/[id]/members": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/members`,
    body: () => ({ allAnnotators: false, userIds: [] }),
    ok: 200,
  },
  "GET /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    ok: 200,
  },
  "PUT /api/campaigns/[id]/crowd": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/crowd`,
    body: () => ({ enabled: true, quota: 6 }),
    ok: 200,
  },
  "GET /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches?q=matrix&limit=5`,
    ok: 200,
  },
  "POST /api/campaigns/[id]/batches": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/batches`,
    multipart: batchFiles,
    ok: 201,
  },
  "GET /api/batches/[id]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}`,
    ok: 200,
  },
  "POST /api/batches/[id]/[action]": {
    path: async (s) => `/api/batches/${await draftBatch(s)}/launch`,
    ok: 200,
  },
};
