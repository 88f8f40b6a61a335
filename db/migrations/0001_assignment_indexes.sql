DROP INDEX "passages_open_idx";--> statement-breakpoint
ALTER TABLE "passages" ADD COLUMN "is_decided" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "claims_user_campaign_idx" ON "claims" USING btree ("user_id","campaign_id","id");--> statement-breakpoint
CREATE INDEX "judgments_user_idx" ON "judgments" USING btree ("user_id","campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "passages_batch_idx" ON "passages" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "passages_open_idx" ON "passages" USING btree ("campaign_id","open_slots","query_id","id") WHERE "passages"."open_slots" > 0;