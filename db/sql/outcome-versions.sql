-- Outcome versions: every write that may change what a campaign's outcomes are (and so its golds
-- and leaderboard) appends a row to outcome_version_deltas in the writing transaction: a judgment
-- (new, revised, undone), a passage's counters, a pause or resume of an annotator (a standing's
-- status), a batch's status or sealed settings, R, T or another campaign setting, an adjudication,
-- an import (queries, passages, batches), a page's text. The leaderboard cache
-- (lib/campaign/runs/score-cache.ts) keys its entries by the sum: a version that only grows and
-- grows with every such commit. Insert-only, so concurrent judgments never wait on a shared row;
-- kps_compact_outcome_versions folds the deltas into outcome_versions. Each delta names the question
-- its change is confined to (0: the whole campaign), so the cache can update only those questions.
--
-- The current definitions, re-applied after the migrations on every migrate (db/sql-rules.ts):
-- edit them here. db/sql-rules.int.test.ts checks that the live bodies equal these.

-- Rows written or deleted: each campaign they belong to changed, confined to a question where the
-- row belongs to one (a judgment or an adjudication by its passage, a passage, a question); a batch
-- written (imported, launched, paused, closed and sealed) changes its own questions, and a batch
-- deleted the whole campaign (query 0). A judgment whose passage is gone (a cascade) counts as wide.
CREATE OR REPLACE FUNCTION kps_outcome_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF TG_TABLE_NAME IN ('judgments', 'adjudications') THEN
      INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
      SELECT DISTINCT o.campaign_id, coalesce(p.query_id, 0), 1 FROM old_rows o LEFT JOIN passages p ON p.id = o.passage_id;
    ELSIF TG_TABLE_NAME = 'passages' THEN
      INSERT INTO outcome_version_deltas (campaign_id, query_id, changes) SELECT DISTINCT campaign_id, query_id, 1 FROM old_rows;
    ELSIF TG_TABLE_NAME = 'queries' THEN
      INSERT INTO outcome_version_deltas (campaign_id, query_id, changes) SELECT DISTINCT campaign_id, id, 1 FROM old_rows;
    ELSE
      INSERT INTO outcome_version_deltas (campaign_id, changes) SELECT DISTINCT campaign_id, 1 FROM old_rows;
    END IF;
  ELSIF TG_TABLE_NAME IN ('judgments', 'adjudications') THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
    SELECT DISTINCT n.campaign_id, coalesce(p.query_id, 0), 1 FROM new_rows n LEFT JOIN passages p ON p.id = n.passage_id;
  ELSIF TG_TABLE_NAME = 'passages' THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes) SELECT DISTINCT campaign_id, query_id, 1 FROM new_rows;
  ELSIF TG_TABLE_NAME = 'queries' THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes) SELECT DISTINCT campaign_id, id, 1 FROM new_rows;
  ELSIF TG_TABLE_NAME = 'batches' THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
    SELECT DISTINCT q.campaign_id, q.id, 1 FROM new_rows b JOIN queries q ON q.batch_id = b.id;
  ELSE
    INSERT INTO outcome_version_deltas (campaign_id, changes) SELECT DISTINCT campaign_id, 1 FROM new_rows;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Judgments updated (row by row, only when the trigger's WHEN sees more than `agrees` or
-- `counted_at_close` change: a revision, not the agreement that the tally triggers keep, nor the
-- seal of a closing batch, whose batch's own write names its questions): the passage's question.
CREATE OR REPLACE FUNCTION kps_judgment_outcomes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
  SELECT NEW.campaign_id, coalesce((SELECT p.query_id FROM passages p WHERE p.id = NEW.passage_id), 0), 1;
  IF OLD.passage_id IS DISTINCT FROM NEW.passage_id OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
    SELECT OLD.campaign_id, coalesce((SELECT p.query_id FROM passages p WHERE p.id = OLD.passage_id), 0), 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Annotator standings (row by row, only when the trigger's WHEN sees the status change: the gold
-- counters that every gold judgment moves change no outcome): a pause or a resume decides whose
-- judgments count, so it changes the questions whose passages that annotator judged in the campaign.
CREATE OR REPLACE FUNCTION kps_standing_outcomes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  campaign bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.campaign_id ELSE NEW.campaign_id END;
  annotator bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
BEGIN
  INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
  SELECT DISTINCT j.campaign_id, p.query_id, 1 FROM judgments j JOIN passages p ON p.id = j.passage_id
  WHERE j.user_id = annotator AND j.campaign_id = campaign;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Campaign settings: any change (R, T, early stop, aggregation, and any column added later) but
-- those no outcome is read from: the name and texts, the judging page's settings (answers shown,
-- who may judge, asking for a passage when none is sufficient, the lease), the gold rules applied
-- when a judgment is submitted (a pause they cause is a standing's change, below) and the
-- dashboard's warning thresholds.
CREATE OR REPLACE FUNCTION kps_campaign_outcomes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  no_outcome CONSTANT text[] := ARRAY['updated_at', 'name', 'instructions', 'session_goal', 'lease_seconds', 'show_answers',
    'all_annotators', 'ask_when_none_sufficient', 'gold_min_judgments', 'gold_accuracy_threshold', 'gold_span_slack',
    'warn_fast_share', 'warn_min_agreement', 'warn_min_judgments'];
BEGIN
  INSERT INTO outcome_version_deltas (campaign_id, changes)
  SELECT n.id, 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE to_jsonb(o) - no_outcome IS DISTINCT FROM to_jsonb(n) - no_outcome;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Pages: a changed title or text changes the golds of the questions with a passage on the page, an
-- evidence set's member included (a set passage's own page is its first member's): the change is
-- confined to those questions, so the leaderboard cache updates them alone. The changed pages are
-- gathered whole first: an EXISTS over the two transition tables was planned as a nested loop
-- (built to stop at a first match), which on an update that changes no title or text, such as an
-- index's `indexed_at` set on every page, compared every pair of rows (80,000 pages: minutes).
CREATE OR REPLACE FUNCTION kps_page_outcomes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  -- Planned at every call (EXECUTE), with the transition tables' true sizes: the plan a session
  -- cached after a few small updates (the index build's chunks) joined them by a nested loop, which
  -- on an update of every page (the index's clear) compared every pair of rows.
  EXECUTE 'SELECT array_agg(n.wikipedia_id) FROM new_rows n JOIN old_rows o ON o.wikipedia_id = n.wikipedia_id
    WHERE (o.title, o.paragraphs) IS DISTINCT FROM (n.title, n.paragraphs)' INTO changed;
  IF changed IS NOT NULL THEN
    INSERT INTO outcome_version_deltas (campaign_id, query_id, changes)
    SELECT campaign_id, query_id, 1 FROM (
      SELECT p.campaign_id, p.query_id FROM passages p WHERE p.wikipedia_id = ANY (changed)
      UNION
      SELECT p.campaign_id, p.query_id FROM passages p CROSS JOIN LATERAL jsonb_array_elements(p.set_members) m
      WHERE p.set_members IS NOT NULL AND m.value->>'wikipediaId' = ANY (changed)
    ) touched;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Folds the deltas into outcome_versions, per question and into the campaign's total (query -1);
-- one caller at a time (the others read versions + deltas).
CREATE OR REPLACE FUNCTION kps_compact_outcome_versions() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(72440318) THEN RETURN false; END IF;
  WITH d AS (DELETE FROM outcome_version_deltas RETURNING campaign_id, query_id, changes),
  folded AS (
    SELECT campaign_id, query_id, sum(changes) AS changes FROM d GROUP BY 1, 2
    UNION ALL SELECT campaign_id, -1, sum(changes) FROM d GROUP BY 1
  )
  INSERT INTO outcome_versions AS t (campaign_id, query_id, changes)
  SELECT campaign_id, query_id, changes FROM folded ORDER BY 1, 2
  ON CONFLICT (campaign_id, query_id) DO UPDATE SET changes = t.changes + excluded.changes;
  RETURN true;
END
$$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'judgments_outcomes_update' AND tgrelid = 'judgments'::regclass) THEN
    CREATE TRIGGER judgments_outcomes_update AFTER UPDATE ON judgments FOR EACH ROW WHEN ((((to_jsonb(old.*) - 'agrees'::text) - 'counted_at_close'::text) IS DISTINCT FROM ((to_jsonb(new.*) - 'agrees'::text) - 'counted_at_close'::text))) EXECUTE FUNCTION kps_judgment_outcomes_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'judgments_outcomes_delete' AND tgrelid = 'judgments'::regclass) THEN
    CREATE TRIGGER judgments_outcomes_delete AFTER DELETE ON judgments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'queries_outcomes_insert' AND tgrelid = 'queries'::regclass) THEN
    CREATE TRIGGER queries_outcomes_insert AFTER INSERT ON queries REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'queries_outcomes_update' AND tgrelid = 'queries'::regclass) THEN
    CREATE TRIGGER queries_outcomes_update AFTER UPDATE ON queries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'queries_outcomes_delete' AND tgrelid = 'queries'::regclass) THEN
    CREATE TRIGGER queries_outcomes_delete AFTER DELETE ON queries REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'batches_outcomes_insert' AND tgrelid = 'batches'::regclass) THEN
    CREATE TRIGGER batches_outcomes_insert AFTER INSERT ON batches REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'batches_outcomes_update' AND tgrelid = 'batches'::regclass) THEN
    CREATE TRIGGER batches_outcomes_update AFTER UPDATE ON batches REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'batches_outcomes_delete' AND tgrelid = 'batches'::regclass) THEN
    CREATE TRIGGER batches_outcomes_delete AFTER DELETE ON batches REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'adjudications_outcomes_insert' AND tgrelid = 'adjudications'::regclass) THEN
    CREATE TRIGGER adjudications_outcomes_insert AFTER INSERT ON adjudications REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'adjudications_outcomes_update' AND tgrelid = 'adjudications'::regclass) THEN
    CREATE TRIGGER adjudications_outcomes_update AFTER UPDATE ON adjudications REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'adjudications_outcomes_delete' AND tgrelid = 'adjudications'::regclass) THEN
    CREATE TRIGGER adjudications_outcomes_delete AFTER DELETE ON adjudications REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'passages_outcomes_insert' AND tgrelid = 'passages'::regclass) THEN
    CREATE TRIGGER passages_outcomes_insert AFTER INSERT ON passages REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'passages_outcomes_delete' AND tgrelid = 'passages'::regclass) THEN
    CREATE TRIGGER passages_outcomes_delete AFTER DELETE ON passages REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_outcome_rows_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'annotator_standings_outcomes_insert' AND tgrelid = 'annotator_standings'::regclass) THEN
    CREATE TRIGGER annotator_standings_outcomes_insert AFTER INSERT ON annotator_standings FOR EACH ROW WHEN ((new.status <> 'active'::standing_status)) EXECUTE FUNCTION kps_standing_outcomes_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'annotator_standings_outcomes_update' AND tgrelid = 'annotator_standings'::regclass) THEN
    CREATE TRIGGER annotator_standings_outcomes_update AFTER UPDATE ON annotator_standings FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION kps_standing_outcomes_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'annotator_standings_outcomes_delete' AND tgrelid = 'annotator_standings'::regclass) THEN
    CREATE TRIGGER annotator_standings_outcomes_delete AFTER DELETE ON annotator_standings FOR EACH ROW WHEN ((old.status <> 'active'::standing_status)) EXECUTE FUNCTION kps_standing_outcomes_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'campaigns_outcomes_update' AND tgrelid = 'campaigns'::regclass) THEN
    CREATE TRIGGER campaigns_outcomes_update AFTER UPDATE ON campaigns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_campaign_outcomes_changed();
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'pages_outcomes_update' AND tgrelid = 'pages'::regclass) THEN
    CREATE TRIGGER pages_outcomes_update AFTER UPDATE ON pages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kps_page_outcomes_changed();
  END IF;
END $$;
