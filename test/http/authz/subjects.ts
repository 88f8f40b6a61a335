// The authorization matrix by subject, as the route table is split (app/api/routes/*.ts): each
// subject's rows and their cases. Each is run by test/http/authz-<subject>.http.ts; test/http/authz.http.ts
// holds these to the route table.
import { ACCOUNT_ROUTES } from "@/app/api/routes/accounts";
import { CAMPAIGN_ROUTES } from "@/app/api/routes/campaigns";
import { CROWD_ROUTES } from "@/app/api/routes/crowd";
import { JUDGING_ROUTES } from "@/app/api/routes/judging";
import { KNOWLEDGE_ROUTES } from "@/app/api/routes/knowledge";
import { RESULT_ROUTES } from "@/app/api/routes/results";
import { REVIEW_ROUTES } from "@/app/api/routes/review";
import { RUN_ROUTES } from "@/app/api/routes/runs";
import { accountCases } from "./accounts";
import { campaignCases } from "./campaigns";
import { crowdCases } from "./crowd";
import { judgingCases } from "./judging";
import { knowledgeCases } from "./knowledge";
import { resultCases } from "./results";
import { reviewCases } from "./review";
import { runCases } from "./runs";

export const SUBJECTS = {
  accounts: { rows: ACCOUNT_ROUTES, cases: accountCases },
  campaigns: { rows: CAMPAIGN_ROUTES, cases: campaignCases },
  knowledge: { rows: KNOWLEDGE_ROUTES, cases: knowledgeCases },
  judging: { rows: JUDGING_ROUTES, cases: judgingCases },
  results: { rows: RESULT_ROUTES, cases: resultCases },
  runs: { rows: RUN_ROUTES, cases: runCases },
  review: { rows: REVIEW_ROUTES, cases: reviewCases },
  crowd: { rows: CROWD_ROUTES, cases: crowdCases },
};
