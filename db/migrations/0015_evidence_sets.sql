-- Evidence sets and partial evidence (issue 31): a passage row may be a complementary set of
-- passages judged together (passages.set_members, set_key in the location key); a judgment may be
-- "part of the evidence" (judgments.partial: insufficient with a highlight) or hold one highlight
-- per member of a set (member_spans, and a proposal of two passages its proposer's); a batch says whether partial evidence is asked for.
-- Idempotent, like 0013 and 0014.
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "partial_evidence" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "judgment_versions" ADD COLUMN IF NOT EXISTS "partial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "judgment_versions" ADD COLUMN IF NOT EXISTS "member_spans" jsonb;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "partial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "member_spans" jsonb;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN IF NOT EXISTS "member_spans" jsonb;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "set_members" jsonb;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "set_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
DROP INDEX IF EXISTS "passages_location_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "passages_location_key" ON "passages" USING btree ("query_id","wikipedia_id","start_paragraph_id","end_paragraph_id","set_key");--> statement-breakpoint
ALTER TABLE "judgments" DROP CONSTRAINT IF EXISTS "judgments_span_iff_sufficient";--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_span_iff_sufficient" CHECK ((("judgments"."verdict" = 'sufficient' and not "judgments"."page_level") or "judgments"."partial") = ("judgments"."span_text" is not null
        and "judgments"."start_paragraph_id" is not null and "judgments"."start_character" is not null
        and "judgments"."end_paragraph_id" is not null and "judgments"."end_character" is not null));--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_partial_insufficient" CHECK (not "judgments"."partial" or ("judgments"."verdict" = 'insufficient' and not "judgments"."unreadable")); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_member_spans_sufficient" CHECK ("judgments"."member_spans" is null or ("judgments"."verdict" = 'sufficient' and jsonb_array_length("judgments"."member_spans") >= 2)); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "passages" ADD CONSTRAINT "passages_set_members" CHECK (("passages"."set_members" is null) = ("passages"."set_key" = '') and ("passages"."set_members" is null or jsonb_array_length("passages"."set_members") between 2 and 8)); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
