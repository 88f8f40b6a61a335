CREATE TABLE "judgment_hours" (
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"judgments" integer NOT NULL,
	CONSTRAINT "judgment_hours_batch_id_hour_pk" PRIMARY KEY("batch_id","hour")
);
--> statement-breakpoint
CREATE INDEX "judgment_hours_campaign_idx" ON "judgment_hours" USING btree ("campaign_id","hour");--> statement-breakpoint
-- Fills the hours of one campaign from its folded minutes (the pending minute deltas reach the
-- hours when they are folded). Holds the compaction lock, so no fold runs meanwhile.
CREATE FUNCTION kps_rebuild_judgment_hours(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(72440316);
  DELETE FROM judgment_hours WHERE campaign_id = cid;
  INSERT INTO judgment_hours (campaign_id, batch_id, hour, judgments)
  SELECT cid, batch_id, date_bin('1 hour', minute, timestamptz '2000-01-01 00:00:00+00'), sum(judgments)
  FROM judgment_minutes WHERE campaign_id = cid GROUP BY 2, 3;
END
$$;
--> statement-breakpoint
-- As in 0002, but the minute deltas are folded into the hours as well as into the minutes.
CREATE OR REPLACE FUNCTION kps_compact_tallies() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(72440316) THEN RETURN false; END IF;
  WITH d AS (DELETE FROM passage_tally_deltas RETURNING *)
  INSERT INTO passage_tallies AS t (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT min(campaign_id), batch_id, judgment_count, sufficient_count, sum(passages), sum(claimed), sum(open), sum(decided)
  FROM d GROUP BY batch_id, judgment_count, sufficient_count ORDER BY 2, 3, 4
  ON CONFLICT (batch_id, judgment_count, sufficient_count) DO UPDATE SET
    passages = t.passages + excluded.passages, claimed = t.claimed + excluded.claimed,
    open = t.open + excluded.open, decided = t.decided + excluded.decided;
  DELETE FROM passage_tallies WHERE passages = 0 AND claimed = 0 AND open = 0 AND decided = 0;

  WITH d AS (DELETE FROM annotator_tally_deltas RETURNING *)
  INSERT INTO annotator_tallies AS t (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT campaign_id, user_id, duration_bucket, sum(judgments), sum(compared), sum(agreed)
  FROM d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (campaign_id, user_id, duration_bucket) DO UPDATE SET
    judgments = t.judgments + excluded.judgments, compared = t.compared + excluded.compared, agreed = t.agreed + excluded.agreed;
  DELETE FROM annotator_tallies WHERE judgments = 0 AND compared = 0 AND agreed = 0;

  WITH d AS (DELETE FROM judgment_minute_deltas RETURNING *),
  m AS (
    INSERT INTO judgment_minutes AS t (campaign_id, batch_id, minute, judgments)
    SELECT min(campaign_id), batch_id, minute, sum(judgments) FROM d GROUP BY 2, 3 ORDER BY 2, 3
    ON CONFLICT (batch_id, minute) DO UPDATE SET judgments = t.judgments + excluded.judgments
  )
  INSERT INTO judgment_hours AS t (campaign_id, batch_id, hour, judgments)
  SELECT min(campaign_id), batch_id, date_bin('1 hour', minute, timestamptz '2000-01-01 00:00:00+00'), sum(judgments)
  FROM d GROUP BY 2, 3 ORDER BY 2, 3
  ON CONFLICT (batch_id, hour) DO UPDATE SET judgments = t.judgments + excluded.judgments;
  RETURN true;
END
$$;
--> statement-breakpoint
SELECT kps_rebuild_judgment_hours(id) FROM campaigns;
