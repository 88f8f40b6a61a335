CREATE TYPE "public"."batch_status" AS ENUM('draft', 'launched', 'paused', 'closed');--> statement-breakpoint
CREATE TYPE "public"."pause_reason" AS ENUM('coordinator', 'gold_rule');--> statement-breakpoint
CREATE TYPE "public"."standing_status" AS ENUM('active', 'paused');--> statement-breakpoint
CREATE TYPE "public"."user_role" AS ENUM('coordinator', 'annotator');--> statement-breakpoint
CREATE TYPE "public"."verdict" AS ENUM('sufficient', 'insufficient');--> statement-breakpoint
CREATE TABLE "annotator_standings" (
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"status" "standing_status" DEFAULT 'active' NOT NULL,
	"pause_reason" "pause_reason",
	"paused_at" timestamp with time zone,
	"paused_by" bigint,
	"gold_judged" integer DEFAULT 0 NOT NULL,
	"gold_correct" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annotator_standings_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id"),
	CONSTRAINT "annotator_standings_pause_reason" CHECK (("annotator_standings"."status" = 'paused') = ("annotator_standings"."pause_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"name" text NOT NULL,
	"status" "batch_status" DEFAULT 'draft' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"launched_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "campaign_members" (
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_members_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "campaigns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"judgments_per_passage" smallint DEFAULT 3 NOT NULL,
	"endorsement_threshold" smallint DEFAULT 2 NOT NULL,
	"show_answers" boolean DEFAULT false NOT NULL,
	"gold_min_judgments" integer DEFAULT 5 NOT NULL,
	"gold_accuracy_threshold" real DEFAULT 0.7 NOT NULL,
	"lease_seconds" integer DEFAULT 600 NOT NULL,
	"early_stop" boolean DEFAULT false NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"all_annotators" boolean DEFAULT true NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_r_range" CHECK ("campaigns"."judgments_per_passage" between 1 and 9),
	CONSTRAINT "campaigns_t_range" CHECK ("campaigns"."endorsement_threshold" between 1 and "campaigns"."judgments_per_passage"),
	CONSTRAINT "campaigns_gold_threshold_range" CHECK ("campaigns"."gold_accuracy_threshold" between 0 and 1),
	CONSTRAINT "campaigns_gold_min_positive" CHECK ("campaigns"."gold_min_judgments" >= 0),
	CONSTRAINT "campaigns_lease_range" CHECK ("campaigns"."lease_seconds" between 30 and 86400)
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"passage_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invites_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"role" "user_role" NOT NULL,
	"user_id" bigint,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" bigint
);
--> statement-breakpoint
CREATE TABLE "judgments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "judgments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"passage_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"claim_id" bigint,
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"verdict" "verdict" NOT NULL,
	"unreadable" boolean DEFAULT false NOT NULL,
	"start_paragraph_id" integer,
	"start_character" integer,
	"end_paragraph_id" integer,
	"end_character" integer,
	"span_text" text,
	"duration_ms" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "judgments_span_iff_sufficient" CHECK (("judgments"."verdict" = 'sufficient') = ("judgments"."span_text" is not null
        and "judgments"."start_paragraph_id" is not null and "judgments"."start_character" is not null
        and "judgments"."end_paragraph_id" is not null and "judgments"."end_character" is not null)),
	CONSTRAINT "judgments_unreadable_insufficient" CHECK (not "judgments"."unreadable" or "judgments"."verdict" = 'insufficient'),
	CONSTRAINT "judgments_duration_nonnegative" CHECK ("judgments"."duration_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"wikipedia_id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"paragraphs" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "passages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"query_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"wikipedia_id" text NOT NULL,
	"start_paragraph_id" integer NOT NULL,
	"end_paragraph_id" integer NOT NULL,
	"origins" jsonb NOT NULL,
	"is_gold" boolean DEFAULT false NOT NULL,
	"expected_verdict" "verdict",
	"expected_start_paragraph_id" integer,
	"expected_start_character" integer,
	"expected_end_paragraph_id" integer,
	"expected_end_character" integer,
	"judgment_count" smallint DEFAULT 0 NOT NULL,
	"sufficient_count" smallint DEFAULT 0 NOT NULL,
	"claim_count" smallint DEFAULT 0 NOT NULL,
	"open_slots" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passages_paragraph_range" CHECK (0 <= "passages"."start_paragraph_id" and "passages"."start_paragraph_id" <= "passages"."end_paragraph_id"),
	CONSTRAINT "passages_counts_nonnegative" CHECK ("passages"."judgment_count" >= 0 and "passages"."claim_count" >= 0 and "passages"."open_slots" >= 0),
	CONSTRAINT "passages_gold_verdict" CHECK (("passages"."is_gold") = ("passages"."expected_verdict" is not null))
);
--> statement-breakpoint
CREATE TABLE "queries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"kilt_id" text NOT NULL,
	"input" text NOT NULL,
	"answers" text[] DEFAULT '{}'::text[] NOT NULL,
	"original_line" text NOT NULL,
	"line_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "sign_in_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sign_in_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"role" "user_role" NOT NULL,
	"password_hash" text,
	"pseudonym" text NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "annotator_standings" ADD CONSTRAINT "annotator_standings_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotator_standings" ADD CONSTRAINT "annotator_standings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotator_standings" ADD CONSTRAINT "annotator_standings_paused_by_users_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_members" ADD CONSTRAINT "campaign_members_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_members" ADD CONSTRAINT "campaign_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passages" ADD CONSTRAINT "passages_wikipedia_id_pages_wikipedia_id_fk" FOREIGN KEY ("wikipedia_id") REFERENCES "public"."pages"("wikipedia_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queries" ADD CONSTRAINT "queries_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "batches_campaign_idx" ON "batches" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "campaign_members_user_idx" ON "campaign_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_passage_user_key" ON "claims" USING btree ("passage_id","user_id");--> statement-breakpoint
CREATE INDEX "claims_live_idx" ON "claims" USING btree ("expires_at") WHERE "claims"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "claims_user_live_idx" ON "claims" USING btree ("user_id","campaign_id") WHERE "claims"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_token_hash_key" ON "invites" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "judgments_passage_user_key" ON "judgments" USING btree ("passage_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "judgments_user_idempotency_key" ON "judgments" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "judgments_campaign_idx" ON "judgments" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "passages_location_key" ON "passages" USING btree ("query_id","wikipedia_id","start_paragraph_id","end_paragraph_id");--> statement-breakpoint
CREATE INDEX "passages_query_idx" ON "passages" USING btree ("query_id");--> statement-breakpoint
CREATE INDEX "passages_open_idx" ON "passages" USING btree ("campaign_id","query_id") WHERE "passages"."open_slots" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "queries_campaign_kilt_id_key" ON "queries" USING btree ("campaign_id","kilt_id");--> statement-breakpoint
CREATE INDEX "queries_batch_idx" ON "queries" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_username_idx" ON "sign_in_attempts" USING btree (lower("username"),"created_at");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_address_idx" ON "sign_in_attempts" USING btree ("address","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_pseudonym_key" ON "users" USING btree ("pseudonym");