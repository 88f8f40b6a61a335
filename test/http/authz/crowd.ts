// The authorization matrix's cases for app/api/routes/crowd.ts (issue 15): anyone with the link enters;
// the session routes are the crowd worker's own (matrix.ts explains a case).
import { unique } from "../../../e2e/fixtures";
import { crowdEntry, type Cases } from "./matrix";

export const crowdCases: Cases = {
  "GET /api/crowd/[key]": {
    path: async (s) => `/api/crowd/${(await crowdEntry(s)).entryKey}`,
    ok: 200,
  },
  "POST /api/crowd/[key]/enter": {
    path: async (s) => `/api/crowd/${(await crowdEntry(s)).entryKey}/enter`,
    body: () => ({ worker: unique("matrix-enter") }),
    ok: 200,
  },
  "GET /api/crowd/session": { ok: 200 },
  "POST /api/crowd/session/consent": { ok: 200 },
  "GET /api/crowd/session/training": { ok: 200 },
  "POST /api/crowd/session/training": {
    body: () => ({ position: 0, verdict: "insufficient", span: null, durationMs: 3000 }),
    ok: 200,
  },
};
