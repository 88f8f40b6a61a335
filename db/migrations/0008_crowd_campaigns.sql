-- Issue 15: crowd campaigns. A campaign's crowd entry (crowd_entries), the platform workers mapped to pseudonymous crowd accounts
-- (role 'crowd', one campaign only), their sessions with outcome and code, and training answers (never judgments). Gold passages may
-- be training items with an explanation; the speed rule is a new pause reason. Idempotent, like 0007.
ALTER TYPE "public"."pause_reason" ADD VALUE IF NOT EXISTS 'speed_rule';--> statement-breakpoint
ALTER TYPE "public"."user_role" ADD VALUE IF NOT EXISTS 'crowd';--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "crowd_entries" (
	"campaign_id" bigint PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"platform" text DEFAULT 'prolific' NOT NULL,
	"entry_key" text NOT NULL,
	"consent" text DEFAULT '' NOT NULL,
	"training_items" smallint DEFAULT 5 NOT NULL,
	"training_pass_share" real DEFAULT 0.8 NOT NULL,
	"quota" integer DEFAULT 20 NOT NULL,
	"quota_unit" text DEFAULT 'passages' NOT NULL,
	"time_limit_minutes" integer DEFAULT 60 NOT NULL,
	"max_sessions_per_worker" integer DEFAULT 1 NOT NULL,
	"max_judgments_per_worker" integer,
	"pause_fast_workers" boolean DEFAULT false NOT NULL,
	"completion_url" text DEFAULT 'https://app.prolific.com/submissions/complete' NOT NULL,
	"codes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crowd_entries_platform" CHECK ("crowd_entries"."platform" in ('prolific', 'mturk', 'generic')),
	CONSTRAINT "crowd_entries_quota_unit" CHECK ("crowd_entries"."quota_unit" in ('passages', 'questions')),
	CONSTRAINT "crowd_entries_ranges" CHECK ("crowd_entries"."training_items" between 0 and 50 and "crowd_entries"."training_pass_share" between 0 and 1 and "crowd_entries"."quota" between 1 and 10000
        and "crowd_entries"."time_limit_minutes" between 1 and 1440 and "crowd_entries"."max_sessions_per_worker" between 1 and 1000
        and ("crowd_entries"."max_judgments_per_worker" is null or "crowd_entries"."max_judgments_per_worker" >= 1))
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "crowd_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "crowd_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"worker_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"number" integer NOT NULL,
	"study_id" text,
	"platform_session_id" text,
	"turk_submit_to" text,
	"stage" text DEFAULT 'consent' NOT NULL,
	"outcome" text,
	"code" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"work_started_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"training_judged" integer DEFAULT 0 NOT NULL,
	"training_correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "crowd_sessions_stage" CHECK ("crowd_sessions"."stage" in ('consent', 'training', 'working', 'ended')),
	CONSTRAINT "crowd_sessions_outcome" CHECK (("crowd_sessions"."stage" = 'ended') = ("crowd_sessions"."outcome" is not null and "crowd_sessions"."code" is not null and "crowd_sessions"."ended_at" is not null))
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "crowd_workers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "crowd_workers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"platform" text NOT NULL,
	"platform_worker_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "training_answers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "training_answers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" bigint NOT NULL,
	"passage_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"position" smallint NOT NULL,
	"verdict" "verdict" NOT NULL,
	"start_paragraph_id" integer,
	"start_character" integer,
	"end_paragraph_id" integer,
	"end_character" integer,
	"span_text" text,
	"correct" boolean NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "is_training" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN IF NOT EXISTS "explanation" text;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_entries" ADD CONSTRAINT "crowd_entries_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_sessions" ADD CONSTRAINT "crowd_sessions_worker_id_crowd_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."crowd_workers"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_sessions" ADD CONSTRAINT "crowd_sessions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_sessions" ADD CONSTRAINT "crowd_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_workers" ADD CONSTRAINT "crowd_workers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_workers" ADD CONSTRAINT "crowd_workers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "training_answers" ADD CONSTRAINT "training_answers_session_id_crowd_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."crowd_sessions"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "training_answers" ADD CONSTRAINT "training_answers_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "training_answers" ADD CONSTRAINT "training_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "crowd_entries_entry_key_key" ON "crowd_entries" USING btree ("entry_key");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "crowd_sessions_worker_number_key" ON "crowd_sessions" USING btree ("worker_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "crowd_sessions_open_key" ON "crowd_sessions" USING btree ("worker_id") WHERE "crowd_sessions"."stage" <> 'ended';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crowd_sessions_campaign_idx" ON "crowd_sessions" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "crowd_workers_platform_key" ON "crowd_workers" USING btree ("campaign_id","platform","platform_worker_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "crowd_workers_user_key" ON "crowd_workers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "training_answers_session_position_key" ON "training_answers" USING btree ("session_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "training_answers_user_passage_key" ON "training_answers" USING btree ("user_id","passage_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "passages_training_idx" ON "passages" USING btree ("campaign_id","id") WHERE "passages"."is_training";--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "passages" ADD CONSTRAINT "passages_training_gold" CHECK ((not "passages"."is_training" and "passages"."explanation" is null) or "passages"."is_gold"); EXCEPTION WHEN duplicate_object THEN NULL; END $$;