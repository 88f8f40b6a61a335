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
