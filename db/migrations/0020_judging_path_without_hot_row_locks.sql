ALTER TABLE "claims" DROP CONSTRAINT "claims_campaign_id_campaigns_id_fk";
--> statement-breakpoint
ALTER TABLE "judgments" DROP CONSTRAINT "judgments_campaign_id_campaigns_id_fk";
--> statement-breakpoint
ALTER TABLE "judgments" DROP CONSTRAINT "judgments_batch_id_batches_id_fk";
