-- Recounts: what depends on a campaign's R and T, or every tally of one campaign, computed again
-- from its passages and judgments (first defined in migrations 0002 and 0003, last replaced in 0004).
--
-- The current definitions, re-applied after the migrations on every migrate (db/sql-rules.ts):
-- edit them here. A migration that changes a table these read, or must backfill with a new
-- version, defines that version too (migrations are history); db/sql-rules.int.test.ts checks
-- that the live bodies equal these. The path of one judgment through them: docs/judgment-path.md.

-- Each passage's outcome under the campaign's current R and T (for the recomputations below).
CREATE OR REPLACE FUNCTION kps_passage_outcomes(cid bigint)
RETURNS TABLE (id bigint, query_id bigint, batch_id bigint, is_finished boolean, is_endorsed boolean, is_disputed boolean, misses_gold boolean)
LANGUAGE sql STABLE AS $$
  SELECT id, query_id, batch_id, is_finished, is_endorsed, kps_is_disputed(judgment_count, sufficient_count),
    kps_misses_gold(is_gold, expected_verdict, is_finished, is_endorsed)
  FROM (
    SELECT p.id, p.query_id, p.batch_id, p.judgment_count, p.sufficient_count, p.is_gold, p.expected_verdict,
      kps_is_finished(p.is_decided, p.judgment_count, c.judgments_per_passage) AS is_finished,
      kps_is_endorsed(p.sufficient_count, c.endorsement_threshold) AS is_endorsed
    FROM passages p JOIN campaigns c ON c.id = p.campaign_id
    WHERE p.campaign_id = cid
  ) s
$$;
--> statement-breakpoint
-- After R or T changes: recomputes what depends on them (agreement with the outcome, finished,
-- endorsed and missed-gold counts of questions) for one campaign. The exclusive lock waits for the
-- transactions that changed passage outcomes with the old values and holds off new ones.
CREATE OR REPLACE FUNCTION kps_retally_outcomes(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(72440317, (cid % 2147483647)::int);
  WITH target AS (
    SELECT j.id, j.user_id, j.duration_ms, j.agrees AS agrees_was,
      kps_agrees_with_outcome(j.verdict, o.is_finished, o.is_endorsed) AS agrees_now
    FROM judgments j JOIN kps_passage_outcomes(cid) o ON o.id = j.passage_id
    WHERE j.campaign_id = cid
  ), changed AS (
    UPDATE judgments j SET agrees = target.agrees_now FROM target
    WHERE j.id = target.id AND j.agrees IS DISTINCT FROM target.agrees_now
    RETURNING target.user_id, target.duration_ms, target.agrees_was, target.agrees_now
  )
  INSERT INTO annotator_tally_deltas (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT cid, user_id, kps_duration_bucket(duration_ms), 0,
    sum((agrees_now IS NOT NULL)::int - (agrees_was IS NOT NULL)::int), sum(coalesce(agrees_now::int, 0) - coalesce(agrees_was::int, 0))
  FROM changed GROUP BY 2, 3;

  UPDATE query_tallies t SET finished = x.finished, endorsed = x.endorsed, gold_missed = x.gold_missed
  FROM (
    SELECT o.query_id, count(*) FILTER (WHERE o.is_finished) AS finished, count(*) FILTER (WHERE o.is_endorsed) AS endorsed,
      count(*) FILTER (WHERE o.misses_gold) AS gold_missed
    FROM kps_passage_outcomes(cid) o GROUP BY o.query_id
  ) x
  WHERE t.query_id = x.query_id AND (t.finished, t.endorsed, t.gold_missed) IS DISTINCT FROM (x.finished, x.endorsed, x.gold_missed);
END
$$;
--> statement-breakpoint
-- Recomputes every tally of one campaign from the passages and judgments.
CREATE OR REPLACE FUNCTION kps_rebuild_tallies(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE passages, judgments IN SHARE MODE;
  UPDATE judgments j SET agrees = s.agrees_now
  FROM (
    SELECT j2.id, kps_agrees_with_outcome(j2.verdict, o.is_finished, o.is_endorsed) AS agrees_now
    FROM judgments j2 JOIN kps_passage_outcomes(cid) o ON o.id = j2.passage_id
    WHERE j2.campaign_id = cid
  ) s
  WHERE j.id = s.id AND j.agrees IS DISTINCT FROM s.agrees_now;

  DELETE FROM passage_tally_deltas WHERE campaign_id = cid;
  DELETE FROM passage_tallies WHERE campaign_id = cid;
  INSERT INTO passage_tallies (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT cid, batch_id, judgment_count, sufficient_count, count(*), sum(claim_count), sum(open_slots), count(*) FILTER (WHERE is_decided)
  FROM passages WHERE campaign_id = cid GROUP BY 2, 3, 4;

  DELETE FROM annotator_tally_deltas WHERE campaign_id = cid;
  DELETE FROM annotator_tallies WHERE campaign_id = cid;
  INSERT INTO annotator_tallies (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT cid, user_id, kps_duration_bucket(duration_ms), count(*), count(agrees), count(*) FILTER (WHERE agrees)
  FROM judgments WHERE campaign_id = cid GROUP BY 2, 3;

  DELETE FROM annotator_days WHERE campaign_id = cid;
  INSERT INTO annotator_days (user_id, campaign_id, day, judgments)
  SELECT user_id, cid, kps_utc_day(created_at), count(*) FROM judgments WHERE campaign_id = cid GROUP BY 1, 3;

  DELETE FROM judgment_minute_deltas WHERE campaign_id = cid;
  DELETE FROM judgment_minutes WHERE campaign_id = cid;
  INSERT INTO judgment_minutes (campaign_id, batch_id, minute, judgments)
  SELECT cid, batch_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*)
  FROM judgments WHERE campaign_id = cid GROUP BY 2, 3;

  DELETE FROM query_tallies WHERE campaign_id = cid;
  INSERT INTO query_tallies (query_id, campaign_id, batch_id, passages, finished, endorsed, disputed, gold_missed)
  SELECT o.query_id, cid, min(o.batch_id), count(*), count(*) FILTER (WHERE o.is_finished), count(*) FILTER (WHERE o.is_endorsed),
    count(*) FILTER (WHERE o.is_disputed), count(*) FILTER (WHERE o.misses_gold)
  FROM kps_passage_outcomes(cid) o GROUP BY o.query_id;
END
$$;
--> statement-breakpoint
-- Fills the hours of one campaign from its folded minutes (the pending minute deltas reach the
-- hours when they are folded). Holds the compaction lock, so no fold runs meanwhile.
CREATE OR REPLACE FUNCTION kps_rebuild_judgment_hours(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(72440316);
  DELETE FROM judgment_hours WHERE campaign_id = cid;
  INSERT INTO judgment_hours (campaign_id, batch_id, hour, judgments)
  SELECT cid, batch_id, date_bin('1 hour', minute, timestamptz '2000-01-01 00:00:00+00'), sum(judgments)
  FROM judgment_minutes WHERE campaign_id = cid GROUP BY 2, 3;
END
$$;
