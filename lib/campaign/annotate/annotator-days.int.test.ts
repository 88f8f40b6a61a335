import fs from "node:fs";
import path from "node:path";
import { sql, TransactionRollbackError } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { MIGRATION_LOCK_KEY } from "@/db/migrate";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask } from "./assignment";
import { submitJudgment } from "./judgments";
import { getMyProgress } from "./my-progress";

/** annotator_days of these campaigns, and the same figures counted from their judgments. */
async function daysAndRecount(db: Db | Tx, campaignIds: number[]): Promise<{ kept: string[]; counted: string[] }> {
  const ids = sql.raw(campaignIds.join(", "));
  const kept = rowsOf<{ row: string }>(
    await db.execute(sql`select concat_ws(' ', user_id, campaign_id, day, judgments) as row from annotator_days
      where campaign_id in (${ids}) order by 1`),
  ).map((r) => r.row);
  const counted = rowsOf<{ row: string }>(
    await db.execute(sql`select concat_ws(' ', user_id, campaign_id, (created_at at time zone 'UTC')::date, count(*)) as row from judgments
      where campaign_id in (${ids}) group by user_id, campaign_id, (created_at at time zone 'UTC')::date order by 1`),
  ).map((r) => r.row);
  return { kept, counted };
}

describeEachDatabase("an annotator's judgments of the day (annotator_days)", ({ db }) => {
  it("counts each annotator's judgments of the UTC day per campaign, on the task handed out and in the header", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 2 });
    const d = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const [me, other] = [await makeAnnotator(db()), await makeAnnotator(db())];
    const judge = async (who: typeof me, campaignId: number, n: number) => {
      for (let i = 0; i < n; i++) {
        const t = (await nextTask(db(), who, { campaignId }))!;
        await submitJudgment(db(), who, t.claim.handle, judgmentOf(t, i % 2 ? "sufficient" : "insufficient"));
      }
    };
    await judge(me, c.campaignId, 3);
    await judge(me, d.campaignId, 1);
    await judge(other, c.campaignId, 2);

    const task = (await nextTask(db(), me, { campaignId: c.campaignId }))!;
    expect(task.progress.judgedToday).toBe(3);
    expect((await getMyProgress(db(), me, c.campaignId)).judgedToday).toBe(3);
    expect((await getMyProgress(db(), me, d.campaignId)).judgedToday).toBe(1);
    expect((await getMyProgress(db(), other, c.campaignId)).judgedToday).toBe(2);

    // A judgment of yesterday (UTC) is a row of its own, not today's; two annotators' judgments in
    // one statement each reach their own row.
    const [first] = rowsOf<{ passage_id: number; batch_id: number }>(
      await db().execute(sql`select id as passage_id, batch_id from passages where campaign_id = ${c.campaignId} order by id desc limit 1`),
    );
    await db()
      .execute(sql`insert into judgments (passage_id, user_id, campaign_id, batch_id, verdict, duration_ms, idempotency_key, request_hash, created_at)
      values (${first!.passage_id}, ${me.id}, ${c.campaignId}, ${first!.batch_id}, 'insufficient', 1000, 'yesterday', 'h',
              date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '1 second')`);
    const [second] = rowsOf<{ id: number; batch_id: number }>(
      await db().execute(sql`select id, batch_id from passages where campaign_id = ${c.campaignId} order by id desc offset 1 limit 1`),
    );
    await db()
      .execute(sql`insert into judgments (passage_id, user_id, campaign_id, batch_id, verdict, duration_ms, idempotency_key, request_hash)
      values (${second!.id}, ${me.id}, ${c.campaignId}, ${second!.batch_id}, 'insufficient', 1000, 'both-1', 'h'),
             (${second!.id}, ${other.id}, ${c.campaignId}, ${second!.batch_id}, 'insufficient', 1000, 'both-2', 'h')`);
    expect((await getMyProgress(db(), me, c.campaignId)).judgedToday).toBe(4);
    expect((await getMyProgress(db(), other, c.campaignId)).judgedToday).toBe(3);

    const { kept, counted } = await daysAndRecount(db(), [c.campaignId, d.campaignId]);
    expect(kept).toHaveLength(4); // me × (c today, c yesterday, d today), other × c today
    expect(kept).toEqual(counted);

    // The tallies' rebuild and the migration that made the table both fill it from the judgments, with
    // the same figures (in a transaction rolled back, under the migrations' lock, as the rules test does).
    const migration = fs.readFileSync(path.join(process.cwd(), "db/migrations/0021_annotator_days.sql"), "utf8");
    const statements = migration
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => !/CREATE TABLE/.test(s));
    expect(statements.at(-1)).toMatch(/^INSERT INTO "annotator_days"/);
    for (const fill of ["rebuild", "migration"] as const) {
      let seen: { kept: string[]; counted: string[] } | undefined;
      await db()
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}::bigint)`);
          if (fill === "rebuild") {
            await tx.execute(sql`update annotator_days set judgments = judgments + 5 where campaign_id = ${c.campaignId}`);
            await tx.execute(sql`select kps_rebuild_tallies(${c.campaignId}::bigint)`);
          } else {
            // The judgments' lock first, as the migration takes it: other tests' inserts wait for it
            // (and it for them) before any row of annotator_days is held here, so none can deadlock.
            await tx.execute(sql`lock table judgments in share mode`);
            await tx.execute(sql`delete from annotator_days`);
            for (const statement of statements) await tx.execute(sql.raw(statement));
          }
          seen = await daysAndRecount(tx, [c.campaignId, d.campaignId]);
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        });
      expect(seen, fill).toEqual({ kept, counted });
    }
  });
});
