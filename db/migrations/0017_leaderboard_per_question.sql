CREATE TABLE "leaderboard_question_golds" (
	"campaign_id" bigint NOT NULL,
	"query_id" bigint NOT NULL,
	"changes" bigint NOT NULL,
	"original_md5" text NOT NULL,
	"status" text NOT NULL,
	"entries" json NOT NULL,
	CONSTRAINT "leaderboard_question_golds_campaign_id_query_id_pk" PRIMARY KEY("campaign_id","query_id")
);
--> statement-breakpoint
ALTER TABLE "outcome_versions" DROP CONSTRAINT "outcome_versions_pkey";--> statement-breakpoint
ALTER TABLE "outcome_versions" ADD COLUMN "query_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outcome_versions" ADD CONSTRAINT "outcome_versions_campaign_id_query_id_pk" PRIMARY KEY("campaign_id","query_id");--> statement-breakpoint
-- The folded changes so far were the campaigns' totals: they stay the version (query -1) and count as campaign-wide (query 0).
INSERT INTO "outcome_versions" ("campaign_id", "query_id", "changes") SELECT "campaign_id", -1, "changes" FROM "outcome_versions" WHERE "query_id" = 0;--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "wide" bigint DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "increments" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outcome_version_deltas" ADD COLUMN "query_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboard_question_golds" ADD CONSTRAINT "leaderboard_question_golds_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;
