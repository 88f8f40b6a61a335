import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import postgres from "postgres";
import { testDatabaseUrl } from "@/test/databases";
import { openDatabase, rowsOf, type DatabaseHandle } from "./client";
import { migrateDatabase } from "./migrate";

const expectedTables = [
  "adjudications",
  "annotator_days",
  "annotator_standings",
  "annotator_tallies",
  "annotator_tally_deltas",
  "api_tokens",
  "app_meta",
  "audit_log",
  "batches",
  "campaign_members",
  "campaigns",
  "claims",
  "crowd_entries",
  "crowd_entry_attempts",
  "crowd_sessions",
  "crowd_workers",
  "explanations",
  "invites",
  "judgment_hours",
  "judgment_minute_deltas",
  "judgment_minutes",
  "judgment_versions",
  "judgments",
  "leaderboard_golds",
  "leaderboard_question_golds",
  "leaderboard_scores",
  "outcome_version_deltas",
  "outcome_versions",
  "pages",
  "paragraph_index",
  "passage_tallies",
  "passage_tally_deltas",
  "passages",
  "proposals",
  "queries",
  "query_tallies",
  "run_predictions",
  "runs",
  "sessions",
  "sign_in_attempts",
  "training_answers",
  "users",
];

async function tableNames(handle: DatabaseHandle): Promise<string[]> {
  const result = await handle.db.execute<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rowsOf<{ table_name: string }>(result).map((r) => r.table_name);
}

describe("migrations", () => {
  it("apply to an empty PGlite, twice without error", async () => {
    const handle = await openDatabase({ memory: true });
    try {
      await migrateDatabase(handle);
      await migrateDatabase(handle);
      expect(await tableNames(handle)).toEqual(expectedTables);
    } finally {
      await handle.close();
    }
  });

  const url = testDatabaseUrl();
  it.runIf(url)("apply to an empty PostgreSQL database, from several processes at once", async () => {
    const name = `kps_migrate_${randomBytes(4).toString("hex")}`;
    const admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(url!);
    target.pathname = `/${name}`;
    const handles = await Promise.all([openDatabase({ url: target.toString() }), openDatabase({ url: target.toString() })]);
    try {
      await Promise.all(handles.map((h) => migrateDatabase(h)));
      expect(await tableNames(handles[0]!)).toEqual(expectedTables);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await admin.unsafe(`drop database ${name}`);
      await admin.end();
    }
  });
});
