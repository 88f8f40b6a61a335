-- The triggers that keep the dashboard tallies (db/schema.ts, "Dashboard tallies"), and the fold
-- of their deltas. A passage is finished when decided or holding R counted judgments, endorsed when
-- T of them are sufficient, disputed when its counted verdicts differ (outcome-rules.sql).
-- Statement-level triggers with transition tables: one grouped write per statement, also for COPY
-- and multi-row recounts. Triggers are created only when missing (first defined in migration 0002;
-- the functions last replaced in 0003 and 0004).
--
-- The current definitions, re-applied after the migrations on every migrate (db/sql-rules.ts):
-- edit them here. A migration that changes a table these read, or must backfill with a new
-- version, defines that version too (migrations are history); db/sql-rules.int.test.ts checks
-- that the live bodies equal these. The path of one judgment through them: docs/judgment-path.md.

-- A judgment's duration in half-second buckets, up to 2 minutes (the annotator tallies' key).
CREATE OR REPLACE FUNCTION kps_duration_bucket(ms integer) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT least(ms / 500, 240)::smallint
$$;
--> statement-breakpoint
-- The judging page's day: a time's date in UTC, the key of annotator_days and the day of the task's
-- and the header's "today" (their readers call it with now(); inlined, so the key stays indexable).
CREATE OR REPLACE FUNCTION kps_utc_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (t AT TIME ZONE 'UTC')::date
$$;
--> statement-breakpoint
-- New passages: their cells of passage_tally_deltas, and their questions' counts in query_tallies.
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
-- Changed passages (a judgment, a revision, a recount, a close): their cells move; a change of
-- anything but the claim counters is an outcome version's; when their counted judgments or decision
-- change, their questions' counts and their judgments' agreement follow.
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

  -- The outcome versions (outcome-versions.sql), here rather than in a trigger of their own: every
  -- statement-level trigger costs its call on each judgment and claim, rows or not. Anything but the
  -- claim counters (a claim or its lease changes no outcome) changes the passage's question: every
  -- other column of passages, named (db/sql-rules.int.test.ts holds the list to the table's columns,
  -- so a column added later fails that test until it is listed here). Named rather than compared as
  -- jsonb minus the counters: that built two jsonb copies of each row on every claim and judgment.
  INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
  SELECT DISTINCT n.campaign_id, n.query_id, 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE
    (o.judgment_count, o.sufficient_count, o.is_decided, o.sealed_judgment_count, o.sealed_sufficient_count,
     o.sealed_is_decided, o.query_id, o.campaign_id, o.batch_id, o.wikipedia_id, o.start_paragraph_id,
     o.end_paragraph_id, o.is_gold, o.expected_verdict, o.expected_start_paragraph_id,
     o.expected_start_character, o.expected_end_paragraph_id, o.expected_end_character, o.created_at,
     o.is_training, o.is_decoy, o.explanation, o.set_key, o.origins, o.set_members)
    IS DISTINCT FROM
    (n.judgment_count, n.sufficient_count, n.is_decided, n.sealed_judgment_count, n.sealed_sufficient_count,
     n.sealed_is_decided, n.query_id, n.campaign_id, n.batch_id, n.wikipedia_id, n.start_paragraph_id,
     n.end_paragraph_id, n.is_gold, n.expected_verdict, n.expected_start_paragraph_id,
     n.expected_start_character, n.expected_end_paragraph_id, n.expected_end_character, n.created_at,
     n.is_training, n.is_decoy, n.explanation, n.set_key, n.origins, n.set_members);
  -- Only the claim counters changed (a claim handed out or ended): no counted judgment nor decision either.
  IF NOT FOUND THEN RETURN NULL; END IF;

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
-- Deleted passages leave their cells.
CREATE OR REPLACE FUNCTION kps_passages_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO passage_tally_deltas (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT campaign_id, batch_id, judgment_count, sufficient_count, -count(*), -sum(claim_count), -sum(open_slots), -count(*) FILTER (WHERE is_decided)
  FROM old_rows GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- New judgments: the annotator tallies, the annotator's day, the judgments per minute and the
-- outcome versions.
CREATE OR REPLACE FUNCTION kps_judgments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO annotator_tally_deltas (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT campaign_id, user_id, kps_duration_bucket(duration_ms), count(*), count(agrees), count(*) FILTER (WHERE agrees)
  FROM new_rows GROUP BY 1, 2, 3;
  -- The judging page's "today" (UTC days): a row per annotator, which only their own judgments write.
  INSERT INTO annotator_days AS t (user_id, campaign_id, day, judgments)
  SELECT user_id, campaign_id, kps_utc_day(created_at), count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
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
$$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'passages_tally_insert' AND tgrelid = 'passages'::regclass) THEN
    CREATE TRIGGER passages_tally_insert AFTER INSERT ON passages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_inserted();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'passages_tally_update' AND tgrelid = 'passages'::regclass) THEN
    CREATE TRIGGER passages_tally_update AFTER UPDATE ON passages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_updated();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'passages_tally_delete' AND tgrelid = 'passages'::regclass) THEN
    CREATE TRIGGER passages_tally_delete AFTER DELETE ON passages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_deleted();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'judgments_tally_insert' AND tgrelid = 'judgments'::regclass) THEN
    CREATE TRIGGER judgments_tally_insert AFTER INSERT ON judgments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_judgments_inserted();
  END IF;
END $$;
--> statement-breakpoint
-- Folds the deltas into the tallies (the minute deltas into the minutes and the hours); one caller
-- at a time, the others read tallies + deltas.
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
