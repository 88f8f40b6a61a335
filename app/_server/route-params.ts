import { z } from "zod";
import { claimHandleSchema } from "@/lib/campaign/annotate/assignment";
import { parseInput } from "@/lib/errors";

const idParams = z.object({ id: z.coerce.number().int().positive("must be a positive integer") });

/** The numeric `[id]` of a dynamic route, or 422 naming the bad segment. */
export async function idParam(ctx: { params: Promise<{ id: string }> }): Promise<number> {
  return parseInput(idParams, await ctx.params, "path").id;
}

export type IdContext = { params: Promise<{ id: string }> };

const annotatorParams = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  userId: z.coerce.number().int().positive("must be a positive integer"),
});

export type AnnotatorContext = { params: Promise<{ id: string; userId: string }> };

/** The numeric `[id]` (campaign) and `[userId]` of an annotator route, or 422 naming the bad segment. */
export async function annotatorParam(ctx: AnnotatorContext): Promise<{ id: number; userId: number }> {
  return parseInput(annotatorParams, await ctx.params, "path");
}

const entryKeyParams = z.object({
  key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "must be a crowd entry key (base64url) from the campaign's entry URL"),
});

export type EntryKeyContext = { params: Promise<{ key: string }> };

/** The `[key]` of a crowd entry route, or 422 naming the bad segment. */
export async function entryKeyParam(ctx: EntryKeyContext): Promise<string> {
  return parseInput(entryKeyParams, await ctx.params, "path").key;
}

const runParams = z.object({
  id: z.coerce.number().int().positive("must be a positive integer"),
  runId: z.coerce.number().int().positive("must be a positive integer"),
});

export type RunContext = { params: Promise<{ id: string; runId: string }> };

/** The numeric `[id]` (campaign) and `[runId]` of a run route, or 422 naming the bad segment. */
export async function runParam(ctx: RunContext): Promise<{ id: number; runId: number }> {
  return parseInput(runParams, await ctx.params, "path");
}

const runQuestionParams = runParams.extend({ kiltId: z.string().min(1, "must be a KILT id").max(1000, "must be at most 1000 characters") });

export type RunQuestionContext = { params: Promise<{ id: string; runId: string; kiltId: string }> };

/** A run route's ids and the `[kiltId]` of one of its questions (URL-encoded in the path), or 422 naming the bad segment. */
export async function runQuestionParam(ctx: RunQuestionContext): Promise<{ id: number; runId: number; kiltId: string }> {
  return parseInput(runQuestionParams, await ctx.params, "path");
}

const claimHandleParams = z.object({ handle: claimHandleSchema });

export type HandleContext = { params: Promise<{ handle: string }> };

/** The `[handle]` segment of the claim routes, or 422 naming it. */
export async function claimHandleParam(ctx: HandleContext): Promise<string> {
  return parseInput(claimHandleParams, await ctx.params, "path").handle;
}
