import { sql, type SQL } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { judgmentOf, makeAnnotator, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { letTimePass } from "@/test/elapse";
import { describeEachDatabase, seededRandom } from "@/test/databases";
import { nextTask } from "../annotate/assignment";
import { updateCampaign } from "../campaigns";
import { annotatorRows } from "./annotator-rows";
import { getDashboard } from "./dashboard";
import { submitJudgment } from "../annotate/judgments";
import { outcomeSql } from "../quality/outcome";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";
import { activitySpan, compactTallies, judgmentsOverTime } from "../tallies.internal";

const random = seededRandom;

/** The tallies as the triggers keep them (tallies + pending deltas), and as a recount from scratch gives them. */
async function talliesBothWays(db: Db, campaignId: number) {
  // A passage `p` of campaign `c`, by the outcome rules (outcome.int.test.ts holds those to the TypeScript ones).
  const finished = outcomeSql.isFinished(sql`p.is_decided`, sql`p.judgment_count`, sql`c.judgments_per_passage`);
  const endorsed = outcomeSql.isEndorsed(sql`p.sufficient_count`, sql`c.endorsement_threshold`);
  const rows = async (query: SQL) => rowsOf<Record<string, unknown>>(await db.execute(query));
  // A tally table's rows and its pending deltas summed by `key`, without the rows that sum to nothing; beside the `recount`.
  const keptAndRecounted = async (table: string, deltas: string, key: string, values: string, recount: SQL) => ({
    kept: await rows(
      sql.raw(
        `select ${key}, ${values} from (select * from ${table} where campaign_id = ${campaignId} union all select * from ${deltas} where campaign_id = ${campaignId}) x group by ${key} having ${values
          .split(",")
          .map((v) => `${v.trim().split(" as ")[0]} <> 0`)
          .join(" or ")} order by ${key}`,
      ),
    ),
    recount: await rows(recount),
  });
  return {
    passages: await keptAndRecounted(
      "passage_tallies",
      "passage_tally_deltas",
      "batch_id, judgment_count, sufficient_count",
      "sum(passages)::int as passages, sum(claimed)::int as claimed, sum(open)::int as open, sum(decided)::int as decided",
      sql`
        select batch_id, judgment_count, sufficient_count, count(*)::int as passages, sum(claim_count)::int as claimed, sum(open_slots)::int as open, (count(*) filter (where is_decided))::int as decided
        from passages where campaign_id = ${campaignId} group by 1, 2, 3 order by 1, 2, 3`,
    ),
    annotators: await keptAndRecounted(
      "annotator_tallies",
      "annotator_tally_deltas",
      "user_id, duration_bucket",
      "sum(judgments)::int as judgments, sum(compared)::int as compared, sum(agreed)::int as agreed",
      sql`
        select j.user_id, least(j.duration_ms / 500, 240)::smallint as duration_bucket, count(*)::int as judgments,
          (count(*) filter (where ${finished}))::int as compared,
          (count(*) filter (where ${outcomeSql.agreesWithOutcome(sql`j.verdict`, finished, endorsed)}))::int as agreed
        from judgments j join passages p on p.id = j.passage_id join campaigns c on c.id = j.campaign_id
        where j.campaign_id = ${campaignId} group by 1, 2 order by 1, 2`,
    ),
    questions: {
      kept: await rows(
        sql`select query_id, passages, finished, endorsed, disputed, gold_missed from query_tallies where campaign_id = ${campaignId} order by 1`,
      ),
      recount: await rows(sql`
        select p.query_id, count(*)::int as passages,
          (count(*) filter (where ${finished}))::int as finished,
          (count(*) filter (where ${endorsed}))::int as endorsed,
          (count(*) filter (where ${outcomeSql.isDisputed(sql`p.judgment_count`, sql`p.sufficient_count`)}))::int as disputed,
          (count(*) filter (where ${outcomeSql.missesGold(sql`p.is_gold`, sql`p.expected_verdict`, finished, endorsed)}))::int as gold_missed
        from passages p join campaigns c on c.id = p.campaign_id where p.campaign_id = ${campaignId} group by 1 order by 1`),
    },
    minutes: await keptAndRecounted(
      "judgment_minutes",
      "judgment_minute_deltas",
      "batch_id, minute",
      "sum(judgments)::int as judgments",
      sql`
        select batch_id, date_bin('1 minute', created_at, timestamptz '2000-01-01 00:00:00+00') as minute, count(*)::int as judgments
        from judgments where campaign_id = ${campaignId} group by 1, 2 order by 1, 2`,
    ),
    hours: {
      kept: await rows(sql`
        select batch_id, extract(epoch from hour) as at, sum(judgments)::int as judgments from (
          select batch_id, hour, judgments from judgment_hours where campaign_id = ${campaignId}
          union all
          select batch_id, date_bin('1 hour', minute, timestamptz '2000-01-01 00:00:00+00'), judgments from judgment_minute_deltas where campaign_id = ${campaignId}
        ) x group by 1, 2 having sum(judgments) <> 0 order by 1, 2`),
      recount: await rows(sql`
        select batch_id, extract(epoch from date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00')) as at, count(*)::int as judgments
        from judgments where campaign_id = ${campaignId} group by 1, 2 order by 1, 2`),
    },
  };
}

function expectTalliesAgree(t: Awaited<ReturnType<typeof talliesBothWays>>) {
  const norm = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])));
  for (const [name, pair] of Object.entries(t)) {
    expect(norm(pair.kept), name).toEqual(norm(pair.recount));
  }
}

