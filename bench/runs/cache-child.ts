// Child process of bench/runs/run.ts: the leaderboard cache, through the app's own path
// (getLeaderboard → score-cache.ts), in a process of its own. Prints one JSON line.
//
//   node --import tsx bench/runs/cache-child.ts --url URL --campaign ID [--reads 30] [--recompute-runs 3] [--quick]
//
// In order: the first read (every run computed and stored), `reads` reads with nothing changed;
// a change confined to one question (a coordinator rejects one of its endorsed passages) then the
// figures of `recompute-runs` runs read (every stored entry is updated in place); the rejection
// reverted and the leaderboard read (figures compared with the uncached baseline's); an annotator
// paused and the leaderboard read (the questions they judged updated in place); a page renamed and
// the leaderboard read (the questions with a passage on it updated in place); a campaign-wide
// change of a setting no gold is read with (early stop) and the leaderboard read (no question read
// again); T changed (campaign-wide, moving golds: those kept at the new T taken) and `recompute-runs`
// runs read, their figures compared with the uncached scorer's; a run whose entries are gone (a new
// upload) scored alone; T changed back (those kept at it taken) and `recompute-runs` runs read; and T
// changed again with the golds kept at it dropped (as before they were kept) and those runs read
// (every question's outcomes read again).
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { getCampaign, updateCampaign } from "@/lib/campaign/campaigns";
import { adjudicatePassage, revertAdjudication } from "@/lib/campaign/quality/adjudication";
import { pauseAnnotator } from "@/lib/campaign/quality/standings";
import { getLeaderboard } from "@/lib/campaign/runs/leaderboard";
import { runRows } from "@/lib/campaign/runs/list-runs";
import { cachedScores } from "@/lib/campaign/runs/score-cache";
import { scoreRuns } from "@/lib/campaign/runs/score-runs";
import { cpuSince, reportResult, runMain } from "../common";

export interface CacheChildReport {
  runs: number;
  firstSeconds: number;
  /** Milliseconds of each read with nothing changed. */
  readsMs: number[];
  recomputeRuns: number;
  recomputeSeconds: number;
  /** Whether the rejection moved a run's figures (else the revert's comparison shows nothing). */
  changedByRejection: boolean;
  /** The leaderboard read after the rejection was reverted (every run, one question updated in place). */
  revertReadSeconds: number;
  /** The leaderboard read after an annotator was paused (the questions they judged updated in place), and how many those are. */
  pauseReadSeconds: number;
  pausedQuestions: number;
  /** The leaderboard read after a page was renamed (the questions with a passage on it updated in place), and how many those are. */
  pageReadSeconds: number;
  pageQuestions: number;
  recomputeAllSeconds: number;
  /**
   * T changed (campaign-wide, and it moves golds): `recomputeRuns` runs read, the questions whose golds moved, whether the
   * figures equal the uncached scorer's to 12 digits; then T changed back (the golds kept at it taken), and to the new T
   * again with the golds kept at it dropped (the walk): those runs read each time.
   */
  tChange: {
    from: number;
    to: number;
    seconds: number;
    questions: number;
    sameAsUncached: boolean;
    readSeconds: number;
    backSeconds: number;
    backSameAsUncached: boolean;
    walkSeconds: number;
    walkSameAsUncached: boolean;
  } | null;
  newRunSeconds: number;
  cpuSeconds: number;
  /** process.resourceUsage().maxRSS, in KiB. */
  maxRssKiB: number;
  /** A figure per run and gold, to compare with the uncached read's: at the first read, and after the rejection and its revert. */
  rprec: Record<string, Record<string, number | undefined>>;
  rprecAfterRevert: Record<string, Record<string, number | undefined>>;
}

const QUERY = { level: "paragraph", ks: [1, 5, 10] } as const;

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await f();
  return [value, (performance.now() - t0) / 1000];
}

