import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Level } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { PAGE_QUERIES, type QuestionProvenance } from "../report/kilt-provenance";
import {
  goldsRowOf,
  INCREMENTAL_SHARE,
  restoreEntries,
  storeCatchUp,
  swapQuestion,
  type Catching,
  type RunScoring,
} from "./catch-up-store";
import {
  questionVersions,
  rebuildStored,
  sameGolds,
  storedAt,
  storedChanges,
  storedGoldsOf,
  walkStored,
  writeQuestionGolds,
  type StoredGolds,
} from "./question-golds";
import { goldSettingsOf, keepAtOtherTs, otherTs, retarget, syncGoldsAtT } from "./golds-at-t";
import { writeGoldsRow } from "./score-entries";
import { rediff } from "./score-rediff";
import { accumulatorsOf, addGuesses, type Accumulators } from "./score-runs";
import { GoldCounts, scoredPage, scoredQuestions } from "./scored-pages";
import type { RunView } from "./runs.contract";

// How the leaderboard cache (score-cache.ts) catches up with the outcomes, under its per-campaign
// lock. Internal.
//
// - A change confined to some questions (every delta of it names one: db/sql/outcome-versions.sql)
//   updates every stored entry of the campaign in place: each changed question's stored golds taken
//   out of the run's sums and its golds as they are now put in, with the run's guess for it. So does
//   a campaign-wide change that leaves R, T and the aggregation as the golds were read with (another
//   setting): golds are read with those alone and the questions' own rows.
// - A change of T whose golds were kept (golds-at-t.ts): the runs scored from them.
// - Another change of R, T or the aggregation, Dawid–Skene (every judgment weighs on every
//   question), or too many questions changed: every question's golds are read again from the
//   outcomes and compared with the stored ones, and only those that differ are updated in place
//   (rediff): the runs are not scored again for the others.
// - Nothing stored yet, a question deleted or its original line replaced (its stored golds cannot be
//   rebuilt to be taken out): every question is read again and every run scored (scoreEverything).
// - After MAX_INCREMENTS questions updated in place, the sums are computed afresh from the stored golds.

