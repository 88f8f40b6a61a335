import { z } from "zod";
import { hasNul, NUL_MESSAGE } from "./nul";

// The options and shapes of the paged lists (accounts, campaigns, API tokens, batches, a campaign's
// annotators), apart from their queries, so that pages, the browser client and the CLI can use them
// without the database modules. Every list is newest first (id descending, a stable order) and
// paged by keyset: `after` is the last id of the page before, so a late page costs what the first
// does. The annotators are sorted by a column of the caller's choice, ties by user id; their `after`
// is the user id of the page before's last row.

/** A list's `q`: trimmed, at most 200 characters. */
export const searchText = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  // Pages parse their query strings with this schema too (parseInput refuses NUL for the API): PostgreSQL cannot compare text holding it.
  .refine((q) => !hasNul(q), NUL_MESSAGE)
  .optional();
const afterId = z.coerce.number().int().positive("must be an id").optional();
/** A list's `limit`: 1 to `max` rows, `fallback` when not given. */
export const pageSize = (max: number, fallback: number) =>
  z.coerce.number().int().min(1, `must be 1 to ${max}`).max(max, `must be 1 to ${max}`).default(fallback);

/** The most rows one page carries (the CLI asks for this many). */
export const MAX_PAGE = 500;
/** The rows a page carries when the caller does not say. */
export const DEFAULT_PAGE = 50;

/** `GET /api/users?q=&role=&memberOf=&after=&limit=` — `q` a part of the username, `memberOf` a campaign id. */
export const userListQuerySchema = z.object({
  q: searchText,
  role: z.enum(["annotator", "coordinator"], { error: "must be annotator or coordinator" }).optional(),
  memberOf: z.coerce.number().int().positive("must be a campaign id").optional(),
  after: afterId,
  limit: pageSize(MAX_PAGE, DEFAULT_PAGE),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** `GET /api/campaigns?q=&after=&limit=` — `q` a part of the name. */
export const campaignListQuerySchema = z.object({
  q: searchText,
  after: afterId,
  limit: pageSize(MAX_PAGE, DEFAULT_PAGE),
});
export type CampaignListQuery = z.infer<typeof campaignListQuerySchema>;

/** `GET /api/tokens?q=&after=&limit=` — `q` a part of the token's name, its prefix or its owner's username. */
export const tokenListQuerySchema = campaignListQuerySchema;
export type TokenListQuery = CampaignListQuery;

/** `GET /api/campaigns/:id/batches?q=&after=&limit=` — `q` a part of the batch's name. */
export const batchListQuerySchema = campaignListQuerySchema;
export type BatchListQuery = CampaignListQuery;

/** The columns the annotators table sorts by (the fields of the rows of the same names). */
export const ANNOTATOR_SORTS = [
  "username",
  "judgments",
  "goldJudged",
  "goldAccuracy",
  "agreement",
  "medianSeconds",
  "shareUnder2s",
  "status",
] as const;
export type AnnotatorSort = (typeof ANNOTATOR_SORTS)[number];

/**
 * `GET /api/campaigns/:id/annotators?sort=&dir=&q=&after=&limit=` — sorted by `sort` (username by
 * default) in `dir` order, "no data yet" last either way, ties by user id; `q` a part of the username;
 * `after` the user id that ended the page before.
 */
export const annotatorListQuerySchema = z.object({
  sort: z.enum(ANNOTATOR_SORTS, { error: `must be one of ${ANNOTATOR_SORTS.join(", ")}` }).default("username"),
  dir: z.enum(["asc", "desc"], { error: "must be asc or desc" }).default("asc"),
  q: searchText,
  after: z.coerce.number().int().positive("must be a user id").optional(),
  limit: pageSize(MAX_PAGE, DEFAULT_PAGE),
});
export type AnnotatorListQuery = z.infer<typeof annotatorListQuerySchema>;

/** A page of a list: its rows and the `after` of the next page, null on the last one. */
export interface Page<T> {
  rows: T[];
  next: number | null;
}

/** `%`, `_` and `\` stand for themselves in the search text. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Splits the `limit + 1` rows a page query read into the page and the `after` of the next one. */
export function pageOf<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const page = rows.slice(0, limit);
  return { rows: page, next: rows.length > limit ? page[page.length - 1]!.id : null };
}

/** A query string's values as the schemas above read them (the first of repeated keys). */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && !(k in out)) out[k] = value;
  }
  return out;
}
