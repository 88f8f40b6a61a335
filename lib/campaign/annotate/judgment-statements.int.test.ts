import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { expect, it } from "vitest";
import { rawClientOf, type Db } from "@/db/client";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase, testDatabaseUrl } from "@/test/databases";
import { countPgliteStatements } from "@/test/pglite-statements";
import { passages } from "@/db/schema";
import { nextTask } from "./assignment";
import { submitJudgment } from "./judgments";

/**
 * Counts the statements a call sends to the database, begin and commit included, by wrapping the
 * driver client's own methods (the statements still run). Restores them afterwards.
 */
async function countStatements<T>(db: Db, body: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const raw = rawClientOf(db);
  const statements: string[] = [];
  const restore: (() => void)[] = [];
  const wrap = <O extends object>(o: O, name: keyof O & string, onCall: (args: unknown[]) => void) => {
    const original = o[name] as unknown as (...a: unknown[]) => unknown;
    (o as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      onCall(args);
      return original.apply(this, args);
    };
    restore.push(() => ((o as Record<string, unknown>)[name] = original));
  };
  const text = (a: unknown[]) => String(a[0]).trim().replace(/\s+/g, " ").slice(0, 60);
  if (raw.kind === "pglite") {
    restore.push(countPgliteStatements(raw.client, (statement) => statements.push(statement)));
  } else {
    const client: postgres.Sql = raw.client;
    wrap(client, "unsafe", (a) => statements.push(text(a)));
    const begin = client.begin.bind(client);
    (client as unknown as Record<string, unknown>).begin = async (fn: (sql: postgres.TransactionSql) => unknown) => {
      // postgres.js sends its "begin" through `unsafe` (counted above), its "commit" not.
      try {
        return await begin(async (sql) => {
          const unsafe = sql.unsafe.bind(sql);
          (sql as unknown as Record<string, unknown>).unsafe = (...a: Parameters<typeof sql.unsafe>) => (
            statements.push(text(a)),
            unsafe(...a)
          );
          return fn(sql);
        });
      } finally {
        statements.push("commit/rollback");
      }
    };
    restore.push(() => ((client as unknown as Record<string, unknown>).begin = begin));
  }
  try {
    return { result: await body(), statements };
  } finally {
    restore.reverse().forEach((r) => r());
  }
}

describeEachDatabase("the judgment's statements", ({ db, kind }) => {
  it("a judgment (span, gold or not) is two statements and no transaction around them; a replay is one statement", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const a = await makeAnnotator(db());
    let judged = 0;
    for (let t = await nextTask(db(), a, { campaignId: c.campaignId }); t; t = await nextTask(db(), a, { campaignId: c.campaignId })) {
      const input = judgmentOf(t, "sufficient");
      const { statements } = await countStatements(db(), () => submitJudgment(db(), a, t!.claim.handle, input));
      expect(statements, statements.join("\n")).toHaveLength(2);
      expect(statements.some((s) => /^(begin|commit)/i.test(s))).toBe(false);
      judged++;
      const replay = await countStatements(db(), () => submitJudgment(db(), a, t!.claim.handle, input));
      expect(replay.result.replayed).toBe(true);
      expect(replay.statements, replay.statements.join("\n")).toHaveLength(1);
    }
    expect(judged).toBe(4); // 2 questions × (1 gold + 1 candidate)
  });

  it("a judgment waiting for its claim while a pause of its annotator commits is refused (403), not counted", async () => {
    if (kind !== "postgres") return; // needs a second connection: PGlite has one
    const c = await makeCampaign(db(), { queries: 1, candidates: 1 });
    const a = await makeAnnotator(db());
    const t = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
    const { claimId, passageId } = await idsOfTask(db(), t);
    const other = postgres(testDatabaseUrl()!, { max: 1, onnotice: () => {} });
    try {
      // What pausing does, held open: the standing, the claim ended, its slot reopened. The judgment
      // starts once all three are done (and not yet committed).
      let changed!: () => void;
      const pauseChanged = new Promise<void>((resolve) => (changed = resolve));
      const pausing = other.begin(async (sql) => {
        await sql`insert into annotator_standings (campaign_id, user_id, status, pause_reason, paused_at) values (${c.campaignId}, ${a.id}, 'paused', 'coordinator', now())`;
        await sql`update claims set ended_at = now() where id = ${claimId}`;
        await sql`update passages set claim_count = claim_count - 1, open_slots = open_slots + 1 where id = ${passageId}`;
        changed();
        await new Promise((r) => setTimeout(r, 500));
      });
      await pauseChanged;
      const judging = submitJudgment(db(), a, t.claim.handle, judgmentOf(t, "insufficient"));
      await pausing;
      await expect(judging).rejects.toMatchObject({ status: 403, details: { paused: true } });
      const [p] = await db().select().from(passages).where(eq(passages.id, passageId));
      expect(p).toMatchObject({ judgmentCount: 0, claimCount: 0, openSlots: 3 });
    } finally {
      await other.end();
    }
  });
  it("a deleted campaign or batch takes its judgments and claims with its passages (their own campaign and batch have no key)", async () => {
    for (const table of ["batches", "campaigns"] as const) {
      const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
      const a = await makeAnnotator(db());
      const judged = (await nextTask(db(), a, { campaignId: c.campaignId }))!;
      await submitJudgment(db(), a, judged.claim.handle, judgmentOf(judged, "insufficient"));
      await nextTask(db(), a, { campaignId: c.campaignId }); // a live claim too
      const count = async () => {
        const [row] = await db()
          .select({
            j: sql<number>`(select count(*)::int from judgments where campaign_id = ${c.campaignId})`,
            c: sql<number>`(select count(*)::int from claims where campaign_id = ${c.campaignId})`,
          })
          .from(sql`(select 1) one`);
        return row!;
      };
      expect(await count()).toEqual({ j: 1, c: 2 });
      await db().execute(sql`delete from ${sql.identifier(table)} where id = ${table === "batches" ? c.batchId : c.campaignId}`);
      expect(await count()).toEqual({ j: 0, c: 0 });
    }
  });
});
