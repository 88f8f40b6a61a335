import "server-only";
import { z } from "zod";

/** The query of `GET /api/audit` (and the audit page): a page of entries, by id cursor. */
export const auditQuerySchema = z.object({
  cursor: z.coerce.number().int("must be a whole number").positive("must be a positive id").max(Number.MAX_SAFE_INTEGER).optional(),
  order: z.enum(["desc", "asc"]).default("desc"),
  since: z.coerce.date({ error: "must be a date, e.g. 2026-12-01 or 2026-12-01T05:00:00Z" }).optional(),
  limit: z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(500, "must be at most 500").default(50),
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;
