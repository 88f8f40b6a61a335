-- Fewer trigger calls per judgment. Every statement-level trigger costs its call on each statement,
-- whatever the number of rows: the outcome versions of passages and of new judgments move into the
-- tally triggers that fire on the same statements (db/sql/tallies.sql), and those of changed
-- judgments and standings become row-level triggers whose WHEN lets through only a change that can
-- move an outcome (db/sql/outcome-versions.sql creates them after the migrations).
DROP TRIGGER IF EXISTS passages_outcomes_update ON passages;--> statement-breakpoint
DROP TRIGGER IF EXISTS judgments_outcomes_insert ON judgments;--> statement-breakpoint
DROP TRIGGER IF EXISTS judgments_outcomes_update ON judgments;--> statement-breakpoint
DROP TRIGGER IF EXISTS annotator_standings_outcomes_insert ON annotator_standings;--> statement-breakpoint
DROP TRIGGER IF EXISTS annotator_standings_outcomes_update ON annotator_standings;--> statement-breakpoint
DROP TRIGGER IF EXISTS annotator_standings_outcomes_delete ON annotator_standings;--> statement-breakpoint
DROP FUNCTION IF EXISTS kps_passage_outcomes_changed();
