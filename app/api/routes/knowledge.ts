/**
 * The knowledge source: importing pages, searching and reading them, the text index.
 * Rows of the route table (app/api/routes.ts), in the order docs/api.md lists them.
 */
import type { RouteRow } from "./roles";
import { indexBuildQuerySchema, pageParamsSchema, searchOptionsSchema } from "@/lib/knowledge/schemas";

export const KNOWLEDGE_ROUTES: readonly RouteRow[] = [
  {
    method: "POST",
    path: "/api/knowledge",
    roles: ["coordinator"],
    summary: "Import knowledge pages (JSONL, raw or multipart)",
    doc: "a raw JSONL body (plain or gzip; `?name=` names it in messages), or multipart: optional `references` files (task/retrieval files: keep only the pages they cite, by `wikipedia_id` or, for evidence given as text, by title folded for case and accents), then `file` → 201 `{file, lines, pages, inserted, updated, unchanged, skipped, bytes, indexed}` (`updated`: pages already there whose title or text changed; `unchanged`: pages already there and the same, left as they were; audited `knowledge.import` with these counts; `indexed`: new or changed pages put into the text index, when it was built before; at most 5,000, the rest wait for a build); 422 with `details.problems`; 413 past the size limit",
  },
  {
    method: "GET",
    path: "/api/knowledge/search",
    roles: ["coordinator", "annotator"],
    query: searchOptionsSchema,
    summary: "Search the knowledge pages by title or text",
    docRoute: "`GET /api/knowledge/search?q=&mode=title\\|text&limit=`",
    who: "coordinator, annotator (crowd: 403)",
    doc: "`q` 1–200 characters, `mode` `title` (default) or `text`, `limit` 1–50 (default 20) → `{mode, indexed, results: [{wikipediaId, title, paragraphId, section, titleSegments, snippet}]}`; segments are `{text, match}` (they concatenate to the plain text; no HTML). Title: a prefix of the title, case- and accent-insensitive (`%` and `_` literal), the exact title first, then shorter ones; `paragraphId` null, the snippet the start of the first paragraph. Text: paragraphs ranked by their words (an OR of the query's English lexemes, the title's counting most), `section` the `Section::::…` header above (\"\" before the first); 409 `conflict` until the text index has been built",
  },
  {
    method: "GET",
    path: "/api/knowledge/pages/[wikipediaId]",
    roles: ["coordinator", "annotator"],
    params: pageParamsSchema,
    summary: "A knowledge page's paragraphs",
    who: "coordinator, annotator (crowd: 403)",
    doc: "→ `{wikipediaId, title, paragraphs: [{id, text, section}]}`, every paragraph as KILT stores it (id 0 the title line); 404 when no such page; 422 for an id over 200 characters",
  },
  {
    method: "GET",
    path: "/api/knowledge/index",
    roles: ["coordinator"],
    summary: "The text index's state",
    doc: "→ `{state: none\\|building\\|ready, engine: postgres\\|lance, method, builtBy, pages, indexedPages, stalePages, paragraphs, bytes, builtAt, progress: {done, total} \\| null, lastError}` (stale: never indexed, or changed since; `engine` and `method` are the configured engine (KPS_KNOWLEDGE_ENGINE) and its access method, `rum`\\|`gin`\\|`lance-bm25`; `builtBy` the engine that built the index: while it is another than `engine`, state is `none` until a rebuild)",
  },
  {
    method: "POST",
    path: "/api/knowledge/index",
    roles: ["coordinator"],
    query: indexBuildQuerySchema,
    summary: "Start a build of the text index (incremental, or a rebuild)",
    doc: "empty body → 202 with the status: starts an incremental build in the background (stale pages, 500 per statement); `?rebuild=1` first empties the configured engine's index and marks every page stale (as does any build after KPS_KNOWLEDGE_ENGINE changed); a build already running is left to finish (one at a time, in any process); a build started is audited `knowledge.index` (`details.stalePages`, `rebuild`, `engine`)",
  },
];