/** Questions updated in place since every question was last scored afresh. */
/** Each question's stored golds (a digest of its status and entries), to count the questions a change moved. */
const storedGolds = async (db: Db, campaignId: number) =>
  new Map(
    rowsOf<{ query_id: string | number; golds: string }>(
      await db.execute(
        sql`select query_id, md5(status || entries::text) as golds from leaderboard_question_golds
            where campaign_id = ${campaignId} and t = (select t from leaderboard_golds where campaign_id = ${campaignId})`,
      ),
    ).map((r) => [Number(r.query_id), r.golds]),
  );

/** A run's figures, every number to 12 significant digits. */
const figures12 = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "number" ? Number(x.toPrecision(12)) : x));

/** A passage of the campaign with the most sufficient votes (endorsed): rejecting it changes its question's golds. */
async function endorsedPassage(db: Db, campaignId: number): Promise<number> {
  const [row] = rowsOf<{ id: string | number }>(
    await db.execute(
      sql`select id from passages where campaign_id = ${campaignId} and not is_gold order by sufficient_count desc, id limit 1`,
    ),
  );
  if (!row) throw new Error("the campaign has no passage");
  return Number(row.id);
}

function rprecOf(board: Awaited<ReturnType<typeof getLeaderboard>>): CacheChildReport["rprec"] {
  const out: CacheChildReport["rprec"] = {};
  for (const row of board.rows)
    out[row.run.name] = {
      original: row.scores.original.paragraph?.Rprec,
      endorsed: row.scores.endorsed.paragraph?.Rprec,
      both: row.scores.both.paragraph?.Rprec,
    };
  return out;
}