/** The questions whose own changes differ from those their stored golds were read at, in id order. */
function changedQuestions(now: Map<number, number>, stored: Map<number, number>): number[] {
  const ids = new Set<number>();
  for (const [id, changes] of now) if (stored.get(id) !== changes) ids.add(id);
  for (const [id, changes] of stored) if (!now.has(id) && changes !== 0) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** What a catch-up did: false when it could not (scoreEverything then); `scored`, the runs it scored afresh when it dropped the entries. */
type Caught = false | { scored: Map<number, Accumulators> | null };
/** A catch-up's arguments: the campaign, the versions to bring it to, when, and the runs to score should the entries be dropped. */
type CatchUpArgs = [db: Db, campaign: CampaignView, versions: { version: number; wide: number }, at: Date, scoring?: RunScoring];

/**
 * Brings every stored entry of the campaign to `versions`: the changed questions updated in place
 * when the change is confined to a few of them; after a change of T whose golds were kept
 * (golds-at-t.ts), the runs scored from them; else every question's golds read again and only
 * those that differ from the stored ones updated in place (rediff). False when it cannot (nothing
 * stored, a question deleted or its original line replaced: scoreEverything then). `scored`: when
 * the entries were dropped instead (a change of T, too many golds moved), `scoring`'s runs scored
 * afresh. The golds kept at the other Ts are then brought into step with the stored ones.
 */
export async function bringUpToDate(...args: CatchUpArgs): Promise<Caught> {
  const [db, campaign] = args;
  const caught = await catchUp(...args);
  if (caught) await syncGoldsAtT(db, campaign);
  return caught;
}

async function catchUp(...args: CatchUpArgs): Promise<Caught> {
  const [db, campaign, versions, at, scoring] = args;
  const row = await goldsRowOf(db, campaign.id);
  if (!row || row.t === null) return false;
  // A change of T whose golds were kept (golds-at-t.ts): the runs scored from them, no outcome read again.
  const moved = await retarget(db, campaign, { t: row.t, r: row.r });
  if (moved === "taken") return scoreTaken(...args);
  const stored = await storedChanges(db, storedAt(campaign));
  const perQuestion = await questionVersions(db, campaign.id);
  // Golds are read with R, T and the aggregation alone (and the questions' own rows, whose every change
  // names its question): when those are as the golds were read with, a campaign-wide change (another
  // setting) moves none, and only the questions changed on their own are read again.
  const settled = moved === "same" && campaign.aggregation === "majority" && row.r === campaign.judgmentsPerPassage;
  if (settled) {
    const changed = changedQuestions(perQuestion, stored);
    if (!changed.length && row.version === versions.version) return { scored: null };
    if (changed.length <= Math.max(100, stored.size * INCREMENTAL_SHARE))
      return (await updateQuestions(db, campaign, versions, at, { row, changed, perQuestion })) && { scored: null };
  }
  return rediff(db, campaign, versions, at, { row, perQuestion, storedCount: stored.size }, scoring);
}

/**
 * After the golds kept for the new T were taken (retarget): the entries dropped, the
 * questions changed since their golds were read read again, and `scoring`'s runs scored from the
 * stored golds, every question's golds counted on the way. False when a question's golds cannot be
 * rebuilt (a question deleted, an original line replaced): scoreEverything then.
 */
async function scoreTaken(...args: CatchUpArgs): Promise<Caught> {
  const [db, campaign, versions, at, scoring] = args;
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaign.id}`);
  const perQuestion = await questionVersions(db, campaign.id);
  const changed = changedQuestions(perQuestion, await storedChanges(db, storedAt(campaign)));
  const ts = otherTs(campaign);
  for (let i = 0; i < changed.length; i += PAGE_QUERIES) {
    const ids = changed.slice(i, i + PAGE_QUERIES);
    const page = await scoredPage(db, campaign, [], {
      where: sql`q.id = any(${sql.param(ids)}::bigint[])`,
      limit: ids.length,
      otherTs: ts,
    });
    const read = page.map((q) => ({ question: q.question, atOtherTs: q.atOtherTs, changes: perQuestion.get(q.question.id) ?? 0 }));
    await writeQuestionGolds(
      db,
      storedAt(campaign),
      read.map((q) => storedGoldsOf(q.question, q.changes)),
    );
    await keepAtOtherTs(db, campaign.id, ts, read);
  }
  const accs = new Map((scoring?.runs ?? []).map((r) => [r.id, accumulatorsOf(r, scoring!.ks, scoring!.levels)]));
  const counts = new GoldCounts();
  const walked = await walkStored(db, storedAt(campaign), [...accs.keys()], (q, guesses) => {
    counts.add(q.golds);
    addGuesses(accs, q.golds, guesses);
  });
  if (!walked) return false;
  await writeGoldsRow(db, campaign.id, versions.version, counts.counts, at, {
    wide: versions.wide,
    increments: 0,
    settings: goldSettingsOf(campaign),
  });
  return { scored: scoring ? accs : null };
}

/** A change confined to `changed`: those questions read again from the outcomes and updated in place. */
async function updateQuestions(
  db: Db,
  campaign: CampaignView,
  versions: { version: number; wide: number },
  at: Date,
  { row, changed, perQuestion }: Catching & { changed: number[] },
): Promise<boolean> {
  const old = await rebuildStored(db, storedAt(campaign), changed);
  if (!old) return false;
  const restored = await restoreEntries(db, campaign.id, row.version);
  const runIds = [...new Set([...restored.values()].flatMap((m) => [...m.keys()]))];
  const counts = new GoldCounts(row.counts);
  const toStore: StoredGolds[] = [];
  let updated = 0;
  const ts = otherTs(campaign);
  for (let i = 0; i < changed.length; i += PAGE_QUERIES) {
    const ids = changed.slice(i, i + PAGE_QUERIES);
    const where = sql`q.id = any(${sql.param(ids)}::bigint[])`;
    const page = await scoredPage(db, campaign, runIds, { where, limit: ids.length, otherTs: ts });
    const read = page.map((q) => ({ atOtherTs: q.atOtherTs, changes: perQuestion.get(q.question.id) ?? 0 }));
    await keepAtOtherTs(db, campaign.id, ts, read);
    for (const q of page) {
      const now = storedGoldsOf(q.question, perQuestion.get(q.question.id) ?? 0);
      toStore.push(now);
      const before = old.get(q.question.id);
      if (before && sameGolds(before.stored, now)) continue;
      updated++;
      if (before) counts.add(before.golds, -1);
      counts.add(q.golds);
      swapQuestion(restored, before?.golds ?? null, q.golds, q.guesses);
    }
  }
  await storeCatchUp(db, campaign, versions, at, { toStore, counts, restored, increments: row.increments + updated, wide: versions.wide });
  return true;
}

/**
 * Every question read again from the outcomes: the campaign's entries and stored golds dropped, the
 * golds stored afresh with each question's changes (read before its outcomes), the runs scored.
 */
export async function scoreEverything(
  db: Db,
  campaign: CampaignView,
  runList: RunView[],
  ks: number[],
  levels: Level[],
  versions: { version: number; wide: number },
  at: Date,
): Promise<Map<number, Accumulators>> {
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaign.id}`);
  await db.execute(sql`delete from leaderboard_question_golds where campaign_id = ${campaign.id}`);
  const perQuestion = await questionVersions(db, campaign.id);
  const accs = new Map(runList.map((r) => [r.id, accumulatorsOf(r, ks, levels)]));
  const counts = new GoldCounts();
  const ts = otherTs(campaign);
  // Each page's golds stored, and those at the other Ts kept (read in the same reading of the database).
  let page: { question: QuestionProvenance; atOtherTs: QuestionProvenance[]; changes: number }[] = [];
  const store = async () => {
    await writeQuestionGolds(
      db,
      storedAt(campaign),
      page.map((q) => storedGoldsOf(q.question, q.changes)),
    );
    await keepAtOtherTs(db, campaign.id, ts, page);
    page = [];
  };
  for await (const q of scoredQuestions(
    db,
    campaign,
    runList.map((r) => r.id),
    ts,
  )) {
    counts.add(q.golds);
    addGuesses(accs, q.golds, q.guesses);
    page.push({ question: q.question, atOtherTs: q.atOtherTs, changes: perQuestion.get(q.question.id) ?? 0 });
    if (page.length === PAGE_QUERIES) await store();
  }
  await store();
  const wide = campaign.aggregation === "majority" ? versions.wide : -1;
  await writeGoldsRow(db, campaign.id, versions.version, counts.counts, at, { wide, increments: 0, settings: goldSettingsOf(campaign) });
  await syncGoldsAtT(db, campaign);
  return accs;
}
