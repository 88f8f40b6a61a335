import type { PGlite, Transaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import { expect, it } from "vitest";
import { rawClientOf, type Db } from "@/db/client";
import { judgmentOf, makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
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
    const client: PGlite = raw.client;
    wrap(client, "query", (a) => statements.push(text(a)));
    wrap(client, "exec", (a) => statements.push(text(a)));
    const transaction = client.transaction.bind(client);
    (client as unknown as Record<string, unknown>).transaction = async <R>(fn: (tx: Transaction) => Promise<R>) => {
      statements.push("begin");
      try {
        return await transaction(async (tx) => {
          const query = tx.query.bind(tx);
          const exec = tx.exec.bind(tx);
          const counted = Object.assign(Object.create(tx) as Transaction, {
            query: (...a: Parameters<Transaction["query"]>) => (statements.push(text(a)), query(...a)),
            exec: (...a: Parameters<Transaction["exec"]>) => (statements.push(text(a)), exec(...a)),
          });
          return fn(counted);
        });
      } finally {
        statements.push("commit/rollback");
      }
    };
    restore.push(() => ((client as unknown as Record<string, unknown>).transaction = transaction));
  } else {
    const client: postgres.Sql = raw.client;
    wrap(client, "unsafe", (a) => statements.push(text(a)));
    const begin = client.begin.bind(client);
    (client as unknown as Record<string, unknown>).begin = async (fn: (sql: postgres.TransactionSql) => unknown) => {
      // postgres.js sends its "begin" through `unsafe` (counted above), its "commit" not.
      try {
        return await begin(async (sql) => {
          const unsafe = sql.unsafe.bind(sql);
          (sql as unknown as Record<string, unknown>).unsafe = (...a: Parameters<typeof sql.unsafe>) => (statements.push(text(a)), unsafe(...a));
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

describeEachDatabase("the judgment's statements", ({ db }) => {
  it("a judgment (span, gold or not) is begin, two statements, commit; a replay is begin, one statement, commit", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 1 });
    const a = await makeAnnotator(db());
    let judged = 0;
    for (let t = await nextTask(db(), a, { campaignId: c.campaignId }); t; t = await nextTask(db(), a, { campaignId: c.campaignId })) {
      const input = judgmentOf(t, "sufficient");
      const { statements } = await countStatements(db(), () => submitJudgment(db(), a, t!.claim.handle, input));
      expect(statements, statements.join("\n")).toHaveLength(4);
      judged++;
      const replay = await countStatements(db(), () => submitJudgment(db(), a, t!.claim.handle, input));
      expect(replay.result.replayed).toBe(true);
      expect(replay.statements).toHaveLength(3);
    }
    expect(judged).toBe(4); // 2 questions × (1 gold + 1 candidate)
  });
});
