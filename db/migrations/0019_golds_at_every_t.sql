-- The leaderboard cache is dropped: its per-question golds now name the T they were read at, and the
-- first read after this migration computes every campaign's figures afresh.
DELETE FROM "leaderboard_scores";--> statement-breakpoint
DELETE FROM "leaderboard_question_golds";--> statement-breakpoint
DELETE FROM "leaderboard_golds";--> statement-breakpoint
ALTER TABLE "leaderboard_question_golds" DROP CONSTRAINT "leaderboard_question_golds_campaign_id_query_id_pk";--> statement-breakpoint
ALTER TABLE "leaderboard_question_golds" ADD COLUMN "t" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "leaderboard_question_golds" ADD CONSTRAINT "leaderboard_question_golds_campaign_id_t_query_id_pk" PRIMARY KEY("campaign_id","t","query_id");--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "r" integer;--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "t" integer;
