// The authorization matrix's cases for app/api/routes/knowledge.ts: importing, searching and reading
// the knowledge pages, the text index (matrix.ts explains a case).
import { unique } from "../../../e2e/fixtures";
import { importedPage, pageLine, type Cases } from "./matrix";

export const knowledgeCases: Cases = {
  "POST /api/knowledge": {
    raw: () => pageLine(unique("matrix-page")),
    ok: 201,
  },
  "GET /api/knowledge/search": {
    path: () => "/api/knowledge/search?q=Matrix&mode=title&limit=5",
    ok: 200,
  },
  "GET /api/knowledge/pages/[wikipediaId]": {
    path: async (setup) => `/api/knowledge/pages/${encodeURIComponent(await importedPage(setup))}`,
    ok: 200,
  },
  "GET /api/knowledge/index": { ok: 200 },
  "POST /api/knowledge/index": { body: () => ({}), ok: 202 },
};
