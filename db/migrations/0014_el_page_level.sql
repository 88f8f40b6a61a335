-- Entity linking's page-level verdict: a sufficient judgment on the page itself stores no span
-- (judgments.page_level, and on each earlier version); the span rule reads it. A crowd worker's
-- fact-checking training answer keeps its label (training_answers.label). Idempotent, like 0013.
ALTER TABLE "judgment_versions" ADD COLUMN IF NOT EXISTS "page_level" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "page_level" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "training_answers" ADD COLUMN IF NOT EXISTS "label" text;--> statement-breakpoint
ALTER TABLE "judgments" DROP CONSTRAINT IF EXISTS "judgments_span_iff_sufficient";--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_span_iff_sufficient" CHECK (("judgments"."verdict" = 'sufficient' and not "judgments"."page_level") = ("judgments"."span_text" is not null
        and "judgments"."start_paragraph_id" is not null and "judgments"."start_character" is not null
        and "judgments"."end_paragraph_id" is not null and "judgments"."end_character" is not null));--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_page_level_sufficient" CHECK (not "judgments"."page_level" or "judgments"."verdict" = 'sufficient'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "training_answers" ADD CONSTRAINT "training_answers_label_known" CHECK ("training_answers"."label" is null or "training_answers"."label" in ('SUPPORTS', 'REFUTES')); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
