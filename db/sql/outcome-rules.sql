-- The outcome rules, once (lib/campaign/quality/outcome.ts holds the same in TypeScript).
-- Plain SQL expressions the planner inlines (LANGUAGE sql IMMUTABLE, one SELECT), so a query or
-- trigger that calls them costs what it cost with the expression written in place. The counts are
-- a passage's counted judgments (`judgment_count`, `sufficient_count`); R and T are the campaign's.
-- First defined in migration 0004.
--
-- The current definitions, re-applied after the migrations on every migrate (db/sql-rules.ts):
-- edit them here. A migration that changes a table these read, or must backfill with a new
-- version, defines that version too (migrations are history); db/sql-rules.int.test.ts checks
-- that the live bodies equal these. The path of one judgment through them: docs/judgment-path.md.

-- Endorsed: at least T of the counted judgments say sufficient.
CREATE OR REPLACE FUNCTION kps_is_endorsed(sufficient_count integer, threshold integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sufficient_count >= threshold
$$;
--> statement-breakpoint
-- Finished: closed by early stop, or holding R counted judgments.
CREATE OR REPLACE FUNCTION kps_is_finished(is_decided boolean, judgment_count integer, judgments_per_passage integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT is_decided OR judgment_count >= judgments_per_passage
$$;
--> statement-breakpoint
-- Disputed: the counted verdicts differ.
CREATE OR REPLACE FUNCTION kps_is_disputed(judgment_count integer, sufficient_count integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sufficient_count > 0 AND sufficient_count < judgment_count
$$;
--> statement-breakpoint
-- Closed early: early stop is on and the outcome cannot change any more (endorsed already, or too
-- many insufficient verdicts for the open slots to reach T).
CREATE OR REPLACE FUNCTION kps_closes_early(early_stop boolean, judgment_count integer, sufficient_count integer, judgments_per_passage integer, threshold integer) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT early_stop AND (kps_is_endorsed(sufficient_count, threshold) OR judgment_count - sufficient_count > judgments_per_passage - threshold)
$$;
--> statement-breakpoint
-- Missed gold: a gold passage expected sufficient finished without endorsement; its question is
-- unanswerable from the snapshot.
CREATE OR REPLACE FUNCTION kps_misses_gold(is_gold boolean, expected_verdict verdict, is_finished boolean, is_endorsed boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT is_gold AND expected_verdict = 'sufficient' AND is_finished AND NOT is_endorsed
$$;
--> statement-breakpoint
-- Agreement of one judgment with its passage's outcome; null while the passage is not finished.
CREATE OR REPLACE FUNCTION kps_agrees_with_outcome(judged verdict, is_finished boolean, is_endorsed boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN is_finished THEN (judged = 'sufficient') = is_endorsed END
$$;
