import { and, desc, lt, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";

/** The keyset condition of a newest-first page: ids below `after` (the `next` of the page before), or none on the first page. */
export function olderThan(id: AnyPgColumn, after: number | undefined): SQL | undefined {
  return after === undefined ? undefined : lt(id, after);
}

/**
 * One newest-first page of a list (keyset on `id`): the rows of `select` (a `$dynamic()` query) that
 * match `where` and come after the page before, the `limit` newest and one more, so that `pageOf`
 * (lib/list-options.contract.ts) knows whether a next page exists.
 */
export function newestFirst<T extends PgSelect>(
  select: T,
  id: AnyPgColumn,
  where: SQL | undefined,
  page: { after?: number; limit: number },
): T {
  return select
    .where(and(where, olderThan(id, page.after)))
    .orderBy(desc(id))
    .limit(page.limit + 1);
}
