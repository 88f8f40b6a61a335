import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import type { UserActor } from "@/lib/auth/actor";
import { makeAnnotators, makeCampaign, judgmentOf, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { expectFresh, uploadOrdered } from "@/test/leaderboard-cache";
import { makeUser } from "@/test/runs";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { getCampaign, updateCampaign } from "../campaigns";
import { readProvenancePage, readProvenancePageAt } from "../report/kilt-provenance";

/** Each annotator judges every passage handed to them; `verdict` by annotator index, question index and paragraph. */
async function judgeAll(db: Db, annotators: UserActor[], c: TestCampaign, verdict: (a: number, q: number, p: number) => boolean) {
  for (const [i, a] of annotators.entries())
    for (let t = await nextTask(db, a, { campaignId: c.campaignId }); t; t = await nextTask(db, a, { campaignId: c.campaignId })) {
      const sufficient = verdict(i, c.queryIds.indexOf(t.query.id), t.passage.paragraphs[0]!.id);
      await submitJudgment(db, a, t.claim.handle, judgmentOf(t, sufficient ? "sufficient" : "insufficient"));
    }
}

/** The kept golds (status and entries, by T and question id) and their own changes. */
async function keptOf(db: Db, campaignId: number) {
  const rows = rowsOf<{ t: number; query_id: string | number; changes: string | number; golds: string }>(
    await db.execute(sql`
      select t, query_id, changes, status || ' ' || entries::text as golds from leaderboard_question_golds
      where campaign_id = ${campaignId} and t <> (select t from leaderboard_golds where campaign_id = ${campaignId})
      order by t, query_id`),
  );
  return rows.map((r) => ({ t: r.t, queryId: Number(r.query_id), changes: Number(r.changes), golds: r.golds }));
}

/** The stored golds, by question id, and the T the golds row records. */
async function storedOf(db: Db, campaignId: number) {
  const rows = rowsOf<{ query_id: string | number; changes: string | number; golds: string }>(
    await db.execute(sql`
      select query_id, changes, status || ' ' || entries::text as golds from leaderboard_question_golds
      where campaign_id = ${campaignId} and t = (select t from leaderboard_golds where campaign_id = ${campaignId})
      order by query_id`),
  );
  const [row] = rowsOf<{ t: number | null; increments: string | number }>(
    await db.execute(sql`select t, increments from leaderboard_golds where campaign_id = ${campaignId}`),
  );
  return { golds: rows.map((r) => ({ queryId: Number(r.query_id), changes: Number(r.changes), golds: r.golds })), t: row?.t ?? null };
}

/** Each question's golds as read from the outcomes now with T = t: status and entries, as stored. */
async function readAt(db: Db, coordinator: UserActor, campaignId: number, t: number) {
  const campaign = { ...(await getCampaign(db, coordinator, campaignId)), endorsementThreshold: t };
  const page = await readProvenancePage(db, campaign, { location: "span", after: 0 });
  return new Map(page.map((q) => [q.id, `${q.status} ${JSON.stringify(q.entries)}`]));
}

/** Every kept gold of T = t equals the outcomes read at that T, and is at its question's stored changes. */
async function expectKeptTrue(db: Db, coordinator: UserActor, campaignId: number, ts: number[]) {
  const kept = await keptOf(db, campaignId);
  const stored = await storedOf(db, campaignId);
  const changes = new Map(stored.golds.map((g) => [g.queryId, g.changes]));
  expect([...new Set(kept.map((k) => k.t))]).toEqual(ts);
  for (const t of ts) {
    const at = await readAt(db, coordinator, campaignId, t);
    const mine = kept.filter((k) => k.t === t);
    expect(mine.map((k) => k.queryId)).toEqual([...at.keys()]);
    // JSON texts compared as parsed: the stored column is json, written from the same texts.
    for (const k of mine) {
      expect(k.golds.replace(/\s/g, "")).toBe(at.get(k.queryId)!.replace(/\s/g, ""));
      expect(k.changes).toBe(changes.get(k.queryId));
    }
  }
}

describeEachDatabase("runs: golds kept at the other values of T", ({ db }) => {
  it("reads a page at several Ts as it reads it at each", async () => {
    const c = await makeCampaign(db(), {
      queries: 5,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    await judgeAll(db(), await makeAnnotators(db(), 3), c, (a, q, p) => (a + q + p) % 3 !== 0);
    const campaign = await getCampaign(db(), coordinator, c.campaignId);
    const together = await readProvenancePageAt(db(), campaign, { location: "span", after: 0 }, [3, 1, 2]);
    for (const [i, t] of [3, 1, 2].entries()) {
      const alone = await readProvenancePage(db(), { ...campaign, endorsementThreshold: t }, { location: "span", after: 0 });
      expect(together[i]).toEqual(alone);
    }
    // The Ts give different golds here (else the comparison above proves little).
    expect(together[1]!.map((q) => q.entries)).not.toEqual(together[0]!.map((q) => q.entries));
  }, 60_000);

  it("keeps every question's golds at every other T in step, takes them on a change of T, and stays fresh", async () => {
    const c = await makeCampaign(db(), {
      queries: 6,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    const annotators = await makeAnnotators(db(), 3);
    await judgeAll(db(), annotators.slice(0, 2), c, (a, q, p) => (a + q + p) % 3 !== 0);
    await uploadOrdered(db(), coordinator, c, "A", [2, 3, 1]);
    await uploadOrdered(db(), coordinator, c, "B", [1, 2]);
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3]);
    expect((await storedOf(db(), c.campaignId)).t).toBe(2);

    // A judgment: its question's kept golds are read again with it.
    const third = annotators[2]!;
    const task = (await nextTask(db(), third, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), third, task.claim.handle, judgmentOf(task, "sufficient"));
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3]);

    // T from 2 to 3: the golds kept for 3 become the stored golds, and those of 2 are kept in turn.
    const keptAt3 = (await keptOf(db(), c.campaignId)).filter((k) => k.t === 3).map(({ t: _, ...k }) => k);
    const storedAt2 = (await storedOf(db(), c.campaignId)).golds;
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 3 });
    await expectFresh(db(), coordinator, c.campaignId);
    expect(await storedOf(db(), c.campaignId)).toEqual({ golds: keptAt3, t: 3 });
    expect(keptAt3.map((k) => k.golds)).not.toEqual(storedAt2.map((k) => k.golds));
    expect((await keptOf(db(), c.campaignId)).filter((k) => k.t === 2).map(({ t: _, ...k }) => k)).toEqual(storedAt2);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 2]);

    // A judgment and a change of T in the same interval: its question is read again at the new T.
    const another = (await nextTask(db(), third, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), third, another.claim.handle, judgmentOf(another, "sufficient"));
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 1 });
    await expectFresh(db(), coordinator, c.campaignId);
    expect((await storedOf(db(), c.campaignId)).t).toBe(1);
    await expectKeptTrue(db(), coordinator, c.campaignId, [2, 3]);

    // Some kept golds missing (as after a cache written before they were kept): the change of T reads
    // every question's outcomes again, and they are kept again after it.
    await db().execute(sql`delete from leaderboard_question_golds where campaign_id = ${c.campaignId} and t = 2 and query_id = (
      select min(query_id) from leaderboard_question_golds where campaign_id = ${c.campaignId})`);
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 2 });
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3]);
  }, 120_000);

  it("keeps none under Dawid–Skene, and reads every question again when majority comes back with another T", async () => {
    const c = await makeCampaign(db(), {
      queries: 4,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    await judgeAll(db(), await makeAnnotators(db(), 3), c, (a, q, p) => (a * q + p) % 2 === 0);
    await uploadOrdered(db(), coordinator, c, "A", [2, 1]);
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3]);
    await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "dawid-skene" });
    await expectFresh(db(), coordinator, c.campaignId);
    expect(await keptOf(db(), c.campaignId)).toEqual([]);
    expect((await storedOf(db(), c.campaignId)).t).toBe(2);
    await updateCampaign(db(), coordinator, c.campaignId, { aggregation: "majority", endorsementThreshold: 1 });
    await expectFresh(db(), coordinator, c.campaignId);
    expect((await storedOf(db(), c.campaignId)).t).toBe(1);
    await expectKeptTrue(db(), coordinator, c.campaignId, [2, 3]);
  }, 120_000);

  it("drops the kept golds when R changes (before annotation starts) and keeps them again at the new R's Ts", async () => {
    const c = await makeCampaign(db(), {
      queries: 3,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    await uploadOrdered(db(), coordinator, c, "A", [1, 2]);
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3]);
    await updateCampaign(db(), coordinator, c.campaignId, { judgmentsPerPassage: 4 });
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 3, 4]);
    await judgeAll(db(), await makeAnnotators(db(), 4), c, (a, q, p) => (a + q * p) % 2 === 0);
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 4 });
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 2, 3]);
  }, 120_000);

  it("reads no question again after a change of a setting no gold is read with (early stop)", async () => {
    const c = await makeCampaign(db(), {
      queries: 4,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 2, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    await judgeAll(db(), await makeAnnotators(db(), 3), c, (a, q, p) => (a + q + p) % 2 === 0);
    await uploadOrdered(db(), coordinator, c, "A", [2, 1]);
    await expectFresh(db(), coordinator, c.campaignId);
    // A mark on one question's stored and kept golds that reading its outcomes again would undo.
    const mark = (t: number) =>
      db().execute(sql`update leaderboard_question_golds set status = status || ' (kept)' where campaign_id = ${c.campaignId}
        and t = ${t} and query_id = (select min(id) from queries where campaign_id = ${c.campaignId})`);
    const marked = async () =>
      rowsOf<{ t: number }>(
        await db().execute(
          sql`select t from leaderboard_question_golds where campaign_id = ${c.campaignId} and status like '% (kept)' order by t`,
        ),
      ).map((r) => r.t);
    await mark(2);
    await mark(3);
    const campaign = await getCampaign(db(), coordinator, c.campaignId);
    await updateCampaign(db(), coordinator, c.campaignId, { earlyStop: !campaign.earlyStop });
    await expectFresh(db(), coordinator, c.campaignId);
    expect(await marked()).toEqual([2, 3]);
    // Unmarked, the next change of T takes the golds kept at 3, and the figures are right.
    await db().execute(
      sql`update leaderboard_question_golds set status = replace(status, ' (kept)', '') where campaign_id = ${c.campaignId}`,
    );
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 3 });
    await expectFresh(db(), coordinator, c.campaignId);
    await expectKeptTrue(db(), coordinator, c.campaignId, [1, 2]);
  }, 120_000);
});
