/**
 * The records KILT's evaluators (facebookresearch/KILT `kilt/eval_retrieval.py`,
 * `kilt/eval_downstream.py`) read from a gold and a guess line, as the scorer keeps them: only what a
 * figure depends on, every value already as Python's `str(v).strip()` makes it. Pure, client-safe.
 */

/** Page level ranks by `wikipedia_id`; paragraph level by `wikipedia_id+start_paragraph_id+end_paragraph_id`. */
export type Level = "page" | "paragraph";

export const LEVELS: readonly Level[] = ["page", "paragraph"];

/** The `rank_keys` of each level, as the fixtures' expected figures were computed. */
export const RANK_KEYS: Record<Level, readonly ("wikipedia_id" | "start_paragraph_id" | "end_paragraph_id")[]> = {
  page: ["wikipedia_id"],
  paragraph: ["wikipedia_id", "start_paragraph_id", "end_paragraph_id"],
};

/** One provenance item: each rank key as `str(v).strip()`, null when the key is absent. */
export interface ProvItem {
  wikipedia_id: string | null;
  start_paragraph_id: string | null;
  end_paragraph_id: string | null;
  title: string | null;
  /** The passage text a guess may carry (answer_in_context@k and the like read it). */
  text: string | null;
}

export interface GoldRecord {
  /** `str(id).strip()`. */
  id: string;
  input: string;
  /** KILT's `get_gold_answers`: every non-empty answer, stripped, once. */
  answers: string[];
  /** KILT's `get_gold_titles`: every non-empty provenance title, stripped, once. */
  titles: string[];
  /** One per output entry, in order: its provenance, or null when the entry has no `provenance` key. */
  outputs: { provenance: ProvItem[] | null }[];
}

export interface GuessRecord {
  id: string;
  /** The one output's `answer`, null when it has none. */
  answer: string | null;
  /** The one output's ranked provenance, null when it has none. */
  provenance: ProvItem[] | null;
}

/** `eval_retrieval.compute`'s dictionary: Rprec, entity_in_input, then per k (ascending) the @k figures. */
export type RetrievalScores = Record<string, number>;

/** `eval_downstream.evaluate`'s dictionary. */
export interface DownstreamScores {
  kilt: { "KILT-accuracy": number; "KILT-em": number; "KILT-f1": number; "KILT-rougel": number };
  downstream: { accuracy: number; em: number; f1: number; rougel: number };
  retrieval: { Rprec: number; "recall@5": number };
}

/** What the evaluators print for a gold and a guess file: the levels asked for, and downstream when the guess answers. */
export interface KiltResult {
  page?: RetrievalScores;
  paragraph?: RetrievalScores;
  downstream?: DownstreamScores;
}

export interface ScoreOptions {
  /** Positive, distinct; sorted ascending by the scorer as KILT sorts them. */
  ks: number[];
  levels: Level[];
  downstream: boolean;
}

/** The ks KILT's `eval_retrieval.py` uses when none are given. */
export const DEFAULT_KS = [1, 5, 10, 20];
