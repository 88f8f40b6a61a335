-- Issue 17: runs in a campaign. A run is a system's predictions (a KILT guess file) for every question of a campaign: runs (name
-- unique per campaign, which kinds of prediction every line had) and run_predictions (the answer and the parsed provenance list,
-- per question). Scores are computed at every read from the campaign's current outcomes, so nothing derived is stored. Idempotent, like 0009.
CREATE TABLE IF NOT EXISTS "run_predictions" (
	"run_id" bigint NOT NULL,
	"query_id" bigint NOT NULL,
	"answer" text,
	"provenance" jsonb,
	CONSTRAINT "run_predictions_run_id_query_id_pk" PRIMARY KEY("run_id","query_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"questions" integer NOT NULL,
	"has_provenance" boolean NOT NULL,
	"has_answers" boolean NOT NULL,
	CONSTRAINT "runs_name_length" CHECK (char_length("runs"."name") between 1 and 80)
);
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "run_predictions" ADD CONSTRAINT "run_predictions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "run_predictions" ADD CONSTRAINT "run_predictions_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "runs" ADD CONSTRAINT "runs_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "runs" ADD CONSTRAINT "runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "run_predictions_query_idx" ON "run_predictions" USING btree ("query_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "runs_campaign_name_key" ON "runs" USING btree ("campaign_id","name");