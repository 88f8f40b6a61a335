import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { Level } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { PAGE_QUERIES } from "../report/kilt-provenance";
import { runRows } from "./list-runs";
import {
  questionVersions,
  rebuildStored,
  sameGolds,
  storedChanges,
  storedGoldsOf,
  walkStored,
  writeQuestionGolds,
  type StoredGolds,
} from "./question-golds";
import { entriesByRun, entriesOf, writeEntryRows, writeGoldsRow, type CacheKey, type Entry } from "./score-entries";
import { accumulatorsOf, addQuestion, type Accumulators } from "./score-runs";
import { GoldCounts, scoredPage, scoredQuestions } from "./scored-pages";
import { GOLDS, type Gold, type PerGold, type RunView } from "./runs.contract";

// How the leaderboard cache (score-cache.ts) catches up with the outcomes, under its per-campaign
// lock. Internal.
//
// - A change confined to some questions (every delta of it names one: db/sql/outcome-versions.sql)
//   updates every stored entry of the campaign in place: each changed question's stored golds taken
//   out of the run's sums and its golds as they are now put in, with the run's guess for it.
// - A campaign-wide change (a setting, a page, a batch deleted), Dawid–Skene (every judgment weighs
//   on every question), a question deleted or its original line replaced, or too many questions
//   changed: every question is read again from the outcomes (scoreEverything).

/** Beyond this share of the questions changed, reading all of them again is as cheap. */
const INCREMENTAL_SHARE = 0.2;
/** Questions updated in place before the sums are computed afresh (each update may move a sum's last bit). */
const MAX_INCREMENTS = 50_000;

interface GoldsRow {
  version: number;
  wide: number;
  increments: number;
  counts: PerGold<{ questions: number }>;
}

async function goldsRowOf(db: Db, campaignId: number): Promise<GoldsRow | null> {
  const [row] = rowsOf<{ version: string | number; wide: string | number; increments: string | number; counts: GoldsRow["counts"] }>(
    await db.execute(sql`select version, wide, increments, counts from leaderboard_golds where campaign_id = ${campaignId}`),
  );
  return row ? { version: Number(row.version), wide: Number(row.wide), increments: Number(row.increments), counts: row.counts } : null;
}

/** The questions whose own changes differ from those their stored golds were read at, in id order. */
function changedQuestions(now: Map<number, number>, stored: Map<number, number>): number[] {
  const ids = new Set<number>();
  for (const [id, changes] of now) if (stored.get(id) !== changes) ids.add(id);
  for (const [id, changes] of stored) if (!now.has(id) && changes !== 0) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** A stored entry set: per query key ("levels|ks") and run, the run's accumulators restored from their sums. */
type Restored = Map<string, Map<number, Accumulators>>;

/** The campaign's entries at `version` that carry their sums, restored; the others are dropped. */
async function restoreEntries(db: Db, campaignId: number, version: number): Promise<Restored> {
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaignId} and version <> ${version}`);
  const rows = rowsOf<{ run_id: string | number; gold: Gold; levels: string; ks: string; value: Entry }>(
    await db.execute(sql`select run_id, gold, levels, ks, value from leaderboard_scores where campaign_id = ${campaignId}`),
  );
  const runs = new Map((await runRows(db, campaignId)).map((r) => [r.id, r]));
  const out: Restored = new Map();
  const byKey = new Map<string, typeof rows>();
  for (const r of rows) byKey.set(`${r.levels}|${r.ks}`, [...(byKey.get(`${r.levels}|${r.ks}`) ?? []), r]);
  for (const [k, list] of byKey) {
    const [levels, ks] = k.split("|") as [string, string];
    const accs = new Map<number, Accumulators>();
    for (const [runId, e] of entriesByRun(list)) {
      const run = runs.get(runId);
      const states = run && GOLDS.every((g) => e[g]?.state) && e.endorsed?.originalOver?.state && e.both?.originalOver?.state;
      if (!run || !states) continue;
      const acc = accumulatorsOf(run, ks.split(",").map(Number), levels.split(",") as Level[]);
      for (const g of GOLDS) acc[g].restore(e[g]!.state!);
      acc.originalOver.endorsed.restore(e.endorsed!.originalOver!.state!);
      acc.originalOver.both.restore(e.both!.originalOver!.state!);
      accs.set(runId, acc);
    }
    out.set(k, accs);
  }
  await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaignId}`);
  return out;
}

