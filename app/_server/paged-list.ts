import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Actor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/errors";
import { searchParamsObject, type Page } from "@/lib/list-options.contract";
import { json, requestContext, route } from "./http";
import { idParam, type IdContext } from "./route-params";

/** The query string of `req` parsed with `schema` (422 naming the bad parameter). */
export function readQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return parseInput(schema, searchParamsObject(new URL(req.url).searchParams), "query string");
}

/** `GET` of a paged list: `{ [key]: rows, next }`, the options read from the query string with `schema`. */
export function pagedListRoute<S extends z.ZodType, T>(
  key: string,
  schema: S,
  list: (db: Db, actor: Actor, query: z.infer<S>) => Promise<Page<T>>,
) {
  return route(async (req: Request) => {
    const { db, actor } = await requestContext(req);
    const page = await list(db, actor, readQuery(req, schema));
    return json({ [key]: page.rows, next: page.next });
  });
}

/** The same for a list of one campaign (`/api/campaigns/:id/…`). */
export function campaignPagedListRoute<S extends z.ZodType, T>(
  key: string,
  schema: S,
  list: (db: Db, actor: Actor, campaignId: number, query: z.infer<S>) => Promise<Page<T>>,
) {
  return route(async (req: Request, ctx: IdContext) => {
    const { db, actor } = await requestContext(req);
    const campaignId = await idParam(ctx);
    const page = await list(db, actor, campaignId, readQuery(req, schema));
    return json({ [key]: page.rows, next: page.next });
  });
}
