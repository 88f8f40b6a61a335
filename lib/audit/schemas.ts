import "server-only";
import { z } from "zod";
import { formatDay } from "@/lib/format";
import { hasNul, NUL_MESSAGE } from "@/lib/nul";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "./audit.contract";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, YYYY-MM-DD (UTC), as a date input sends it; "2026-02-30" is refused. */
const day = z
  .string()
  .trim()
  .refine((v) => DAY.test(v) && formatDay(`${v}T00:00:00Z`) === v, "must be a day, e.g. 2026-12-01")
  .transform((v) => new Date(`${v}T00:00:00Z`))
  .optional();

/**
 * The filters of the audit log (the page and `GET /api/audit`): one action, the actor's username
 * (exact, any case), one target kind, and days from and to (both included, UTC).
 */
export const auditFilterShape = {
  action: z.enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional(),
  actor: z
    .string()
    .trim()
    .max(100, "must be at most 100 characters")
    // Pages parse their query strings with this schema too (parseInput refuses NUL for the API): PostgreSQL cannot compare text holding it.
    .refine((v) => !hasNul(v), NUL_MESSAGE)
    .transform((v) => v || undefined)
    .optional(),
  target: z.enum(AUDIT_TARGETS, { error: `must be one of ${AUDIT_TARGETS.join(", ")}` }).optional(),
  from: day,
  to: day,
};

const cursor = z.coerce.number().int("must be a whole number").positive("must be a positive id").max(Number.MAX_SAFE_INTEGER);

const toAfterFrom = (q: { from?: Date; to?: Date }, ctx: z.RefinementCtx) => {
  if (q.from && q.to && q.to < q.from) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
};

/** The query of `GET /api/audit`: a page of entries, by id cursor, filtered. */
export const auditQuerySchema = z
  .object({
    cursor: cursor.optional(),
    order: z.enum(["desc", "asc"]).default("desc"),
    since: z.coerce.date({ error: "must be a date, e.g. 2026-12-01 or 2026-12-01T05:00:00Z" }).optional(),
    limit: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(500, "must be at most 500").default(50),
    ...auditFilterShape,
  })
  .superRefine(toAfterFrom);

export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The audit page's query string: the filters and `after`, the last id of the page before (as other list pages). */
export const auditPageQuerySchema = z.object({ after: cursor.optional(), ...auditFilterShape }).superRefine(toAfterFrom);

export type AuditPageQuery = z.infer<typeof auditPageQuerySchema>;
