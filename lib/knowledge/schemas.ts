import "server-only";
import { z } from "zod";
import { hasNul, NUL_MESSAGE } from "@/lib/nul";

/** `GET /api/knowledge/search` options. */
const noNul = (s: string) => !hasNul(s);

export const searchOptionsSchema = z.object({
  q: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").refine(noNul, NUL_MESSAGE),
  mode: z.enum(["title", "text"]).default("title"),
  limit: z.coerce.number().int("must be an integer").min(1, "must be at least 1").max(50, "must be at most 50").default(20),
});
export type SearchOptions = z.infer<typeof searchOptionsSchema>;

/** The `[wikipediaId]` of a page: a KILT page id (lib/kilt/schemas.ts: any non-empty string), bounded. */
export const pageParamsSchema = z.object({
  wikipediaId: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters").refine(noNul, NUL_MESSAGE),
});

/** `POST /api/knowledge/index` options: `rebuild=1` forgets the index and builds it again from the pages. */
export const indexBuildQuerySchema = z
  .object({ rebuild: z.enum(["0", "1"], "must be 0 or 1").optional() })
  .strict()
  .transform((q) => ({ rebuild: q.rebuild === "1" }));