runMain(async () => {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      campaign: { type: "string" },
      reads: { type: "string", default: "30" },
      "recompute-runs": { type: "string", default: "3" },
      quick: { type: "boolean", default: false },
    },
  });
  const handle = await openDatabase({ url: values.url! });
  const db = handle.db;
  const campaignId = Number(values.campaign);
  const read = () => getLeaderboard(db, system, { campaignId, ...QUERY, ks: [...QUERY.ks] });
  const cpu = process.cpuUsage();
  const [board, firstSeconds] = await timed(read);
  const readsMs: number[] = [];
  for (let i = 0; i < Number(values.reads); i++) readsMs.push((await timed(read))[1] * 1000);
  const campaign = await getCampaign(db, system, campaignId);
  const runList = await runRows(db, campaignId);
  const some = runList.slice(0, Number(values["recompute-runs"]));
  const passageId = await endorsedPassage(db, campaignId);
  const { user } = await createUser(db, system, { username: `bench-${process.pid}`, role: "coordinator", password: "bench-password-1" });
  const coordinator: UserActor = { kind: "user", id: user.id, username: user.username, role: "coordinator", via: "session" };
  await adjudicatePassage(db, coordinator, campaignId, passageId, { decision: "reject", reason: "bench: one question's golds change" });
  const [rejected, recomputeSeconds] = await timed(() => cachedScores(db, campaign, some, [...QUERY.ks], [QUERY.level]));
  const changedByRejection = some.some(
    (r) => JSON.stringify(rejected.runs.get(r.id)!.scores) !== JSON.stringify(board.rows.find((x) => x.run.id === r.id)!.scores),
  );
  await revertAdjudication(db, coordinator, campaignId, passageId);
  const [reverted, revertReadSeconds] = await timed(read);
  // An annotator paused: their judgments stop counting, on the questions they judged (about 1 in 100 here).
  const [annotator] = rowsOf<{ user_id: string | number; questions: string | number }>(
    await db.execute(sql`
      select j.user_id, count(distinct p.query_id) as questions from judgments j join passages p on p.id = j.passage_id
      where j.campaign_id = ${campaignId} group by j.user_id order by j.user_id limit 1`),
  );
  await pauseAnnotator(db, coordinator, campaignId, Number(annotator!.user_id));
  const pauseReadSeconds = (await timed(read))[1];
  // A page renamed (as a knowledge import that changes it): its trigger names the questions with a passage on it.
  const [page] = rowsOf<{ wikipedia_id: string; questions: string | number }>(
    await db.execute(sql`
      select wikipedia_id, count(distinct query_id) as questions from passages where campaign_id = ${campaignId}
      group by wikipedia_id order by 2 desc, 1 limit 1`),
  );
  await db.execute(sql`update pages set title = title || ' (renamed)' where wikipedia_id = ${page!.wikipedia_id}`);
  const pageReadSeconds = (await timed(read))[1];
  // --quick: the two measures below are skipped (-1).
  let [recomputeAllSeconds, newRunSeconds] = [-1, -1];
  let tChange: CacheChildReport["tChange"] = null;
  if (!values.quick) {
    await updateCampaign(db, coordinator, campaignId, { earlyStop: !campaign.earlyStop });
    recomputeAllSeconds = (await timed(read))[1];
    // T raised by one (lowered at T = R): the consensus spans and the endorsements move.
    const to =
      campaign.endorsementThreshold < campaign.judgmentsPerPassage ? campaign.endorsementThreshold + 1 : campaign.endorsementThreshold - 1;
    const before = await storedGolds(db, campaignId);
    await updateCampaign(db, coordinator, campaignId, { endorsementThreshold: to });
    const changedCampaign = await getCampaign(db, system, campaignId);
    const [afterT, tSeconds] = await timed(() => cachedScores(db, changedCampaign, some, [...QUERY.ks], [QUERY.level]));
    const after = await storedGolds(db, campaignId);
    const readSeconds = (await timed(read))[1];
    const uncached = await scoreRuns(db, changedCampaign, some, [...QUERY.ks], [QUERY.level]);
    const same = (a: typeof afterT, b: typeof uncached) => some.every((r) => figures12(a.runs.get(r.id)) === figures12(b.runs.get(r.id)));
    await db.execute(sql`delete from leaderboard_scores where run_id = ${runList[0]!.id}`);
    newRunSeconds = (await timed(read))[1];
    // T back (the golds kept at it taken), then once more with the golds kept at it dropped: every question's outcomes read again (the walk).
    await updateCampaign(db, coordinator, campaignId, { endorsementThreshold: campaign.endorsementThreshold });
    const [back, backSeconds] = await timed(() => cachedScores(db, campaign, some, [...QUERY.ks], [QUERY.level]));
    const backSame = same(back, await scoreRuns(db, campaign, some, [...QUERY.ks], [QUERY.level]));
    await db.execute(sql`delete from leaderboard_question_golds where campaign_id = ${campaignId} and t = ${to}`);
    await updateCampaign(db, coordinator, campaignId, { endorsementThreshold: to });
    const [walked, walkSeconds] = await timed(() => cachedScores(db, changedCampaign, some, [...QUERY.ks], [QUERY.level]));
    tChange = {
      from: campaign.endorsementThreshold,
      to,
      seconds: tSeconds,
      questions: [...after].filter(([id, g]) => before.get(id) !== g).length,
      sameAsUncached: same(afterT, uncached),
      readSeconds,
      backSeconds,
      backSameAsUncached: backSame,
      walkSeconds,
      walkSameAsUncached: same(walked, uncached),
    };
  }
  const report: CacheChildReport = {
    runs: runList.length,
    firstSeconds,
    readsMs,
    recomputeRuns: some.length,
    recomputeSeconds,
    changedByRejection,
    revertReadSeconds,
    pauseReadSeconds,
    pausedQuestions: Number(annotator!.questions),
    pageReadSeconds,
    pageQuestions: Number(page!.questions),
    recomputeAllSeconds,
    tChange,
    newRunSeconds,
    cpuSeconds: cpuSince(cpu),
    maxRssKiB: process.resourceUsage().maxRSS,
    rprec: rprecOf(board),
    rprecAfterRevert: rprecOf(reverted),
  };
  await handle.close();
  reportResult(report);
});
