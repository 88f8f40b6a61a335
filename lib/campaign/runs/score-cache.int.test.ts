import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { makeAnnotator, makeCampaign, judgmentOf, type TestCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { source } from "@/test/kilt-lines";
import { expectFresh, KS, uploadOrdered } from "@/test/leaderboard-cache";
import { figuresText, makeUser } from "@/test/runs";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { reviseJudgment } from "../annotate/revise-judgment";
import { changeBatchStatus } from "../batches";
import { getCampaign, updateCampaign } from "../campaigns";
import { importBatch } from "../import/import-batch";
import { adjudicatePassage } from "../quality/adjudication";
import { pauseAnnotator, resumeAnnotator } from "../quality/standings";
import { getLeaderboard } from "./leaderboard";
import { deleteRun, runRows } from "./list-runs";
import { questionVersions, readVersions } from "./question-golds";
import { cachedScores, outcomeVersion, writeEntries } from "./score-cache";
import { scoreRuns } from "./score-runs";

/** How the cache last caught up: questions updated in place since every question was last read (-1: no golds stored). */
const incrementsOf = async (db: Db, campaignId: number) =>
  Number(
    rowsOf<{ n: string | number }>(
      await db.execute(sql`select coalesce((select increments from leaderboard_golds where campaign_id = ${campaignId}), -1) as n`),
    )[0]!.n,
  );

/** The stored golds of each question (status and entries), to count the questions a catch-up changed. */
const storedGoldsOf = async (db: Db, campaignId: number) =>
  new Map(
    rowsOf<{ query_id: string | number; golds: string }>(
      await db.execute(
        sql`select query_id, status || ' ' || entries::text as golds from leaderboard_question_golds
            where campaign_id = ${campaignId} and t = (select t from leaderboard_golds where campaign_id = ${campaignId})`,
      ),
    ).map((r) => [Number(r.query_id), r.golds]),
  );

/** Questions whose stored golds differ between two readings (or are in one only). */
const goldsChanged = (a: Map<number, string>, b: Map<number, string>) =>
  new Set([...a.keys(), ...b.keys()]).size - [...a].filter(([id, g]) => b.get(id) === g).length;

/** One judgment by `a` on the next passage handed out; its task (for a revision). */
async function judgeOne(db: Db, a: UserActor, c: TestCampaign, verdict: "sufficient" | "insufficient") {
  const t = await nextTask(db, a, { campaignId: c.campaignId });
  if (!t) throw new Error("no passage left to judge");
  await submitJudgment(db, a, t.claim.handle, judgmentOf(t, verdict));
  return t;
}

async function judgeAll(db: Db, a: UserActor, c: TestCampaign, verdict: (q: number, p: number) => "sufficient" | "insufficient") {
  for (let t = await nextTask(db, a, { campaignId: c.campaignId }); t; t = await nextTask(db, a, { campaignId: c.campaignId })) {
    await submitJudgment(db, a, t.claim.handle, judgmentOf(t, verdict(c.queryIds.indexOf(t.query.id), t.passage.paragraphs[0]!.id)));
  }
}

const computedAtOf = async (db: Db, runId: number) =>
  rowsOf<{ at: string }>(
    await db.execute(sql`select min(computed_at)::text as at from leaderboard_scores where run_id = ${runId} and ks = ${KS.join(",")}`),
  )[0]!.at;

describeEachDatabase("runs: leaderboard cache", ({ db }) => {
  it("answers from the cache while nothing changes, and after every kind of change as the uncached scorer does", async () => {
    const c = await makeCampaign(db(), {
      queries: 4,
      candidates: 2,
      settings: { judgmentsPerPassage: 3, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    const [a, b, d] = [await makeAnnotator(db()), await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), a, c, (q, p) => (q <= 1 && p <= 2 ? "sufficient" : "insufficient"));
    const runA = await uploadOrdered(db(), coordinator, c, "A", [2, 3, 1]);
    const runB = await uploadOrdered(db(), coordinator, c, "B", [1, 2]);
    const first = await expectFresh(db(), coordinator, c.campaignId);
    // Nothing changed: the second read is the first one's figures, not computed again.
    const again = await expectFresh(db(), coordinator, c.campaignId);
    expect(again.computedAt).toBe(first.computedAt);

    let version = await outcomeVersion(db(), c.campaignId);
    const changed = async (what: string) => {
      const now = await outcomeVersion(db(), c.campaignId);
      expect(now, what).toBeGreaterThan(version);
      version = now;
      return expectFresh(db(), coordinator, c.campaignId);
    };
    // A new judgment, then its revision (the judging page's undo).
    // A change confined to a question updates the figures in place: that question alone is read again.
    expect(await incrementsOf(db(), c.campaignId)).toBe(0);
    const [wideBefore, ownBefore] = [(await readVersions(db(), c.campaignId)).wide, await questionVersions(db(), c.campaignId)];
    const t = await judgeOne(db(), b, c, "sufficient");
    // The judgment's delta names its question: that question's own changes grow, the campaign-wide part does not.
    const own = await questionVersions(db(), c.campaignId);
    expect((await readVersions(db(), c.campaignId)).wide).toBe(wideBefore);
    const [judged] = rowsOf<{ id: string | number }>(
      await db().execute(sql`select id from queries where campaign_id = ${c.campaignId} and kilt_id = ${t.query.id}`),
    );
    expect([...own].filter(([id, n]) => n !== ownBefore.get(id)).map(([id]) => id)).toEqual([Number(judged!.id)]);
    // Folding the deltas changes neither the version nor any question's own changes.
    const unfolded = await readVersions(db(), c.campaignId);
    await db().execute(sql`select kps_compact_outcome_versions()`);
    expect(await readVersions(db(), c.campaignId)).toEqual(unfolded);
    expect(await questionVersions(db(), c.campaignId)).toEqual(own);
    await changed("a judgment");
    const afterJudgment = await incrementsOf(db(), c.campaignId);
    expect(afterJudgment).toBeLessThanOrEqual(1);
    await reviseJudgment(db(), b, t.claim.handle, { ...judgmentOf(t, "insufficient"), revision: 0 });
    await changed("a revision");
    expect(await incrementsOf(db(), c.campaignId)).toBeGreaterThanOrEqual(afterJudgment);
    // A pause and a resume of an annotator: the questions they judged are updated in place.
    const beforePause = await incrementsOf(db(), c.campaignId);
    await pauseAnnotator(db(), coordinator, c.campaignId, a.id);
    await changed("a pause");
    const afterPause = await incrementsOf(db(), c.campaignId);
    expect(afterPause).toBeGreaterThan(beforePause);
    await resumeAnnotator(db(), coordinator, c.campaignId, a.id);
    await changed("a resume");
    expect(await incrementsOf(db(), c.campaignId)).toBeGreaterThan(afterPause);
    // T: campaign-wide; every question's golds at the new T were kept beside the stored ones
    // (golds-at-t.ts): they become the stored golds, and the runs are scored from them afresh.
    const beforeT = await storedGoldsOf(db(), c.campaignId);
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 2 });
    await changed("a change of T");
    const afterT = await storedGoldsOf(db(), c.campaignId);
    const movedByT = goldsChanged(beforeT, afterT);
    expect(movedByT).toBeGreaterThan(0);
    expect(movedByT).toBeLessThan(afterT.size);
    expect(await incrementsOf(db(), c.campaignId)).toBe(0);
    await updateCampaign(db(), coordinator, c.campaignId, { endorsementThreshold: 1 });
    await changed("T back");
    expect(await storedGoldsOf(db(), c.campaignId)).toEqual(beforeT);
    // A campaign-wide change that changes no question's golds (as a setting's trigger appends): every
    // question is read again, none is updated, and the entries move to the new version.
    await db().execute(sql`insert into outcome_version_deltas (campaign_id, query_id, changes) values (${c.campaignId}, 0, 1)`);
    await changed("a campaign-wide change that moves no gold");
    expect(await incrementsOf(db(), c.campaignId)).toBe(0);
    expect(await storedGoldsOf(db(), c.campaignId)).toEqual(beforeT);
    // A page renamed: confined to the questions with a passage on it, whose golds (the entries' title) move and are updated in place.
    const [wideBeforePage, beforePage] = [(await readVersions(db(), c.campaignId)).wide, await incrementsOf(db(), c.campaignId)];
    await db().execute(sql`update pages set title = title || ' (renamed)' where wikipedia_id = ${c.pageIds[0]!}`);
    await changed("a page renamed");
    expect((await readVersions(db(), c.campaignId)).wide).toBe(wideBeforePage);
    expect(goldsChanged(beforeT, await storedGoldsOf(db(), c.campaignId))).toBe(1);
    expect(await incrementsOf(db(), c.campaignId)).toBe(beforePage + 1);
    // An adjudication: question 0's paragraph 2 rejected over the vote.
    const [p2] = rowsOf<{ id: string | number }>(
      await db().execute(
        sql`select p.id from passages p join queries q on q.id = p.query_id where q.kilt_id = ${c.queryIds[0]!} and p.start_paragraph_id = 2`,
      ),
    );
    const beforeAdjudication = await incrementsOf(db(), c.campaignId);
    await adjudicatePassage(db(), coordinator, c.campaignId, Number(p2!.id), { decision: "reject", reason: "not the right year" });
    await changed("an adjudication");
    // Its question's golds changed, and that question alone was taken out and put back in.
    expect(await incrementsOf(db(), c.campaignId)).toBe(beforeAdjudication + 1);
    await judgeAll(db(), d, c, () => "sufficient");
    await changed("a third annotator's judgments");

    // A new run: scored alone, the others' entries are kept as they were.
    const [atA, atB] = [await computedAtOf(db(), runA.id), await computedAtOf(db(), runB.id)];
    await uploadOrdered(db(), coordinator, c, "C", [3, 1, 2]);
    expect(await outcomeVersion(db(), c.campaignId)).toBe(version);
    await expectFresh(db(), coordinator, c.campaignId);
    expect([await computedAtOf(db(), runA.id), await computedAtOf(db(), runB.id)]).toEqual([atA, atB]);
    // A deleted run: its entries go with it.
    await deleteRun(db(), coordinator, { campaignId: c.campaignId, runId: runB.id });
    const entriesOfB = await db().execute(sql`select 1 from leaderboard_scores where run_id = ${runB.id}`);
    expect(rowsOf(entriesOfB)).toEqual([]);
    const board = await expectFresh(db(), coordinator, c.campaignId);
    expect(board.rows.map((r) => r.run.name)).toEqual(["C", "A"]);

    // An import: a second batch's questions join the golds (the runs have no prediction for them).
    const extra = unique("q");
    await importBatch(db(), system, {
      campaignId: c.campaignId,
      queries: {
        fileName: "more.jsonl",
        source: source(
          JSON.stringify({
            id: extra,
            input: "one more",
            output: [{ answer: "1871", provenance: [{ wikipedia_id: c.pageIds[0], start_paragraph_id: 1, end_paragraph_id: 1 }] }],
          }),
        ),
      },
    });
    const beforeImport = await incrementsOf(db(), c.campaignId);
    const imported = await changed("an import");
    expect(imported.golds.original.questions).toBe(5);
    // Confined to the new batch's questions: updated in place.
    expect(await incrementsOf(db(), c.campaignId)).toBeGreaterThan(beforeImport);
    // The first batch closed (sealed): its questions are read again, in place.
    const beforeClose = await incrementsOf(db(), c.campaignId);
    await changeBatchStatus(db(), coordinator, c.batchId, "close");
    await changed("a batch closed");
    expect(await incrementsOf(db(), c.campaignId)).toBeGreaterThanOrEqual(beforeClose);
  });

  it("never uses an entry computed at another version, nor lets a computation overtaken by a judgment overwrite a fresher one", async () => {
    const c = await makeCampaign(db(), {
      queries: 3,
      candidates: 2,
      settings: { judgmentsPerPassage: 2, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
    });
    const coordinator = await makeUser(db(), "coordinator");
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), a, c, (q, p) => (q === 0 && p === 1 ? "sufficient" : "insufficient"));
    await uploadOrdered(db(), coordinator, c, "A", [2, 1, 3]);
    await expectFresh(db(), coordinator, c.campaignId);
    const campaign = await getCampaign(db(), coordinator, c.campaignId);
    const runList = await runRows(db(), c.campaignId);
    const key = { campaignId: c.campaignId, levels: "paragraph", ks: KS.join(",") };

    // A recompute in flight: its version read, then a judgment lands before it reads the outcomes.
    const inFlight = await outcomeVersion(db(), c.campaignId);
    await judgeOne(db(), b, c, "sufficient");
    const overtaken = await scoreRuns(db(), campaign, runList, KS, ["paragraph"]);
    await writeEntries(db(), key, inFlight, overtaken, new Date());
    // Its entries bear the version it started from: the next read computes again and is right.
    await expectFresh(db(), coordinator, c.campaignId);

    // The other order: the fresh entries are written first; a stale computation finishing late writes nothing over them.
    const current = await outcomeVersion(db(), c.campaignId);
    const stored = rowsOf<{ version: string | number; value: unknown }>(
      await db().execute(sql`select version, value::text as value from leaderboard_scores where run_id = ${runList[0]!.id} order by gold`),
    );
    expect(stored.map((s) => Number(s.version))).toEqual([current, current, current]);
    const stale = await scoreRuns(db(), campaign, runList, KS, ["paragraph"]);
    stale.golds.original.questions = -1;
    for (const r of stale.runs.values()) r.questions.original = -1;
    await writeEntries(db(), key, inFlight, stale, new Date());
    const after = rowsOf<{ version: string | number; value: unknown }>(
      await db().execute(sql`select version, value::text as value from leaderboard_scores where run_id = ${runList[0]!.id} order by gold`),
    );
    expect(after).toEqual(stored);
    await expectFresh(db(), coordinator, c.campaignId);

    // Judgments landing while leaderboard reads compute (concurrent on PostgreSQL): the read after them is fresh.
    await Promise.all([
      getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "page", ks: KS }),
      (async () => {
        for (let t = await nextTask(db(), b, { campaignId: c.campaignId }); t; t = await nextTask(db(), b, { campaignId: c.campaignId }))
          await submitJudgment(db(), b, t.claim.handle, judgmentOf(t, "sufficient"));
      })(),
      getLeaderboard(db(), coordinator, { campaignId: c.campaignId, level: "paragraph", ks: KS }),
    ]);
    await expectFresh(db(), coordinator, c.campaignId);
  });

  // Most of the walk's first page moved: the runs are scored in the walk from its first page. Then
  // `rejected` questions' passages are rejected, fewer than half of the first page (500 questions):
  // at 101 questions, 40 updated in place; at 540, 200 moved, past the limit (108) on the first page,
  // so the walk scores the runs from its second page, and the first page from the golds just stored.
  // Its 540 questions are judged one by one: 8–14 s alone, several times that beside CI's other suites (the timeout).
  it.each([
    [101, 40, 40],
    [540, 200, 0],
  ])(
    "after most questions' golds moved (%i), stores them and scores the runs afresh in the walk instead of updating each in place; then %i rejected",
    async (n, rejected, increments) => {
      const c = await makeCampaign(db(), {
        queries: n,
        candidates: 1,
        settings: { judgmentsPerPassage: 1, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false },
      });
      const coordinator = await makeUser(db(), "coordinator");
      const a = await makeAnnotator(db());
      await judgeAll(db(), a, c, () => "sufficient");
      await uploadOrdered(db(), coordinator, c, "A", [1, 2]);
      await uploadOrdered(db(), coordinator, c, "B", [2, 1]);
      const before = await expectFresh(db(), coordinator, c.campaignId);
      expect(before.golds.endorsed.questions).toBe(n);
      const storedBefore = await storedGoldsOf(db(), c.campaignId);
      // The only annotator paused: every question loses its endorsed passage. One run read first
      // (scored in the walk), then the leaderboard (the other scored from the golds just stored).
      await pauseAnnotator(db(), coordinator, c.campaignId, a.id);
      const campaign = await getCampaign(db(), coordinator, c.campaignId);
      const [runA] = await runRows(db(), c.campaignId);
      const one = await cachedScores(db(), campaign, [runA!], KS, ["paragraph"]);
      const after = await expectFresh(db(), coordinator, c.campaignId);
      const { run: _, ...rowA } = after.rows.find((r) => r.run.id === runA!.id)!;
      expect(figuresText(one.runs.get(runA!.id))).toBe(figuresText(rowA));
      expect(after.golds.endorsed.questions).toBe(0);
      expect(goldsChanged(storedBefore, await storedGoldsOf(db(), c.campaignId))).toBe(n);
      expect(await incrementsOf(db(), c.campaignId)).toBe(0);
      // Resumed: all move back, and the figures are the first ones.
      await resumeAnnotator(db(), coordinator, c.campaignId, a.id);
      const resumed = await expectFresh(db(), coordinator, c.campaignId);
      expect(figuresText(resumed.rows)).toBe(figuresText(before.rows));
      expect(await storedGoldsOf(db(), c.campaignId)).toEqual(storedBefore);
      // Fewer than half of the first page's golds move.
      const passages = rowsOf<{ id: string | number }>(
        await db().execute(sql`
          select p.id from passages p join queries q on q.id = p.query_id
          where q.campaign_id = ${c.campaignId} and not p.is_gold order by q.id limit ${rejected}`),
      );
      for (const p of passages)
        await adjudicatePassage(db(), coordinator, c.campaignId, Number(p.id), { decision: "reject", reason: "wrong" });
      await expectFresh(db(), coordinator, c.campaignId);
      expect(goldsChanged(storedBefore, await storedGoldsOf(db(), c.campaignId))).toBe(rejected);
      expect(await incrementsOf(db(), c.campaignId)).toBe(increments);
    },
    180_000,
  );

  it("reads every question again under Dawid–Skene, and scores every run afresh when a question's original line is replaced", async () => {
    const settings = { judgmentsPerPassage: 2, endorsementThreshold: 1, goldAccuracyThreshold: 0, askWhenNoneSufficient: false };
    const coordinator = await makeUser(db(), "coordinator");
    // Dawid–Skene: one judgment weighs on every question's posterior.
    const ds = await makeCampaign(db(), { queries: 3, candidates: 2, settings: { ...settings, aggregation: "dawid-skene" } });
    const [a, b] = [await makeAnnotator(db()), await makeAnnotator(db())];
    await judgeAll(db(), a, ds, (q, p) => (p <= q + 1 ? "sufficient" : "insufficient"));
    await uploadOrdered(db(), coordinator, ds, "A", [2, 1, 3]);
    await expectFresh(db(), coordinator, ds.campaignId);
    const wideOf = async (campaignId: number) =>
      rowsOf<{ wide: string | number }>(await db().execute(sql`select wide from leaderboard_golds where campaign_id = ${campaignId}`))[0]!
        .wide;
    expect(Number(await wideOf(ds.campaignId))).toBe(-1);
    const beforeJudgment = await storedGoldsOf(db(), ds.campaignId);
    await judgeOne(db(), b, ds, "sufficient");
    await expectFresh(db(), coordinator, ds.campaignId);
    // Every question's golds read again; those that changed updated in place, and the next change reads them all again too.
    expect(await incrementsOf(db(), ds.campaignId)).toBe(goldsChanged(beforeJudgment, await storedGoldsOf(db(), ds.campaignId)));
    expect(Number(await wideOf(ds.campaignId))).toBe(-1);
    await judgeAll(db(), b, ds, () => "insufficient");
    await expectFresh(db(), coordinator, ds.campaignId);

    // Majority: a question's original line replaced (its old golds cannot be rebuilt to be taken out).
    const c = await makeCampaign(db(), { queries: 3, candidates: 2, settings });
    await judgeAll(db(), a, c, (q, p) => (p <= q + 1 ? "sufficient" : "insufficient"));
    await uploadOrdered(db(), coordinator, c, "A", [2, 1, 3]);
    await expectFresh(db(), coordinator, c.campaignId);
    expect(Number(await wideOf(c.campaignId))).toBeGreaterThanOrEqual(0);
    // Past 50,000 questions updated in place, the next catch-up stores the golds and scores the runs afresh from them.
    await db().execute(sql`update leaderboard_golds set increments = 50001 where campaign_id = ${c.campaignId}`);
    await judgeOne(db(), b, c, "sufficient");
    await expectFresh(db(), coordinator, c.campaignId);
    expect(await incrementsOf(db(), c.campaignId)).toBe(0);
    await db().execute(sql`update queries set original_line = replace(original_line, '1871', '1872') where kilt_id = ${c.queryIds[1]!}`);
    const board = await expectFresh(db(), coordinator, c.campaignId);
    expect(await incrementsOf(db(), c.campaignId)).toBe(0);
    expect(board.golds.original.questions).toBe(3);
  });
});
