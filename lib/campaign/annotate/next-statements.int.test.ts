import { expect, it } from "vitest";
import { rawClientOf } from "@/db/client";
import { anonymous } from "@/lib/auth/actor";
import { resolveActor, signIn } from "@/lib/auth/sessions";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { countPgliteStatements } from "@/test/pglite-statements";
import { nextTask } from "./assignment";
import { CLAIM_NEXT_SQL } from "./claim-next.internal";

// Counts the statements one `POST /api/campaigns/:id/next` sends (the session look-up of
// requestContext, then nextTask) at the driver: postgres.js's debug hook (every statement, begin and
// commit included), PGlite's protocol entry point (every Execute and simple Query, begin and commit included).
describeEachDatabase("statements per next", ({ db }) => {
  it("claims a passage in one statement once the session and campaign are cached", async () => {
    const sent: string[] = [];
    const raw = rawClientOf(db());
    const restore: (() => void)[] = [];
    if (raw.kind === "postgres") {
      // postgres.js reads its options at each query.
      raw.client.options.debug = (_connection: number, query: string) => void sent.push(query);
      restore.push(() => void (raw.client.options.debug = false));
    } else {
      restore.push(countPgliteStatements(raw.client, (statement) => void sent.push(statement)));
    }
    try {
      const c = await makeCampaign(db(), { queries: 3, candidates: 2 });
      const annotator = await makeAnnotator(db());
      const { sessionToken } = await signIn(db(), anonymous, {
        username: annotator.username,
        password: "password-123",
        address: unique("a"),
      });
      const request = async (after?: string) =>
        nextTask(db(), await resolveActor(db(), { sessionToken }), { campaignId: c.campaignId, after });
      const first = (await request())!; // warms the caches and reaps (every 2 s)
      sent.length = 0;
      const second = (await request(first.claim.handle))!;
      const counted = [...sent];
      console.log(
        `statements for one next (steady state): ${counted.length}\n  ${counted.map((q) => q.replace(/\s+/g, " ").slice(0, 90)).join("\n  ")}`,
      );
      expect(second.claim.handle).not.toBe(first.claim.handle);
      expect(second.query.id).toBe(first.query.id);
      expect(counted).toHaveLength(1);
    } finally {
      for (const r of restore) r();
    }
  });

  it("commits a claim without waiting for the WAL flush, for its own transaction alone", async () => {
    const c = await makeCampaign(db(), { queries: 2, candidates: 2 });
    const annotator = await makeAnnotator(db());
    const params = [annotator.id, c.campaignId, null, unique("h"), 600];
    const setting = "select current_setting('synchronous_commit') as s";
    const raw = rawClientOf(db());
    // Inside a transaction, so the setting can be read before it ends: off after the claim, and back
    // at the server's own once the transaction is over.
    let during: string | undefined;
    let after: string | undefined;
    let claimed = 0;
    if (raw.kind === "postgres") {
      const one = await raw.client.reserve();
      try {
        await one.unsafe("begin");
        claimed = (await one.unsafe(CLAIM_NEXT_SQL, params)).length;
        during = ((await one.unsafe(setting)) as unknown as { s: string }[])[0]!.s;
        await one.unsafe("commit");
        after = ((await one.unsafe(setting)) as unknown as { s: string }[])[0]!.s;
      } finally {
        one.release();
      }
    } else {
      await raw.client.transaction(async (t) => {
        claimed = (await t.query(CLAIM_NEXT_SQL, params)).rows.length;
        during = (await t.query<{ s: string }>(setting)).rows[0]!.s;
      });
      after = (await raw.client.query<{ s: string }>(setting)).rows[0]!.s;
    }
    expect(claimed).toBe(1);
    expect(during).toBe("off");
    expect(after).toBe("on");
  });
});
