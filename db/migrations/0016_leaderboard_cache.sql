CREATE TABLE "leaderboard_golds" (
	"campaign_id" bigint PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"counts" json NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaderboard_scores" (
	"run_id" bigint NOT NULL,
	"gold" text NOT NULL,
	"levels" text NOT NULL,
	"ks" text NOT NULL,
	"campaign_id" bigint NOT NULL,
	"version" bigint NOT NULL,
	"value" json NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "leaderboard_scores_run_id_gold_levels_ks_pk" PRIMARY KEY("run_id","gold","levels","ks")
);
--> statement-breakpoint
CREATE TABLE "outcome_version_deltas" (
	"campaign_id" bigint NOT NULL,
	"changes" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outcome_versions" (
	"campaign_id" bigint PRIMARY KEY NOT NULL,
	"changes" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD CONSTRAINT "leaderboard_golds_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_scores" ADD CONSTRAINT "leaderboard_scores_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaderboard_scores" ADD CONSTRAINT "leaderboard_scores_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_scores_campaign_idx" ON "leaderboard_scores" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "outcome_version_deltas_campaign_idx" ON "outcome_version_deltas" USING btree ("campaign_id");