describeEachDatabase("dashboard tallies", ({ db }) => {
  it("stay equal to a recount from scratch through claims, judgments, early stop, pauses, resumes and a threshold change", async () => {
    const next = random(20261129);
    const c = await makeCampaign(db(), { queries: 6, candidates: 3, settings: { goldMinJudgments: 10_000, earlyStop: false } });
    const team = await makeAnnotators(db(), 5);
    const round = async (steps: number) => {
      for (let i = 0; i < steps; i++) {
        const who = team[Math.floor(next() * team.length)]!;
        const task = await nextTask(db(), who, { campaignId: c.campaignId }).catch(() => null);
        if (!task) continue;
        if (next() < 0.15) continue; // keep the claim open: it shows as claimed
        await submitJudgment(
          db(),
          who,
          task.claim.handle,
          judgmentOf(task, next() < 0.55 ? "sufficient" : "insufficient", Math.floor(next() * 6000)),
        );
      }
    };
    await round(40);
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));

    await pauseAnnotator(db(), system, c.campaignId, team[0]!.id);
    await round(30);
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));

    await compactTallies(db(), { force: true });
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));

    await resumeAnnotator(db(), system, c.campaignId, team[0]!.id);
    await updateCampaign(db(), system, c.campaignId, { endorsementThreshold: 3, earlyStop: true });
    await round(60);
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));
    await compactTallies(db(), { force: true });
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));

    // What migration 0003 does for campaigns that existed before it: hours rebuilt from the minutes.
    await round(10); // some minute deltas pending, which the next fold adds to the rebuilt hours
    await db().execute(sql`delete from judgment_hours where campaign_id = ${c.campaignId}`);
    await db().execute(sql`select kps_rebuild_judgment_hours(${c.campaignId})`);
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));
    await compactTallies(db(), { force: true });
    expectTalliesAgree(await talliesBothWays(db(), c.campaignId));
  });

  it("shows the right progress, agreement, questions and annotator figures", async () => {
    // 2 questions × (1 gold + 1 candidate) = 4 passages, R = 3, T = 2.
    const c = await makeCampaign(db(), { queries: 2, candidates: 1, settings: { goldMinJudgments: 10_000 } });
    const [a, b, d] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    // a and b call everything sufficient, d everything insufficient; d is slow, a and b fast. The
    // time is the server's (from the hand-out): each takes `ms` by letting it pass; the client claims 5 s.
    for (const [who, verdict, ms] of [
      [a, "sufficient", 1_000],
      [b, "sufficient", 1_500],
      [d, "insufficient", 9_000],
    ] as const) {
      for (
        let t = await nextTask(db(), who, { campaignId: c.campaignId });
        t;
        t = await nextTask(db(), who, { campaignId: c.campaignId })
      ) {
        await letTimePass(db(), who.id, ms);
        await submitJudgment(db(), who, t.claim.handle, judgmentOf(t, verdict, 5_000));
      }
    }
    const dash = await getDashboard(db(), system, c.campaignId);
    expect(dash.totals).toMatchObject({
      passages: 4,
      slots: 12,
      filled: 12,
      claimed: 0,
      open: 0,
      notNeeded: 0,
      finishedPassages: 4,
      endorsedPassages: 4,
    });
    // Every passage: 2 sufficient, 1 insufficient. Coincidences: o_si = o_is = 4 × 2·1/2 = 4; n_s = 8, n_i = 4, n = 12.
    // alpha = 1 − (n − 1)·(o_si + o_is)/(2·n_s·n_i) = 1 − 11·8/64 = −0.375.
    expect(dash.totals.alpha).toBeCloseTo(-0.375, 10);
    // Fleiss: P_i = (4 + 1 − 3)/6 = 1/3; p = (2/3, 1/3), P_e = 5/9; kappa = (1/3 − 5/9)/(4/9) = −0.5.
    expect(dash.totals.kappa).toBeCloseTo(-0.5, 10);
    expect(dash.batches).toHaveLength(1);
    expect(dash.batches[0]).toMatchObject({ passages: 4, filled: 12, endorsedPassages: 4 });
    expect(dash.questions).toEqual({ unanswerable: 0, answered: 2 });
    expect(dash.disputed.map((q) => q.disputed)).toEqual([2, 2]);
    expect(dash.activity.points.reduce((s, p) => s + p.judgments, 0)).toBe(12);
    expect(dash.projection).toMatchObject({ remainingSlots: 0, judgmentsInWindow: 12, secondsLeft: 0 });

    const annotators = await annotatorRows(db(), c.campaignId);
    const row = (who: UserActor) => annotators.find((r) => r.userId === who.id)!;
    expect(row(a)).toMatchObject({ judgments: 4, compared: 4, agreement: 1, shareUnder2s: 1 });
    expect(row(d)).toMatchObject({ judgments: 4, compared: 4, agreement: 0, shareUnder2s: 0 });
    expect(row(a).medianSeconds).toBeGreaterThanOrEqual(1);
    expect(row(a).medianSeconds).toBeLessThan(1.5);
    expect(row(d).medianSeconds).toBeGreaterThanOrEqual(9);
    expect(row(d).medianSeconds).toBeLessThan(9.5);

    // Raising T to 3 leaves every passage unendorsed: both questions become unanswerable and d now agrees.
    await updateCampaign(db(), system, c.campaignId, { endorsementThreshold: 3 });
    const after = await getDashboard(db(), system, c.campaignId);
    expect(after.questions).toEqual({ unanswerable: 2, answered: 0 });
    expect(after.totals.endorsedPassages).toBe(0);
    const annotatorsAfter = await annotatorRows(db(), c.campaignId);
    expect(annotatorsAfter.find((r) => r.userId === d.id)).toMatchObject({ agreement: 1 });
    expect(annotatorsAfter.find((r) => r.userId === a.id)).toMatchObject({ agreement: 0 });
  });

  it("bins judgments over days the same from the minutes and from the hours, folded or pending", async () => {
    const next = random(20261130);
    const c = await makeCampaign(db(), { queries: 1, candidates: 0 });
    const origin = Date.UTC(2000, 0, 1);
    const start = Date.UTC(2031, 4, 6, 21, 37); // an odd minute, three days before the last
    const rows = Array.from({ length: 400 }, () => ({
      at: start + Math.floor(next() * 3 * 1440) * 60_000,
      judgments: 1 + Math.floor(next() * 5),
    }));
    const insert = async (part: typeof rows) => {
      for (const r of part) {
        await db().execute(sql`insert into judgment_minute_deltas (campaign_id, batch_id, minute, judgments)
                               values (${c.campaignId}, ${c.batchId}, ${new Date(r.at).toISOString()}::timestamptz, ${r.judgments})`);
      }
    };
    await insert(rows.slice(0, 250));
    await compactTallies(db(), { force: true });
    await insert(rows.slice(250)); // pending, some in minutes and hours already folded

    for (const bin of [1, 15, 60, 180, 1440]) {
      const expected = new Map<number, number>();
      for (const r of rows) {
        const at = origin + Math.floor((r.at - origin) / (bin * 60_000)) * bin * 60_000;
        expected.set(at, (expected.get(at) ?? 0) + r.judgments);
      }
      const points = await judgmentsOverTime(db(), c.campaignId, bin);
      expect(
        points.map((p) => [p.at.getTime(), p.judgments]),
        `bins of ${bin} minutes`,
      ).toEqual([...expected].sort((a, b) => a[0] - b[0]));
    }

    const times = rows.map((r) => r.at);
    const since = start + 2 * 1440 * 60_000;
    const span = await activitySpan(db(), c.campaignId, new Date(since));
    expect(span.first?.getTime()).toBe(Math.min(...times));
    expect(span.last?.getTime()).toBe(Math.max(...times));
    expect(span.recent).toBe(rows.filter((r) => r.at >= since).reduce((s, r) => s + r.judgments, 0));
  });
});
