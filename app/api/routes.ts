/**
 * The HTTP API's route table: every handler under app/api, declared once — its method, path, who may
 * call it, the zod schemas its input is parsed with (the handler's own, imported) and its summary.
 * The rows are split by subject into app/api/routes/*.ts, the vocabulary (roles, callers, the row
 * type) in app/api/routes/roles.ts; this file puts them together in docs/api.md's order.
 * test/api-routes.test.ts fails when a handler has no row or a row no handler; `npm run docs:api`
 * writes docs/api.md from it (scripts/api-docs.ts, header in scripts/api-docs.template.md); the authorization
 * matrix (test/http/authz-*.http.ts, one file per subject, cases in test/http/authz/) checks every row,
 * its expectations derived from `roles`.
 */
import { ACCOUNT_ROUTES } from "./routes/accounts";
import { CAMPAIGN_ROUTES } from "./routes/campaigns";
import { CROWD_ROUTES } from "./routes/crowd";
import { JUDGING_ROUTES } from "./routes/judging";
import { KNOWLEDGE_ROUTES } from "./routes/knowledge";
import { RESULT_ROUTES } from "./routes/results";
import { REVIEW_ROUTES } from "./routes/review";
import type { RouteRow } from "./routes/roles";
import { RUN_ROUTES } from "./routes/runs";

export * from "./routes/roles";

/** Every route of the API, in the order docs/api.md lists them. */
export const ROUTES: readonly RouteRow[] = [
  ...ACCOUNT_ROUTES,
  ...CAMPAIGN_ROUTES,
  ...KNOWLEDGE_ROUTES,
  ...JUDGING_ROUTES,
  ...RESULT_ROUTES,
  ...RUN_ROUTES,
  ...REVIEW_ROUTES,
  ...CROWD_ROUTES,
];
