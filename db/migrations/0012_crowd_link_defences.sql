-- A crowd link that cannot be hoarded, flooded or hijacked: the entry's third state (stopped: sessions
-- in progress end), caps on workers and on sessions in progress, entry attempts for rate limits, the
-- MTurk site chosen by the campaign (never by the request), a public example that is not gold, and the
-- completion code of the new outcome `stopped`. Idempotent, like 0011.
CREATE TABLE IF NOT EXISTS "crowd_entry_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "crowd_entry_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crowd_entries" ADD COLUMN IF NOT EXISTS "stopped" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "crowd_entries" ADD COLUMN IF NOT EXISTS "max_workers" integer DEFAULT 200 NOT NULL;
--> statement-breakpoint
ALTER TABLE "crowd_entries" ADD COLUMN IF NOT EXISTS "max_sessions_in_progress" integer DEFAULT 50 NOT NULL;
--> statement-breakpoint
ALTER TABLE "crowd_entries" ADD COLUMN IF NOT EXISTS "mturk_site" text DEFAULT 'production' NOT NULL;
--> statement-breakpoint
ALTER TABLE "crowd_entries" ADD COLUMN IF NOT EXISTS "example" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- An entry whose sessions were submitted to the sandbox keeps submitting there.
UPDATE "crowd_entries" e SET "mturk_site" = 'sandbox'
WHERE e."platform" = 'mturk' AND EXISTS (SELECT 1 FROM "crowd_sessions" s WHERE s."campaign_id" = e."campaign_id" AND s."turk_submit_to" LIKE 'https://workersandbox.mturk.com%');
--> statement-breakpoint
-- The new outcome's code for every existing entry: 8 upper-case hex digits, unlike the generated ones (A–Z, 0–9) only by chance.
UPDATE "crowd_entries" SET "codes" = "codes" || jsonb_build_object('stopped', upper(substr(md5(random()::text || "campaign_id"::text), 1, 8)))
WHERE NOT ("codes" ? 'stopped');
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_entry_attempts" ADD CONSTRAINT "crowd_entry_attempts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crowd_entry_attempts_campaign_idx" ON "crowd_entry_attempts" USING btree ("campaign_id","created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crowd_entry_attempts_address_idx" ON "crowd_entry_attempts" USING btree ("address","created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crowd_sessions_in_progress_idx" ON "crowd_sessions" USING btree ("campaign_id","deadline_at") WHERE "crowd_sessions"."stage" <> 'ended';
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_entries" ADD CONSTRAINT "crowd_entries_mturk_site" CHECK ("crowd_entries"."mturk_site" in ('production', 'sandbox')); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_entries" ADD CONSTRAINT "crowd_entries_stopped_closed" CHECK (not ("crowd_entries"."enabled" and "crowd_entries"."stopped")); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "crowd_entries" ADD CONSTRAINT "crowd_entries_caps" CHECK ("crowd_entries"."max_workers" between 1 and 1000000 and "crowd_entries"."max_sessions_in_progress" between 1 and 100000); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
