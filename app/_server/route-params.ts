import { z } from "zod";
import { claimHandleSchema } from "@/lib/campaign/annotate/assignment";
import { parseInput } from "@/lib/errors";
import { requestContext, route } from "./http";

const positiveId = z.coerce.number().int().positive("must be a positive integer");
const idParams = z.object({ id: positiveId });

/** `[id]` (the campaign) and the numeric segment of one of its children, e.g. `[runId]`. */
const childIdParams = <K extends string>(child: K) => idParams.extend({ [child]: positiveId } as Record<K, typeof positiveId>);

/** Reads a dynamic route's segments with `schema`, or answers 422 naming the bad segment. */
function pathParams<S extends z.ZodType>(schema: S) {
  return async (ctx: { params: Promise<z.input<S>> }): Promise<z.output<S>> => parseInput(schema, await ctx.params, "path");
}

/** The numeric `[id]` of a dynamic route, or 422 naming the bad segment. */
export async function idParam(ctx: { params: Promise<{ id: string }> }): Promise<number> {
  return parseInput(idParams, await ctx.params, "path").id;
}

export type IdContext = { params: Promise<{ id: string }> };

/**
 * The handler of an `[id]` route: it gets the caller (a bad credential answers 401 first) and the
 * numeric id (a bad one answers 422), then the request is its own.
 */
export function idRoute(
  handler: (req: Request, context: Awaited<ReturnType<typeof requestContext>> & { id: number }) => Promise<Response>,
) {
  return route(async (req, ctx: IdContext) => {
    const { db, actor } = await requestContext(req);
    return handler(req, { db, actor, id: await idParam(ctx) });
  });
}

export type AnnotatorContext = { params: Promise<{ id: string; userId: string }> };

/** The numeric `[id]` (campaign) and `[userId]` of an annotator route, or 422 naming the bad segment. */
export const annotatorParam = pathParams(childIdParams("userId"));

const entryKeyParams = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "must be a crowd entry key (base64url) from the campaign's entry URL"),
});

export type EntryKeyContext = { params: Promise<{ key: string }> };

/** The `[key]` of a crowd entry route, or 422 naming the bad segment. */
export async function entryKeyParam(ctx: EntryKeyContext): Promise<string> {
  return parseInput(entryKeyParams, await ctx.params, "path").key;
}

const runParams = childIdParams("runId");

export type RunContext = { params: Promise<{ id: string; runId: string }> };

/** The numeric `[id]` (campaign) and `[runId]` of a run route, or 422 naming the bad segment. */
export const runParam = pathParams(runParams);

const runQuestionParams = runParams.extend({ kiltId: z.string().min(1, "must be a KILT id").max(1000, "must be at most 1000 characters") });

export type RunQuestionContext = { params: Promise<{ id: string; runId: string; kiltId: string }> };

/** A run route's ids and the `[kiltId]` of one of its questions (URL-encoded in the path), or 422 naming the bad segment. */
export const runQuestionParam = pathParams(runQuestionParams);

const claimHandleParams = z.object({ handle: claimHandleSchema });

export type HandleContext = { params: Promise<{ handle: string }> };

/** The `[handle]` segment of the claim routes, or 422 naming it. */
export async function claimHandleParam(ctx: HandleContext): Promise<string> {
  return parseInput(claimHandleParams, await ctx.params, "path").handle;
}
