// The authorization matrix's cases for app/api/routes/knowledge.ts: importing, searching and reading
// the knowledge pages, the text index (matrix.ts explains a case).
import { expect } from "vitest";
import { unique } from "../../../e2e/fixtures";
import { pageLine, type Cases } from "./matrix";

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
    path: async ({ admin }) => {
      const wikipediaId = unique("matrix-page");
      expect(
        (
          await admin.post("/api/knowledge?name=matrix.jsonl", {
            data: pageLine(wikipediaId),
            headers: { "content-type": "application/x-ndjson" },
          })
        ).status(),
      ).toBe(201);
      return `/api/knowledge/pages/${encodeURIComponent(wikipediaId)}`;
    },
    ok: 200,
  },
  "GET /api/knowledge/index": { ok: 200 },
  "POST /api/knowledge/index": { body: () => ({}), ok: 202 },
};
