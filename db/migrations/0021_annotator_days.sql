-- The judging page's "today": judgments per annotator, campaign and UTC day, kept by the judgments
-- insert trigger (db/sql/tallies.sql, whose version at this migration is below), so a task handed
-- out reads one row instead of counting every judgment of the annotator's day. Filled from the
-- judgments already stored, with inserts held off (SHARE lock) until the new trigger function is in
-- place: none is counted twice or missed.
CREATE TABLE "annotator_days" (
	"user_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"day" date NOT NULL,
	"judgments" integer NOT NULL,
	CONSTRAINT "annotator_days_user_id_campaign_id_day_pk" PRIMARY KEY("user_id","campaign_id","day")
);--> statement-breakpoint
LOCK TABLE "judgments" IN SHARE MODE;--> statement-breakpoint
CREATE OR REPLACE FUNCTION kps_judgments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO annotator_tally_deltas (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT campaign_id, user_id, kps_duration_bucket(duration_ms), count(*), count(agrees), count(*) FILTER (WHERE agrees)
  FROM new_rows GROUP BY 1, 2, 3;
  -- The judging page's "today" (UTC days): a row per annotator, which only their own judgments write.
  INSERT INTO annotator_days AS t (user_id, campaign_id, day, judgments)
  SELECT user_id, campaign_id, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (user_id, campaign_id, day) DO UPDATE SET judgments = t.judgments + excluded.judgments;
  INSERT INTO judgment_minute_deltas (campaign_id, batch_id, minute, judgments)
  SELECT campaign_id, batch_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*)
  FROM new_rows GROUP BY 1, 2, 3;
  -- The outcome versions (outcome-versions.sql), here rather than in a trigger of their own (as for
  -- passages above): the question of each judgment's passage (0, the whole campaign, if it is gone).
  INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
  SELECT DISTINCT n.campaign_id, coalesce(p.query_id, 0), 1 FROM new_rows n LEFT JOIN passages p ON p.id = n.passage_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO "annotator_days" ("user_id", "campaign_id", "day", "judgments")
SELECT "user_id", "campaign_id", ("created_at" AT TIME ZONE 'UTC')::date, count(*) FROM "judgments" GROUP BY 1, 2, 3;
