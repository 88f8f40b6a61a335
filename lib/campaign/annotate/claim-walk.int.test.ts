import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rawClientOf, rowsOf, type Db } from "@/db/client";
import type { UserActor } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { idsOfTask } from "@/test/claims";
import { describeEachDatabase, testDatabaseKinds } from "@/test/databases";
import { nextTask } from "./assignment";

/**
 * The claim of a new question (claim-next.internal.ts, `anywhere`): the fullest passage first, then
 * by question, then the annotator's own order, md5(passage id : annotator id), skipping the rows
 * other claims hold (SKIP LOCKED). A two-step version (the first group from the index, then its
 * passages) read 4 rows instead of about 34 and passed these tests, but cost PostgreSQL as much
 * CPU per judgment in the bench (bench/annotate/README.md): these tests keep the order either way.
 */

/** The passages of a campaign's question (by its position in the import), in `annotator`'s own order. */
async function passagesInOrderOf(db: Db, campaignId: number, question: number, annotator: UserActor): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select p.id::float8 as id from passages p
      where p.query_id = (select id from queries where campaign_id = ${campaignId} order by id offset ${question} limit 1)
      order by md5(p.id::text || ':' || ${annotator.id}::bigint::text)`),
  );
  return rows.map((r) => Number(r.id));
}

async function passageOfNext(db: Db, annotator: UserActor, campaignId: number): Promise<number> {
  const task = await nextTask(db, annotator, { campaignId });
  if (!task) throw new Error("no task");
  return (await idsOfTask(db, task)).passageId;
}

describeEachDatabase("the claim of a new question", ({ db }) => {
  it("enters the first question at the annotator's own first passage when every question is as full", async () => {
    // Three campaigns, an annotator each: four passages a question, so an order other than the
    // annotator's own (the index's, by id) would give another passage first in some of them.
    for (let i = 0; i < 3; i++) {
      const c = await makeCampaign(db(), { queries: 3, candidates: 3 });
      const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
      const first = (await passagesInOrderOf(db(), c.campaignId, 0, a))[0];
      expect(await passageOfNext(db(), a, c.campaignId)).toBe(first);
      // a's claim left that passage one slot fewer than any other: the fullest, so b's too, whatever b's own order.
      expect(await passageOfNext(db(), b, c.campaignId)).toBe(first);
    }
  });

  it("enters the question whose passage is fullest, whatever the question's place", async () => {
    const c = await makeCampaign(db(), { queries: 3, candidates: 3 });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    // Question 2's passage, last in b's order, is made the fullest of the campaign: one slot fewer.
    const target = (await passagesInOrderOf(db(), c.campaignId, 2, b)).at(-1)!;
    await db().execute(sql`update passages set open_slots = open_slots - 1 where id = ${target}`);
    expect(await passageOfNext(db(), b, c.campaignId)).toBe(target);
    // b's claim left it fuller still: a's first passage too.
    expect(await passageOfNext(db(), a, c.campaignId)).toBe(target);
  });
});

// Another transaction's row locks: PostgreSQL only (PGlite serves one connection).
describeEachDatabase(
  "the claim of a new question while other claims hold its passages",
  ({ db }) => {
    it("skips a passage another claim holds for the next in the annotator's order, and a question whose passages are all held for the next question", async () => {
      const c = await makeCampaign(db(), { queries: 3, candidates: 2 });
      const a = await makeAnnotator(db());
      const order0 = await passagesInOrderOf(db(), c.campaignId, 0, a);
      // The rows held by a transaction on a connection of its own (reserved from the pool) while the
      // claim runs on another.
      const holding = async <T>(ids: number[], body: () => Promise<T>): Promise<T> => {
        const raw = rawClientOf(db());
        if (raw.kind !== "postgres") throw new Error("PostgreSQL only");
        const holder = await raw.client.reserve();
        try {
          await holder.unsafe("begin");
          await holder.unsafe("select id from passages where id = any($1::bigint[]) for no key update", [`{${ids.join(",")}}`]);
          return await body();
        } finally {
          await holder.unsafe("rollback");
          holder.release();
        }
      };
      expect(await holding([order0[0]!], () => passageOfNext(db(), a, c.campaignId))).toBe(order0[1]);
      // Question 0's fullest passage is now a's (one slot fewer). With it and the rest of question 0 held,
      // b is sent to question 1, at b's own first passage.
      const b = await makeAnnotator(db());
      expect(await holding(order0, () => passageOfNext(db(), b, c.campaignId))).toBe(
        (await passagesInOrderOf(db(), c.campaignId, 1, b))[0],
      );
    });
  },
  testDatabaseKinds().filter((kind) => kind === "postgres"),
);
