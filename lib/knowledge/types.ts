// The knowledge-search API's shapes (docs/api.md), pure and client-safe: components/api/knowledge.ts and the
// components import them as types.

/** A run of text; `match` marks words the search matched. Segments concatenate to the plain text (no HTML). */
export interface Segment {
  text: string;
  match: boolean;
}

export type SearchMode = "title" | "text";

export interface SearchResult {
  wikipediaId: string;
  title: string;
  /** The matched paragraph (text mode); null in title mode. */
  paragraphId: number | null;
  /** The `Section::::…` header above the paragraph ("" before the first header, and in title mode). */
  section: string;
  titleSegments: Segment[];
  snippet: Segment[];
}

export interface SearchResponse {
  mode: SearchMode;
  /** Whether the text index has been built (text mode answers 409 until it has). */
  indexed: boolean;
  results: SearchResult[];
}

export interface KnowledgePage {
  wikipediaId: string;
  title: string;
  /** Every paragraph as KILT stores it (id 0 = the title line), with the section it is in. */
  paragraphs: { id: number; text: string; section: string }[];
}

export interface IndexStatus {
  state: "none" | "building" | "ready";
  pages: number;
  indexedPages: number;
  stalePages: number;
  paragraphs: number;
  builtAt: string | null;
  progress: { done: number; total: number } | null;
  /** Why the last build stopped, when it failed (cleared by the next build). */
  lastError: string | null;
}

export interface RankedParagraph {
  wikipediaId: string;
  paragraphId: number;
  score: number;
}
