import { z } from "zod";

// The options and shapes of the paged lists of accounts and campaigns, apart from their queries, so
// that pages, the browser client and the CLI can use them without the database modules.
// Every list is newest first (id descending, a stable order) and paged by keyset: `after` is the
// last id of the page before, so a late page costs what the first does.

const searchText = z.string().trim().max(200, "must be at most 200 characters").optional();
const afterId = z.coerce.number().int().positive("must be an id").optional();
const pageSize = (max: number, fallback: number) =>
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
