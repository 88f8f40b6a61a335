CREATE TABLE "annotator_tallies" (
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"duration_bucket" smallint NOT NULL,
	"judgments" integer NOT NULL,
	"compared" integer NOT NULL,
	"agreed" integer NOT NULL,
	CONSTRAINT "annotator_tallies_campaign_id_user_id_duration_bucket_pk" PRIMARY KEY("campaign_id","user_id","duration_bucket")
);
--> statement-breakpoint
CREATE TABLE "annotator_tally_deltas" (
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"duration_bucket" smallint NOT NULL,
	"judgments" integer NOT NULL,
	"compared" integer NOT NULL,
	"agreed" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "judgment_minute_deltas" (
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"judgments" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "judgment_minutes" (
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"judgments" integer NOT NULL,
	CONSTRAINT "judgment_minutes_batch_id_minute_pk" PRIMARY KEY("batch_id","minute")
);
--> statement-breakpoint
CREATE TABLE "passage_tallies" (
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"judgment_count" smallint NOT NULL,
	"sufficient_count" smallint NOT NULL,
	"passages" bigint NOT NULL,
	"claimed" bigint NOT NULL,
	"open" bigint NOT NULL,
	"decided" bigint NOT NULL,
	CONSTRAINT "passage_tallies_batch_id_judgment_count_sufficient_count_pk" PRIMARY KEY("batch_id","judgment_count","sufficient_count")
);
--> statement-breakpoint
CREATE TABLE "passage_tally_deltas" (
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"judgment_count" smallint NOT NULL,
	"sufficient_count" smallint NOT NULL,
	"passages" bigint NOT NULL,
	"claimed" bigint NOT NULL,
	"open" bigint NOT NULL,
	"decided" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_tallies" (
	"query_id" bigint PRIMARY KEY NOT NULL,
	"campaign_id" bigint NOT NULL,
	"batch_id" bigint NOT NULL,
	"passages" integer NOT NULL,
	"finished" integer NOT NULL,
	"endorsed" integer NOT NULL,
	"disputed" integer NOT NULL,
	"gold_missed" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "query_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "passage_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "gold_passage_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "page_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "judgments" ADD COLUMN "agrees" boolean;--> statement-breakpoint
ALTER TABLE "query_tallies" ADD CONSTRAINT "query_tallies_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "judgment_minutes_campaign_idx" ON "judgment_minutes" USING btree ("campaign_id","minute");--> statement-breakpoint
CREATE INDEX "passage_tallies_campaign_idx" ON "passage_tallies" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "query_tallies_unanswerable_idx" ON "query_tallies" USING btree ("campaign_id") WHERE "query_tallies"."gold_missed" > 0;--> statement-breakpoint
CREATE INDEX "query_tallies_answered_idx" ON "query_tallies" USING btree ("campaign_id") WHERE "query_tallies"."endorsed" > 0;--> statement-breakpoint
CREATE INDEX "query_tallies_disputed_idx" ON "query_tallies" USING btree ("campaign_id","disputed","query_id") WHERE "query_tallies"."disputed" > 0;--> statement-breakpoint
-- ── Triggers that keep the dashboard tallies (see db/schema.ts, "Dashboard tallies") ──
-- A passage is finished when decided or holding R counted judgments, endorsed when T of them are
-- sufficient, disputed when its counted verdicts differ. Statement-level triggers with transition
-- tables: one grouped write per statement, also for COPY and multi-row recounts.
CREATE FUNCTION kps_duration_bucket(ms integer) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT least(ms / 500, 240)::smallint
$$;
--> statement-breakpoint
CREATE FUNCTION kps_passages_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO passage_tally_deltas (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT campaign_id, batch_id, judgment_count, sufficient_count, count(*), sum(claim_count), sum(open_slots), count(*) FILTER (WHERE is_decided)
  FROM new_rows GROUP BY 1, 2, 3, 4;

  INSERT INTO query_tallies AS t (query_id, campaign_id, batch_id, passages, finished, endorsed, disputed, gold_missed)
  SELECT n.query_id, min(n.campaign_id), min(n.batch_id), count(*),
    count(*) FILTER (WHERE n.is_decided OR n.judgment_count >= c.judgments_per_passage),
    count(*) FILTER (WHERE n.sufficient_count >= c.endorsement_threshold),
    count(*) FILTER (WHERE n.sufficient_count > 0 AND n.sufficient_count < n.judgment_count),
    count(*) FILTER (WHERE n.is_gold AND n.expected_verdict = 'sufficient'
                       AND (n.is_decided OR n.judgment_count >= c.judgments_per_passage) AND n.sufficient_count < c.endorsement_threshold)
  FROM new_rows n JOIN campaigns c ON c.id = n.campaign_id
  GROUP BY n.query_id ORDER BY n.query_id
  ON CONFLICT (query_id) DO UPDATE SET
    passages = t.passages + excluded.passages, finished = t.finished + excluded.finished,
    endorsed = t.endorsed + excluded.endorsed, disputed = t.disputed + excluded.disputed,
    gold_missed = t.gold_missed + excluded.gold_missed;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION kps_passages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
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
    SELECT n.id, n.query_id, n.campaign_id, n.batch_id,
      o.is_decided OR o.judgment_count >= c.judgments_per_passage AS was_finished,
      n.is_decided OR n.judgment_count >= c.judgments_per_passage AS is_finished,
      o.sufficient_count >= c.endorsement_threshold AS was_endorsed,
      n.sufficient_count >= c.endorsement_threshold AS is_endorsed,
      o.sufficient_count > 0 AND o.sufficient_count < o.judgment_count AS was_disputed,
      n.sufficient_count > 0 AND n.sufficient_count < n.judgment_count AS is_disputed,
      n.is_gold AND n.expected_verdict = 'sufficient' AS sufficient_gold
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaigns c ON c.id = n.campaign_id
    WHERE o.judgment_count <> n.judgment_count OR o.sufficient_count <> n.sufficient_count OR o.is_decided <> n.is_decided
  ), questions AS (
    INSERT INTO query_tallies AS t (query_id, campaign_id, batch_id, passages, finished, endorsed, disputed, gold_missed)
    SELECT query_id, min(campaign_id), min(batch_id), 0,
      sum(is_finished::int - was_finished::int), sum(is_endorsed::int - was_endorsed::int), sum(is_disputed::int - was_disputed::int),
      sum((sufficient_gold AND is_finished AND NOT is_endorsed)::int - (sufficient_gold AND was_finished AND NOT was_endorsed)::int)
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
      CASE WHEN s.is_finished THEN (j.verdict = 'sufficient') = s.is_endorsed END AS agrees_now
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
CREATE FUNCTION kps_passages_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO passage_tally_deltas (campaign_id, batch_id, judgment_count, sufficient_count, passages, claimed, open, decided)
  SELECT campaign_id, batch_id, judgment_count, sufficient_count, -count(*), -sum(claim_count), -sum(open_slots), -count(*) FILTER (WHERE is_decided)
  FROM old_rows GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION kps_judgments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO annotator_tally_deltas (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
  SELECT campaign_id, user_id, kps_duration_bucket(duration_ms), count(*), count(agrees), count(*) FILTER (WHERE agrees)
  FROM new_rows GROUP BY 1, 2, 3;
  INSERT INTO judgment_minute_deltas (campaign_id, batch_id, minute, judgments)
  SELECT campaign_id, batch_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00'), count(*)
  FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER passages_tally_insert AFTER INSERT ON passages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_inserted();
--> statement-breakpoint
CREATE TRIGGER passages_tally_update AFTER UPDATE ON passages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_updated();
--> statement-breakpoint
CREATE TRIGGER passages_tally_delete AFTER DELETE ON passages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_passages_deleted();
--> statement-breakpoint
CREATE TRIGGER judgments_tally_insert AFTER INSERT ON judgments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_judgments_inserted();
--> statement-breakpoint
-- Folds the deltas into the tallies; one caller at a time, the others read tallies + deltas.
CREATE FUNCTION kps_compact_tallies() RETURNS boolean LANGUAGE plpgsql AS $$
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

  WITH d AS (DELETE FROM judgment_minute_deltas RETURNING *)
  INSERT INTO judgment_minutes AS t (campaign_id, batch_id, minute, judgments)
  SELECT min(campaign_id), batch_id, minute, sum(judgments) FROM d GROUP BY 2, 3 ORDER BY 2, 3
  ON CONFLICT (batch_id, minute) DO UPDATE SET judgments = t.judgments + excluded.judgments;
  RETURN true;
END
$$;
--> statement-breakpoint
-- After R or T changes: recomputes what depends on them (agreement with the outcome, finished,
-- endorsed and missed-gold counts of questions) for one campaign. The exclusive lock waits for the
-- transactions that changed passage outcomes with the old values and holds off new ones.
CREATE FUNCTION kps_retally_outcomes(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(72440317, (cid % 2147483647)::int);
  WITH target AS (
    SELECT j.id, j.user_id, j.duration_ms, j.agrees AS agrees_was,
      CASE WHEN p.is_decided OR p.judgment_count >= c.judgments_per_passage
           THEN (j.verdict = 'sufficient') = (p.sufficient_count >= c.endorsement_threshold) END AS agrees_now
    FROM judgments j JOIN passages p ON p.id = j.passage_id JOIN campaigns c ON c.id = p.campaign_id
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
    SELECT p.query_id,
      count(*) FILTER (WHERE p.is_decided OR p.judgment_count >= c.judgments_per_passage) AS finished,
      count(*) FILTER (WHERE p.sufficient_count >= c.endorsement_threshold) AS endorsed,
      count(*) FILTER (WHERE p.is_gold AND p.expected_verdict = 'sufficient'
                         AND (p.is_decided OR p.judgment_count >= c.judgments_per_passage) AND p.sufficient_count < c.endorsement_threshold) AS gold_missed
    FROM passages p JOIN campaigns c ON c.id = p.campaign_id
    WHERE p.campaign_id = cid GROUP BY p.query_id
  ) x
  WHERE t.query_id = x.query_id AND (t.finished, t.endorsed, t.gold_missed) IS DISTINCT FROM (x.finished, x.endorsed, x.gold_missed);
END
$$;
--> statement-breakpoint
-- Recomputes every tally of one campaign from the passages and judgments: fills the tallies of
-- campaigns that existed before this migration (run once, below; writers wait meanwhile).
CREATE FUNCTION kps_rebuild_tallies(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE passages, judgments IN SHARE MODE;
  UPDATE judgments j SET agrees = s.agrees_now
  FROM (
    SELECT j2.id, CASE WHEN p.is_decided OR p.judgment_count >= c.judgments_per_passage
                  THEN (j2.verdict = 'sufficient') = (p.sufficient_count >= c.endorsement_threshold) END AS agrees_now
    FROM judgments j2 JOIN passages p ON p.id = j2.passage_id JOIN campaigns c ON c.id = p.campaign_id
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
  SELECT p.query_id, cid, min(p.batch_id), count(*),
    count(*) FILTER (WHERE p.is_decided OR p.judgment_count >= c.judgments_per_passage),
    count(*) FILTER (WHERE p.sufficient_count >= c.endorsement_threshold),
    count(*) FILTER (WHERE p.sufficient_count > 0 AND p.sufficient_count < p.judgment_count),
    count(*) FILTER (WHERE p.is_gold AND p.expected_verdict = 'sufficient'
                       AND (p.is_decided OR p.judgment_count >= c.judgments_per_passage) AND p.sufficient_count < c.endorsement_threshold)
  FROM passages p JOIN campaigns c ON c.id = p.campaign_id
  WHERE p.campaign_id = cid GROUP BY p.query_id;
END
$$;
--> statement-breakpoint
SELECT kps_rebuild_tallies(id) FROM campaigns;
--> statement-breakpoint
-- Batch sizes, counted once at import from now on.
UPDATE batches b SET
  query_count = (SELECT count(*) FROM queries q WHERE q.batch_id = b.id),
  passage_count = (SELECT count(*) FROM passages p WHERE p.batch_id = b.id),
  gold_passage_count = (SELECT count(*) FROM passages p WHERE p.batch_id = b.id AND p.is_gold),
  page_count = (SELECT count(DISTINCT p.wikipedia_id) FROM passages p WHERE p.batch_id = b.id);
