-- Issue 14: judgments carry a comment, flags and revisions (earlier versions in judgment_versions); campaigns a session goal and
-- the thresholds of the dashboard's annotator warnings; users their judging shortcuts (off or remapped).
-- Idempotent (IF NOT EXISTS; constraints skipped when present): the 0004 upgrade test gives a 0003 database these ahead, as today's code writes them.
CREATE TABLE IF NOT EXISTS "judgment_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "judgment_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"judgment_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"revision" integer NOT NULL,
	"verdict" "verdict" NOT NULL,
	"unreadable" boolean NOT NULL,
	"start_paragraph_id" integer,
	"start_character" integer,
	"end_paragraph_id" integer,
	"end_character" integer,
	"span_text" text,
	"comment" text,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"duration_ms" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "session_goal" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "warn_fast_share" real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "warn_min_agreement" real DEFAULT 0.6 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "warn_min_judgments" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "comment" text;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN IF NOT EXISTS "revised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "shortcuts" jsonb;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgment_versions" ADD CONSTRAINT "judgment_versions_judgment_id_judgments_id_fk" FOREIGN KEY ("judgment_id") REFERENCES "public"."judgments"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgment_versions" ADD CONSTRAINT "judgment_versions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "judgment_versions_judgment_revision_key" ON "judgment_versions" USING btree ("judgment_id","revision");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "judgment_versions_campaign_idx" ON "judgment_versions" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "judgments_noted_idx" ON "judgments" USING btree ("campaign_id","created_at") WHERE "judgments"."comment" is not null or "judgments"."flags" <> '{}'::text[];--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_session_goal_positive" CHECK ("campaigns"."session_goal" is null or "campaigns"."session_goal" between 1 and 100000); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_warn_ranges" CHECK ("campaigns"."warn_fast_share" between 0 and 1 and "campaigns"."warn_min_agreement" between 0 and 1 and "campaigns"."warn_min_judgments" >= 1); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_flags_known" CHECK ("judgments"."flags" <@ array['broken_text', 'offensive', 'question_wrong']::text[]); EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "judgments" ADD CONSTRAINT "judgments_comment_length" CHECK ("judgments"."comment" is null or char_length("judgments"."comment") between 1 and 2000); EXCEPTION WHEN duplicate_object THEN NULL; END $$;