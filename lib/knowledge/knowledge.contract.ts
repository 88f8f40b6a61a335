// The knowledge API's shapes (docs/api.md): search, pages, the text index and an import's answer.
// components/api/knowledge.ts and the import form read them.

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
  /** "ready" once the configured engine built the index; "none" before, and while another engine's index is all there is. */
  state: "none" | "building" | "ready";
  /** The configured engine (KPS_KNOWLEDGE_ENGINE) and its access method ("rum", "gin", "lance-bm25"). */
  engine: "postgres" | "lance";
  method: string;
  /** The engine that built the index last (null before the first build); another than `engine` until a rebuild. */
  builtBy: "postgres" | "lance" | null;
  pages: number;
  indexedPages: number;
  stalePages: number;
  paragraphs: number;
  /** What the engine's index takes on disk (null when the engine cannot tell). */
  bytes: number | null;
  builtAt: string | null;
  progress: { done: number; total: number } | null;
  /** Why the last build stopped, when it failed (cleared by the next build). */
  lastError: string | null;
}

/** What a knowledge import answers (POST /api/knowledge). */
export interface KnowledgeImportResult {
  file: string;
  lines: number;
  /** Pages of the file kept: inserted + updated + unchanged. */
  pages: number;
  inserted: number;
  /** Pages already there whose title or text the file changed. */
  updated: number;
  /** Pages already there, the same in the file (left as they were, not re-indexed). */
  unchanged: number;
  /** Lines left out as not cited (`onlyPageIds`, `onlyPageTitles`). */
  skipped: number;
  bytes: number;
  /** Content paragraphs of the pages kept (neither the title line, a `Section::::` header nor a blank one): what a text index holds. */
  paragraphs: number;
  /** UTF-8 bytes of every paragraph of the pages kept (the text a text index is built from). */
  textBytes: number;
  /** Pages put into the text index after the import (when it was built before; at most INDEX_AFTER_IMPORT_PAGES). */
  indexed: number;
}
