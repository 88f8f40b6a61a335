// The knowledge source's queries (key factories and `queryOptions`) and calls: search, the page
// reader and the text index. Pure browser code over components/api/client.ts, so client components may import it.
import { queryOptions } from "@tanstack/react-query";
import type { IndexStatus, KnowledgePage, SearchMode, SearchResponse } from "@/lib/knowledge/knowledge.contract";
import { apiRequest } from "./client";

export type { IndexStatus, KnowledgePage, SearchMode, SearchResponse, SearchResult, Segment } from "@/lib/knowledge/knowledge.contract";

/** TanStack Query keys of the knowledge source; building the index invalidates `index()` and `all()`'s searches. */
export const knowledgeKeys = {
  all: () => ["knowledge"] as const,
  search: (q: string, mode: SearchMode, limit?: number) => ["knowledge", "search", mode, q, limit ?? null] as const,
  page: (wikipediaId: string) => ["knowledge", "page", wikipediaId] as const,
  index: () => ["knowledge", "index"] as const,
};

/** Search results for `q` (title: prefix, always; text: ranked, 409 until the index is built). Disabled while `q` is blank. */
export const searchKnowledgeOptions = (q: string, mode: SearchMode, limit?: number) =>
  queryOptions({
    queryKey: knowledgeKeys.search(q.trim(), mode, limit),
    queryFn: () => {
      const params = new URLSearchParams({ q: q.trim(), mode });
      if (limit !== undefined) params.set("limit", String(limit));
      return apiRequest<SearchResponse>("GET", `/api/knowledge/search?${params}`);
    },
    enabled: q.trim().length > 0,
    staleTime: 30_000,
  });

/** One page with every paragraph and its section. */
export const knowledgePageOptions = (wikipediaId: string) =>
  queryOptions({
    queryKey: knowledgeKeys.page(wikipediaId),
    queryFn: () => apiRequest<KnowledgePage>("GET", `/api/knowledge/pages/${encodeURIComponent(wikipediaId)}`),
    staleTime: 60_000,
  });

/** The text index's status; polls every second while a build runs. */
export const knowledgeIndexStatusOptions = () =>
  queryOptions({
    queryKey: knowledgeKeys.index(),
    queryFn: () => apiRequest<IndexStatus>("GET", "/api/knowledge/index"),
    refetchInterval: (query) => (query.state.data?.state === "building" ? 1000 : false),
  });

/** Starts an incremental build (coordinators); answers the status at once. */
export const buildKnowledgeIndex = () => apiRequest<IndexStatus>("POST", "/api/knowledge/index");
