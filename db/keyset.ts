import { lt, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** The keyset condition of a newest-first page: ids below `after` (the `next` of the page before), or none on the first page. */
export function olderThan(id: AnyPgColumn, after: number | undefined): SQL | undefined {
  return after === undefined ? undefined : lt(id, after);
}
