import { sql, TransactionRollbackError } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { describeEachDatabase } from "@/test/databases";
import { rowsOf } from "./client";
import { MIGRATION_LOCK_KEY } from "./migrate";
import { applySqlRules, checkSqlRules, readSqlRules, type SqlRules } from "./sql-rules";

describe("db/sql files", () => {
  it("hold each rule function and trigger once", () => {
    const rules = readSqlRules();
    expect(rules.functions.map((f) => `${f.file}: ${f.name}`).sort()).toEqual([
      "outcome-rules.sql: kps_agrees_with_outcome",
      "outcome-rules.sql: kps_closes_early",
      "outcome-rules.sql: kps_is_disputed",
      "outcome-rules.sql: kps_is_endorsed",
      "outcome-rules.sql: kps_is_finished",
      "outcome-rules.sql: kps_misses_gold",
      "outcome-versions.sql: kps_campaign_outcomes_changed",
      "outcome-versions.sql: kps_compact_outcome_versions",
      "outcome-versions.sql: kps_judgment_outcomes_changed",
      "outcome-versions.sql: kps_outcome_rows_changed",
      "outcome-versions.sql: kps_page_outcomes_changed",
      "outcome-versions.sql: kps_standing_outcomes_changed",
      "recounts.sql: kps_passage_outcomes",
      "recounts.sql: kps_rebuild_judgment_hours",
      "recounts.sql: kps_rebuild_tallies",
      "recounts.sql: kps_retally_outcomes",
      "search.sql: kps_fold",
      "tallies.sql: kps_compact_tallies",
      "tallies.sql: kps_duration_bucket",
      "tallies.sql: kps_judgments_inserted",
      "tallies.sql: kps_passages_deleted",
      "tallies.sql: kps_passages_inserted",
      "tallies.sql: kps_passages_updated",
      "tallies.sql: kps_utc_day",
    ]);
    expect(rules.triggers.map((t) => `${t.table}.${t.name}`).sort()).toEqual([
      "adjudications.adjudications_outcomes_delete",
      "adjudications.adjudications_outcomes_insert",
      "adjudications.adjudications_outcomes_update",
      "annotator_standings.annotator_standings_outcomes_delete",
      "annotator_standings.annotator_standings_outcomes_insert",
      "annotator_standings.annotator_standings_outcomes_update",
      "batches.batches_outcomes_delete",
      "batches.batches_outcomes_insert",
      "batches.batches_outcomes_update",
      "campaigns.campaigns_outcomes_update",
      "judgments.judgments_outcomes_delete",
      "judgments.judgments_outcomes_update",
      "judgments.judgments_tally_insert",
      "pages.pages_outcomes_update",
      "passages.passages_outcomes_delete",
      "passages.passages_outcomes_insert",
      "passages.passages_tally_delete",
      "passages.passages_tally_insert",
      "passages.passages_tally_update",
      "queries.queries_outcomes_delete",
      "queries.queries_outcomes_insert",
      "queries.queries_outcomes_update",
    ]);
  });
});

describeEachDatabase("db/sql against the migrated database", ({ db }) => {
  it("every live rule function's body equals its file, and every trigger of the files exists", async () => {
    expect(await checkSqlRules(db())).toEqual([]);
  });

  it("applies again without change (every migrate does)", async () => {
    // Under the migrations' lock, as every migrate applies them: two sessions replacing the same
    // function at once fail one of them ("tuple concurrently updated"), and on the shared server
    // another test file's migrate may be running.
    await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`);
      await applySqlRules(tx);
      await applySqlRules(tx);
    });
    expect(await checkSqlRules(db())).toEqual([]);
  });

  it("the passages trigger's outcome check names every column of passages but the claim counters", async () => {
    // kps_passages_updated bumps a question's outcome version when anything but claim_count and
    // open_slots changed on one of its passages, comparing the columns it names: a column added to
    // passages and not named there would change without a new version (a stale leaderboard).
    const body = readSqlRules().functions.find((f) => f.name === "kps_passages_updated")!.statement;
    const check = /WHERE\s*\(([^)]*)\)\s*IS DISTINCT FROM\s*\(([^)]*)\);/.exec(body);
    expect(check, "the (o.…) IS DISTINCT FROM (n.…) check in db/sql/tallies.sql").not.toBeNull();
    const named = (list: string, alias: string) =>
      list.split(",").map((item) => {
        const column = item.trim();
        expect(column.startsWith(`${alias}.`), `${column} in db/sql/tallies.sql`).toBe(true);
        return column.slice(alias.length + 1);
      });
    const before = named(check![1]!, "o");
    expect(named(check![2]!, "n")).toEqual(before);
    const columns = rowsOf<{ column_name: string }>(
      await db().execute(
        sql`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'passages'`,
      ),
    ).map((r) => r.column_name);
    expect(columns.length).toBeGreaterThan(20);
    const counters = ["id", "claim_count", "open_slots"];
    expect([...before].sort()).toEqual(columns.filter((c) => !counters.includes(c)).sort());
  });

  it("reports a function whose live body differs from its file", async () => {
    let problems: string[] = [];
    // In a transaction rolled back, under the migrations' lock: no other test on the shared server
    // sees the change, and no migrate replaces the function meanwhile.
    await db()
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`);
        await tx.execute(
          sql.raw(`CREATE OR REPLACE FUNCTION kps_is_disputed(judgment_count integer, sufficient_count integer) RETURNS boolean
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT sufficient_count > 1 AND sufficient_count < judgment_count $$`),
        );
        problems = await checkSqlRules(tx);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    expect(problems).toEqual(["function kps_is_disputed: its body differs from db/sql/outcome-rules.sql"]);
    expect(await checkSqlRules(db())).toEqual([]);
  });

  it("reports a trigger of the files that the database lacks, and a body that differs in more than whitespace", async () => {
    const rules = readSqlRules();
    const stricter = (f: SqlRules["functions"][number]) =>
      f.name === "kps_is_endorsed" ? { ...f, statement: f.statement.replace(">= threshold", "> threshold") } : f;
    const truncate = { name: "passages_tally_truncate", table: "passages", file: "tallies.sql", definition: "CREATE TRIGGER …" };
    const changed: SqlRules = { ...rules, functions: rules.functions.map(stricter), triggers: [...rules.triggers, truncate] };
    expect(await checkSqlRules(db(), changed)).toEqual([
      "function kps_is_endorsed: its body differs from db/sql/outcome-rules.sql",
      "trigger passages_tally_truncate on passages (db/sql/tallies.sql): missing from the database",
    ]);
    const relaid = (f: SqlRules["functions"][number]) => ({ ...f, statement: f.statement.replace(/\n\s*/g, "\n      ") });
    expect(await checkSqlRules(db(), { ...rules, functions: rules.functions.map(relaid) })).toEqual([]);
  });
});
