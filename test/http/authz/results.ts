// The authorization matrix's cases for app/api/routes/results.ts: the judgments and KILT exports, the
// export's report, the annotators' figures (matrix.ts explains a case).
import { newCampaign, type Cases } from "./matrix";

export const resultCases: Cases = {
  "GET /api/campaigns/[id]/judgments": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/judgments`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/export": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export?location=passage`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/export/report": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/export/report`,
    ok: 200,
  },
  "GET /api/campaigns/[id]/annotators": {
    path: async (s) => `/api/campaigns/${await newCampaign(s)}/annotators?sort=medianSeconds&dir=desc&q=a&limit=5`,
    ok: 200,
  },
};
