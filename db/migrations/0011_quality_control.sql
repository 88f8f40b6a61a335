-- Quality control a cheater cannot pass: negative gold and decoys (passages.is_decoy, campaigns.decoys_per_100),
-- the span check's slack (campaigns.gold_span_slack), server-measured time beside the client's hint
-- (judgments.client_duration_ms), gold counted per kind (annotator_standings.negative_gold_*), the
-- aggregation setting (campaigns.aggregation) and the coordinator's adjudications. Idempotent, like 0008 and 0009.
CREATE TABLE IF NOT EXISTS "adjudications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adjudications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"passage_id" bigint NOT NULL,
	"decision" text NOT NULL,
	"start_paragraph_id" integer,
	"start_character" integer,
	"end_paragraph_id" integer,
	"end_character" integer,
	"span_text" text,
	"reason" text NOT NULL,
	"created_by" bigint,
	"created_by_username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reverted_at" timestamp with time zone,
	"reverted_by" bigint,
	CONSTRAINT "adjudications_decision" CHECK ("adjudications"."decision" in ('endorse', 'reject')),
	CONSTRAINT "adjudications_reason_length" CHECK (char_length("adjudications"."reason") between 1 and 2000),
	CONSTRAINT "adjudications_span_endorse" CHECK (("adjudications"."span_text" is null or "adjudications"."decision" = 'endorse') and (("adjudications"."span_text" is null) = ("adjudications"."start_paragraph_id" is null)))
);
--> statement-breakpoint
ALTER TABLE "campaigns" ALTER COLUMN "gold_min_judgments" SET DEFAULT 4;
--> statement-breakpoint
ALTER TABLE "campaigns" ALTER COLUMN "gold_accuracy_threshold" SET DEFAULT 0.3;
--> statement-breakpoint
ALTER TABLE "annotator_standings" ADD COLUMN IF NOT EXISTS "negative_gold_judged" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "annotator_standings" ADD COLUMN IF NOT EXISTS "negative_gold_correct" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "decoys_per_100" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "gold_span_slack" real DEFAULT 0.2 NOT NULL;
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "aggregation" text DEFAULT 'majority' NOT NULL;
--> statement-breakpoint
ALTER TABLE "judgment_versions" ADD COLUMN IF NOT EXISTS "client_duration_ms" integer;
--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "client_duration_ms" integer;
--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "is_decoy" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "adjudications" ADD CONSTRAINT "adjudications_reverted_by_users_id_fk" FOREIGN KEY ("reverted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "adjudications_live_key" ON "adjudications" USING btree ("passage_id") WHERE "adjudications"."reverted_at" is null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "adjudications_campaign_idx" ON "adjudications" USING btree ("campaign_id","passage_id");
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_decoys_range" CHECK ("campaigns"."decoys_per_100" between 0 and 50); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_gold_span_slack_range" CHECK ("campaigns"."gold_span_slack" between 0 and 10); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_aggregation" CHECK ("campaigns"."aggregation" in ('majority', 'dawid-skene')); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "passages" ADD CONSTRAINT "passages_decoy_gold" CHECK (not "passages"."is_decoy" or ("passages"."is_gold" and "passages"."expected_verdict" = 'insufficient')); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
