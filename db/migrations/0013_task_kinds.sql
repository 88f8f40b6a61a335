ALTER TABLE "batches" ADD COLUMN "task_kind" text DEFAULT 'qa' NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "dataset" text;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "task_kind_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "judgment_versions" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_task_kind_known" CHECK ("batches"."task_kind" in ('qa', 'fact-checking', 'slot-filling', 'entity-linking', 'dialogue'));--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_label_sufficient" CHECK ("judgments"."label" is null or ("judgments"."verdict" = 'sufficient' and "judgments"."label" in ('SUPPORTS', 'REFUTES')));