/**
 * Brings every stored entry of the campaign to `versions` by updating the changed questions in
 * place; false when it cannot (nothing stored, a campaign-wide change, …: scoreEverything then).
 */
export async function bringUpToDate(
  db: Db,
  campaign: CampaignView,
  versions: { version: number; wide: number },
  at: Date,
): Promise<boolean> {
  const row = await goldsRowOf(db, campaign.id);
  if (!row || row.wide !== versions.wide || campaign.aggregation !== "majority") return false;
  const stored = await storedChanges(db, campaign.id);
  const perQuestion = await questionVersions(db, campaign.id);
  const changed = changedQuestions(perQuestion, stored);
  if (!changed.length && row.version === versions.version) return true;
  if (changed.length > Math.max(100, stored.size * INCREMENTAL_SHARE) || row.increments + changed.length > MAX_INCREMENTS) return false;
  const old = await rebuildStored(db, campaign.id, changed);
  if (!old) return false;
  const restored = await restoreEntries(db, campaign.id, row.version);
  const runIds = [...new Set([...restored.values()].flatMap((m) => [...m.keys()]))];
  const counts = new GoldCounts(row.counts);
  const toStore: StoredGolds[] = [];
  let updated = 0;
  for (let i = 0; i < changed.length; i += PAGE_QUERIES) {
    const ids = changed.slice(i, i + PAGE_QUERIES);
    const page = await scoredPage(db, campaign, runIds, { where: sql`q.id = any(${sql.param(ids)}::bigint[])`, limit: ids.length });
    for (const q of page) {
      const now = storedGoldsOf(q.question, perQuestion.get(q.question.id) ?? 0);
      toStore.push(now);
      const before = old.get(q.question.id);
      if (before && sameGolds(before.stored, now)) continue;
      updated++;
      if (before) counts.add(before.golds, -1);
      counts.add(q.golds);
      for (const accs of restored.values())
        for (const [runId, acc] of accs) {
          const guess = q.guesses.get(runId);
          if (!guess) continue;
          if (before) addQuestion(acc, before.golds, guess, -1);
          addQuestion(acc, q.golds, guess);
        }
    }
  }
  await writeQuestionGolds(db, campaign.id, toStore);
  await writeGoldsRow(db, campaign.id, versions.version, counts.counts, at, { wide: versions.wide, increments: row.increments + updated });
  for (const [k, accs] of restored) {
    const [levels, ks] = k.split("|") as [string, string];
    const key: CacheKey = { campaignId: campaign.id, levels, ks };
    await writeEntryRows(db, key, versions.version, new Map([...accs].map(([runId, acc]) => [runId, entriesOf(acc)])), at);
  }
  return true;
}

/** Runs scored from the stored golds (brought up to date first); null when a question's golds cannot be rebuilt. */
export async function scoreFromStored(
  db: Db,
  campaignId: number,
  runList: RunView[],
  ks: number[],
  levels: Level[],
): Promise<Map<number, Accumulators> | null> {
  const accs = new Map(runList.map((r) => [r.id, accumulatorsOf(r, ks, levels)]));
  if (!runList.length) return accs;
  const whole = await walkStored(db, campaignId, [...accs.keys()], (q, guesses) => {
    for (const [runId, guess] of guesses) addQuestion(accs.get(runId)!, q.golds, guess);
  });
  return whole ? accs : null;
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
  let page: StoredGolds[] = [];
  for await (const q of scoredQuestions(
    db,
    campaign,
    runList.map((r) => r.id),
  )) {
    counts.add(q.golds);
    for (const [runId, guess] of q.guesses) addQuestion(accs.get(runId)!, q.golds, guess);
    page.push(storedGoldsOf(q.question, perQuestion.get(q.question.id) ?? 0));
    if (page.length === PAGE_QUERIES) {
      await writeQuestionGolds(db, campaign.id, page);
      page = [];
    }
  }
  await writeQuestionGolds(db, campaign.id, page);
  const wide = campaign.aggregation === "majority" ? versions.wide : -1;
  await writeGoldsRow(db, campaign.id, versions.version, counts.counts, at, { wide, increments: 0 });
  return accs;
}
