-- KILT's five tasks: a batch's task kind (batches.task_kind, with the KILT dataset and the reason the
-- import gave) and fact checking's label on a sufficient judgment (judgments.label, and on each
-- earlier version). Idempotent, like 0008, 0009 and 0011.
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "task_kind" text DEFAULT 'qa' NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "dataset" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN IF NOT EXISTS "task_kind_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "judgment_versions" ADD COLUMN IF NOT EXISTS "label" text;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "label" text;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "batches" ADD CONSTRAINT "batches_task_kind_known" CHECK ("batches"."task_kind" in ('qa', 'fact-checking', 'slot-filling', 'entity-linking', 'dialogue')); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_label_sufficient" CHECK ("judgments"."label" is null or ("judgments"."verdict" = 'sufficient' and "judgments"."label" in ('SUPPORTS', 'REFUTES'))); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
