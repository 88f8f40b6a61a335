-- Issue 12: claims get an opaque handle (the annotator API never shows a database id), and a closed
-- batch keeps R, T, its passages' counters and which judgments counted as they were at close.
-- Idempotent (IF NOT EXISTS): the 0004 upgrade test gives a 0003 database these columns ahead, as today's code writes them.
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "sealed_judgments_per_passage" smallint;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "sealed_endorsement_threshold" smallint;--> statement-breakpoint
-- Existing claims get a random handle (gen_random_uuid is volatile: one per row); new ones get 128 random bits from the app.
ALTER TABLE "claims" ADD COLUMN IF NOT EXISTS "handle" text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "claims" ALTER COLUMN "handle" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "counted_at_close" boolean;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "sealed_judgment_count" smallint;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "sealed_sufficient_count" smallint;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "sealed_is_decided" boolean;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "claims_handle_key" ON "claims" USING btree ("handle");
--> statement-breakpoint
-- Batches closed before this migration are sealed now, as closing seals them from here on (lib/campaign/internal/seal.ts).
UPDATE "batches" b SET "sealed_judgments_per_passage" = c."judgments_per_passage", "sealed_endorsement_threshold" = c."endorsement_threshold"
FROM "campaigns" c WHERE c."id" = b."campaign_id" AND b."status" = 'closed' AND b."sealed_judgments_per_passage" IS NULL;--> statement-breakpoint
UPDATE "passages" p SET "sealed_judgment_count" = p."judgment_count", "sealed_sufficient_count" = p."sufficient_count", "sealed_is_decided" = p."is_decided"
FROM "batches" b WHERE b."id" = p."batch_id" AND b."status" = 'closed' AND p."sealed_judgment_count" IS NULL;--> statement-breakpoint
-- Which judgments count: the rule of countedJudgmentsOf (annotator active, among the first R of the passage by time, then id).
UPDATE "judgments" j SET "counted_at_close" = ranked."rn" <= ranked."r" AND ranked."active"
FROM (
  SELECT j2."id", c."judgments_per_passage" AS "r", coalesce(s."status", 'active') = 'active' AS "active",
         row_number() OVER (PARTITION BY j2."passage_id", coalesce(s."status", 'active') = 'active' ORDER BY j2."created_at", j2."id") AS "rn"
  FROM "judgments" j2
  JOIN "batches" b ON b."id" = j2."batch_id" AND b."status" = 'closed'
  JOIN "campaigns" c ON c."id" = j2."campaign_id"
  LEFT JOIN "annotator_standings" s ON s."campaign_id" = j2."campaign_id" AND s."user_id" = j2."user_id"
  WHERE j2."counted_at_close" IS NULL
) ranked
WHERE ranked."id" = j."id";
