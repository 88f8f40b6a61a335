CREATE TABLE "leaderboard_question_golds_at_t" (
	"campaign_id" bigint NOT NULL,
	"t" integer NOT NULL,
	"query_id" bigint NOT NULL,
	"changes" bigint NOT NULL,
	"original_md5" text NOT NULL,
	"status" text NOT NULL,
	"entries" json NOT NULL,
	CONSTRAINT "leaderboard_question_golds_at_t_campaign_id_t_query_id_pk" PRIMARY KEY("campaign_id","t","query_id")
);
--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "r" integer;--> statement-breakpoint
ALTER TABLE "leaderboard_golds" ADD COLUMN "t" integer;--> statement-breakpoint
ALTER TABLE "leaderboard_question_golds_at_t" ADD CONSTRAINT "leaderboard_question_golds_at_t_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;