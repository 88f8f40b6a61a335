-- ── The outcome rules, once (lib/campaign/quality/outcome.ts holds the same in TypeScript) ──
-- Plain SQL expressions the planner inlines (LANGUAGE sql IMMUTABLE, one SELECT), so a query or
-- trigger that calls them costs what it cost with the expression written in place. The counts are
-- a passage's counted judgments (`judgment_count`, `sufficient_count`); R and T are the campaign's.
-- Endorsed: at least T of the counted judgments say sufficient.
CREATE FUNCTION kps_is_endorsed(sufficient_count integer, threshold integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sufficient_count >= threshold
$$;
--> statement-breakpoint
-- Finished: closed by early stop, or holding R counted judgments.
CREATE FUNCTION kps_is_finished(is_decided boolean, judgment_count integer, judgments_per_passage integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT is_decided OR judgment_count >= judgments_per_passage
$$;
--> statement-breakpoint
-- Disputed: the counted verdicts differ.
CREATE FUNCTION kps_is_disputed(judgment_count integer, sufficient_count integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sufficient_count > 0 AND sufficient_count < judgment_count
$$;
--> statement-breakpoint
-- Closed early: early stop is on and the outcome cannot change any more (endorsed already, or too
-- many insufficient verdicts for the open slots to reach T).
CREATE FUNCTION kps_closes_early(early_stop boolean, judgment_count integer, sufficient_count integer, judgments_per_passage integer, threshold integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT early_stop AND (kps_is_endorsed(sufficient_count, threshold) OR judgment_count - sufficient_count > judgments_per_passage - threshold)
$$;
--> statement-breakpoint
-- Missed gold: a gold passage expected sufficient finished without endorsement; its question is
-- unanswerable from the snapshot.
CREATE FUNCTION kps_misses_gold(is_gold boolean, expected_verdict verdict, is_finished boolean, is_endorsed boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT is_gold AND expected_verdict = 'sufficient' AND is_finished AND NOT is_endorsed
$$;
--> statement-breakpoint
-- Agreement of one judgment with its passage's outcome; null while the passage is not finished.
CREATE FUNCTION kps_agrees_with_outcome(judged verdict, is_finished boolean, is_endorsed boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN is_finished THEN (judged = 'sufficient') = is_endorsed END
$$;
--> statement-breakpoint
-- ── The functions of 0002 that wrote the rules out, now calling them (same behaviour) ──
CREATE OR REPLACE FUNCTION kps_passages_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO passage_tally_deltas (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT campaign_id, batch_id, judgment_count, sufficient_count, count(*), sum(claim_count), sum(open_slots), count(*) FILTER (WHERE is_decided)
  FROM new_rows GROUP BY 1, 2, 3, 4;

  INSERT INTO query_tallies AS t (query_id, campaign_id, batch_id, passages, finished, endorsed, disputed, gold_missed)
  SELECT query_id, min(campaign_id), min(batch_id), count(*),
    count(*) FILTER (WHERE is_finished), count(*) FILTER (WHERE is_endorsed), count(*) FILTER (WHERE is_disputed),
    count(*) FILTER (WHERE kps_misses_gold(is_gold, expected_verdict, is_finished, is_endorsed))
  FROM (
    SELECT n.query_id, n.campaign_id, n.batch_id, n.is_gold, n.expected_verdict,
      kps_is_finished(n.is_decided, n.judgment_count, c.judgments_per_passage) AS is_finished,
      kps_is_endorsed(n.sufficient_count, c.endorsement_threshold) AS is_endorsed,
      kps_is_disputed(n.judgment_count, n.sufficient_count) AS is_disputed
    FROM new_rows n JOIN campaigns c ON c.id = n.campaign_id
  ) s
  GROUP BY query_id ORDER BY query_id
  ON CONFLICT (query_id) DO UPDATE SET
    passages = t.passages + excluded.passages, finished = t.finished + excluded.finished,
    endorsed = t.endorsed + excluded.endorsed, disputed = t.disputed + excluded.disputed,
    gold_missed = t.gold_missed + excluded.gold_missed;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION kps_passages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Move each changed passage from its old cell to its new one.
  INSERT INTO passage_tally_deltas (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT campaign_id, batch_id, judgment_count, sufficient_count, sum(n), sum(c), sum(o), sum(d) FROM (
    SELECT campaign_id, batch_id, judgment_count, sufficient_count, -1 AS n, -claim_count AS c, -open_slots AS o, -(is_decided::int) AS d FROM old_rows
    UNION ALL
    SELECT campaign_id, batch_id, judgment_count, sufficient_count, 1, claim_count, open_slots, is_decided::int FROM new_rows
  ) moved
  GROUP BY 1, 2, 3, 4
  HAVING sum(n) <> 0 OR sum(c) <> 0 OR sum(o) <> 0 OR sum(d) <> 0;

  -- Questions and agreement change only when a passage's counted judgments or decision change.
  -- Those depend on R and T: hold the campaign's shared lock, so a change of R or T
  -- (kps_retally_outcomes, exclusive) waits for this transaction, and this one for it.
  PERFORM pg_advisory_xact_lock_shared(72440317, (campaign_id % 2147483647)::int)
  FROM (SELECT DISTINCT n.campaign_id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE o.judgment_count <> n.judgment_count OR o.sufficient_count <> n.sufficient_count OR o.is_decided <> n.is_decided
        ORDER BY 1) changed;
  WITH states AS (
    SELECT n.id, n.query_id, n.campaign_id, n.batch_id, n.is_gold, n.expected_verdict,
      kps_is_finished(o.is_decided, o.judgment_count, c.judgments_per_passage) AS was_finished,
      kps_is_finished(n.is_decided, n.judgment_count, c.judgments_per_passage) AS is_finished,
      kps_is_endorsed(o.sufficient_count, c.endorsement_threshold) AS was_endorsed,
      kps_is_endorsed(n.sufficient_count, c.endorsement_threshold) AS is_endorsed,
      kps_is_disputed(o.judgment_count, o.sufficient_count) AS was_disputed,
      kps_is_disputed(n.judgment_count, n.sufficient_count) AS is_disputed
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaigns c ON c.id = n.campaign_id
    WHERE o.judgment_count <> n.judgment_count OR o.sufficient_count <> n.sufficient_count OR o.is_decided <> n.is_decided
  ), questions AS (
    INSERT INTO query_tallies AS t (query_id, campaign_id, batch_id, passages, finished, endorsed, disputed, gold_missed)
    SELECT query_id, min(campaign_id), min(batch_id), 0,
      sum(is_finished::int - was_finished::int), sum(is_endorsed::int - was_endorsed::int), sum(is_disputed::int - was_disputed::int),
      sum(kps_misses_gold(is_gold, expected_verdict, is_finished, is_endorsed)::int - kps_misses_gold(is_gold, expected_verdict, was_finished, was_endorsed)::int)
    FROM states
    WHERE was_finished <> is_finished OR was_endorsed <> is_endorsed OR was_disputed <> is_disputed
    GROUP BY query_id ORDER BY query_id
    ON CONFLICT (query_id) DO UPDATE SET
      finished = t.finished + excluded.finished, endorsed = t.endorsed + excluded.endorsed,
      disputed = t.disputed + excluded.disputed, gold_missed = t.gold_missed + excluded.gold_missed
    RETURNING 1
  ), target AS (
    -- Agreement with the majority: every judgment of a finished passage is compared with its outcome.
    SELECT j.id, j.campaign_id, j.user_id, j.duration_ms, j.agrees AS agrees_was,
      kps_agrees_with_outcome(j.verdict, s.is_finished, s.is_endorsed) AS agrees_now
    FROM states s JOIN judgments j ON j.passage_id = s.id
    WHERE s.was_finished OR s.is_finished
  ), changed AS (
    UPDATE judgments j SET agrees = target.agrees_now FROM target
    WHERE j.id = target.id AND j.agrees IS DISTINCT FROM target.agrees_now
    RETURNING target.campaign_id, target.user_id, target.duration_ms, target.agrees_was, target.agrees_now
  )
  INSERT INTO annotator_tally_deltas (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT campaign_id, user_id, kps_duration_bucket(duration_ms), 0,
    sum((agrees_now IS NOT NULL)::int - (agrees_was IS NOT NULL)::int), sum(coalesce(agrees_now::int, 0) - coalesce(agrees_was::int, 0))
  FROM changed GROUP BY 1, 2, 3;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Each passage's outcome under the campaign's current R and T (for the recomputations below).
CREATE FUNCTION kps_passage_outcomes(cid bigint)
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
-- As in 0002: after R or T changes, recomputes what depends on them for one campaign.
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
-- As in 0002: recomputes every tally of one campaign from the passages and judgments.
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
