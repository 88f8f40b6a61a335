import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { GoldRecord, GuessRecord } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { endorsementRuleOf, type EndorsementRule } from "../quality/aggregation";
import { PAGE_QUERIES, readProvenancePage, type QuestionProvenance } from "../report/kilt-provenance";
import {
  INCREMENTAL_SHARE,
  restoreEntries,
  scoreFromStored,
  storeCatchUp,
  swapQuestion,
  type Catching,
  type GoldsRow,
  type RunScoring,
} from "./catch-up-store";
import { goldsOf } from "./golds";
import {
  guessesOf,
  rebuiltWith,
  sameGolds,
  storedGoldsIn,
  storedAt,
  storedGoldsOf,
  storedGoldsRebuildable,
  writeQuestionGolds,
  type StoredGolds,
} from "./question-golds";
import { GoldCounts } from "./scored-pages";
import type { PerGold } from "./runs.contract";
import { accumulatorsOf, addGuesses, type Accumulators } from "./score-runs";

// The leaderboard cache's catch-up after a campaign-wide change (score-update.ts calls it): every
// question's golds read again and compared with the stored ones. Internal.

/** One page of the walk: its questions' outcomes, their stored golds, and the runs' guesses when they were asked for. */
interface OutcomePage {
  page: QuestionProvenance[];
  stored: Map<number, StoredGolds>;
  guesses: Map<number, Map<number, GuessRecord>> | null;
}

/**
 * The campaign's questions in pages, in id order, two pages read at a time on the one connection
 * (the next page's statements run while this one's entries are built), each with its stored golds,
 * and with the guesses of `guessRuns()`'s runs when it names some as the page's read is sent.
 */
async function* outcomePages(
  db: Db,
  campaign: CampaignView,
  endorsement: EndorsementRule,
  guessRuns: () => readonly number[] | null,
): AsyncGenerator<OutcomePage> {
  const ids = rowsOf<{ id: string | number }>(
    await db.execute(sql`select id from queries where campaign_id = ${campaign.id} order by id`),
  ).map((r) => Number(r.id));
  const read = async (after: number, upTo: number | null): Promise<OutcomePage> => {
    const runIds = guessRuns();
    const where = upTo === null ? undefined : sql`q.id <= ${upTo}`;
    const page = await readProvenancePage(db, campaign, { location: "span", after, endorsement, where });
    const [stored, guesses] = await Promise.all([
      storedGoldsIn(
        db,
        storedAt(campaign),
        page.map((q) => q.id),
      ),
      runIds ? guessesOf(db, runIds, page) : null,
    ]);
    return { page, stored, guesses };
  };
  // Pages bounded by the ids read above, each read while the one before it is taken; then whatever came after the last of them.
  const bounds: [number, number][] = [];
  for (let i = 0; i < ids.length; i += PAGE_QUERIES) bounds.push([i ? ids[i - 1]! : 0, ids[Math.min(i + PAGE_QUERIES, ids.length) - 1]!]);
  let next = bounds.length ? read(...bounds[0]!) : null;
  for (let i = 0; next; i++) {
    const current = next;
    next = i + 1 < bounds.length ? read(...bounds[i + 1]!) : null;
    next?.catch(() => {}); // awaited on the next round; a caller that stops early leaves no unhandled rejection
    yield await current;
  }
  for (let after = ids.at(-1) ?? 0; ;) {
    const got = await read(after, null);
    if (!got.page.length) return;
    yield got;
    after = got.page.at(-1)!.id;
  }
}

/**
 * Whether most of the walk's first page moved, and as many of every question would be past the
 * limit: then the walk scores the runs from its first page, and does not rebuild the stored golds.
 */
function mostMoved(nows: StoredGolds[], stored: Map<number, StoredGolds>, storedCount: number, limit: number): boolean {
  const moved = nows.filter((now) => !stored.has(now.queryId) || !sameGolds(stored.get(now.queryId)!, now)).length;
  return moved * 2 > nows.length && (moved / nows.length) * storedCount > limit;
}

/**
 * A page of a walk that scores from its first page: the golds to store (those that moved, or whose
 * changes did), and every question's golds now counted and added to the runs with their guesses.
 */
function takeFresh(
  { page, nows, stored }: { page: QuestionProvenance[]; nows: StoredGolds[]; stored: Map<number, StoredGolds> },
  guesses: Map<number, Map<number, GuessRecord>>,
  into: { counts: GoldCounts; scored: Map<number, Accumulators> },
  toStore: StoredGolds[],
): void {
  page.forEach((q, i) => {
    const now = nows[i]!;
    const before = stored.get(q.id);
    if (!before || !sameGolds(before, now) || before.changes !== now.changes) toStore.push(now);
    const golds = goldsOf(q);
    into.counts.add(golds);
    addGuesses(into.scored, golds, guesses.get(q.id));
  });
}

/** A question whose golds moved: its stored golds (null: none stored) and its golds now, for the swap. */
interface Moved {
  id: number;
  kiltId: string;
  before: PerGold<GoldRecord | null> | null;
  now: PerGold<GoldRecord | null>;
}

/**
 * Every question's golds read again from the outcomes and compared with the stored ones. When few
 * moved (at most INCREMENTAL_SHARE of the stored questions, or 100), each of them is taken out of
 * every stored entry and put back in as it is now, and the others are left as they are (after a
 * page's text changed, or a setting that moves few golds, no run is scored again): `{ scored: null }`.
 * When more moved (a change of T moves most consensus spans), the golds are stored and the entries
 * dropped, and `scoring`'s runs are scored afresh, which costs less than two updates per question:
 * from the page after the one where the limit was passed, in the walk, with the golds it has just
 * built; the questions before it from the golds just stored, first, so that every sum takes the
 * questions in id order as the uncached scorer does. The moved questions are not held in memory.
 * When most of the first page moved, the walk scores the runs from the first page, counts the golds
 * afresh, and rebuilds no stored gold (should fewer than the limit move in the end, the entries of
 * other runs are dropped all the same, and scored from the stored golds when next read).
 * False when a stored question's golds cannot be rebuilt: the caller then scores everything afresh,
 * replacing the golds stored so far.
 */
export async function rediff(
  db: Db,
  campaign: CampaignView,
  versions: { version: number; wide: number },
  at: Date,
  { row, perQuestion, storedCount }: Catching & { storedCount: number },
  scoring?: RunScoring,
): Promise<false | { scored: Map<number, Accumulators> | null }> {
  if (!(await storedGoldsRebuildable(db, storedAt(campaign)))) return false;
  const limit = Math.max(100, storedCount * INCREMENTAL_SHARE);
  const toStore: StoredGolds[] = [];
  const counts = new GoldCounts(row.counts);
  let moved: Moved[] | null = []; // null: more than `limit` moved
  let movedCount = 0;
  // The runs scored in the walk, once it started scoring them (after `limit`).
  let scored: Map<number, Accumulators> | null = null;
  const runIds = scoring?.runs.map((r) => r.id) ?? [];
  // Each page's golds are stored as the walk goes (memory flat in the campaign), the write queued on
  // the connection behind the reads in flight and not waited for: the walk goes on with the next page
  // meanwhile. Every way out of the walk waits for the writes (their error is the walk's).
  let writing = Promise.resolve();
  const store = (rows: StoredGolds[]) => {
    writing = writing.then(() => writeQuestionGolds(db, storedAt(campaign), rows));
    writing.catch(() => {}); // awaited below; a walk that throws first leaves no unhandled rejection
  };
  // Counted afresh, question by question, when the walk scores from its first page.
  let fresh: GoldCounts | null = null;
  let firstPage = true;
  try {
    const pages = outcomePages(db, campaign, await endorsementRuleOf(db, campaign), () => (scored ? runIds : null));
    for await (const { page, stored, guesses } of pages) {
      const nows = page.map((q) => storedGoldsOf(q, perQuestion.get(q.id) ?? 0));
      if (firstPage && scoring && runIds.length && mostMoved(nows, stored, storedCount, limit)) {
        // Most of the first page moved: most questions will (a change of T), so the runs are scored from here.
        [moved, fresh] = [null, new GoldCounts()];
        scored = new Map(scoring.runs.map((r) => [r.id, accumulatorsOf(r, scoring.ks, scoring.levels)]));
      }
      firstPage = false;
      if (fresh) {
        takeFresh({ page, nows, stored }, guesses ?? (await guessesOf(db, runIds, page)), { counts: fresh, scored: scored! }, toStore);
        if (toStore.length >= PAGE_QUERIES) store(toStore.splice(0));
        continue;
      }
      if (!moved && scoring && runIds.length && !scored && page.length) {
        // Scored from here on: the questions before this page first, from their golds as just stored.
        store(toStore.splice(0));
        await writing;
        scored = await scoreFromStored(db, storedAt(campaign), scoring, page[0]!.id);
        if (!scored) return false;
      }
      const pageGuesses = scored ? (guesses ?? (await guessesOf(db, runIds, page))) : null;
      for (const [i, q] of page.entries()) {
        const now = nows[i]!;
        const before = stored.get(q.id);
        let golds: PerGold<GoldRecord | null> | null = null;
        if (before && sameGolds(before, now)) {
          if (before.changes !== now.changes) toStore.push(now);
        } else {
          toStore.push(now);
          const old = before ? rebuiltWith(before, q.originalLine, q.kiltId) : null;
          if (before && !old) return false; // its original line replaced since the check above: every question is scored afresh
          golds = goldsOf(q);
          if (old) counts.add(old.golds, -1);
          counts.add(golds);
          movedCount++;
          if (moved && movedCount > limit) moved = null;
          moved?.push({ id: q.id, kiltId: q.kiltId, before: old?.golds ?? null, now: golds });
        }
        if (scored) addGuesses(scored, golds ?? goldsOf(q), pageGuesses!.get(q.id));
      }
      // A catch-up that stops after this scores everything afresh.
      if (toStore.length >= PAGE_QUERIES) store(toStore.splice(0));
    }
  } finally {
    await writing;
  }
  return storeWalk(db, campaign, versions, at, { row, toStore, counts: fresh ?? counts, moved, scored }, scoring);
}

/** What a walk leaves: the golds to store and their sizes, the questions that moved (null: past the limit), and the runs it scored. */
interface Walked {
  row: GoldsRow;
  toStore: StoredGolds[];
  counts: GoldCounts;
  moved: Moved[] | null;
  scored: Map<number, Accumulators> | null;
}

/**
 * Stores what the walk found: past the limit, the golds and the golds row with the entries dropped
 * (the runs the walk did not score are scored from the golds just stored); else the moved questions
 * swapped in every stored entry.
 */
async function storeWalk(
  db: Db,
  campaign: CampaignView,
  versions: { version: number; wide: number },
  at: Date,
  { row, toStore, counts, moved, scored }: Walked,
  scoring?: RunScoring,
): Promise<false | { scored: Map<number, Accumulators> | null }> {
  // Under Dawid–Skene every judgment may move every question: the next change reads them all again (wide -1).
  const wide = campaign.aggregation === "majority" ? versions.wide : -1;
  if (!moved) {
    await db.execute(sql`delete from leaderboard_scores where campaign_id = ${campaign.id}`);
    await storeCatchUp(db, campaign, versions, at, { toStore, counts, restored: new Map(), increments: 0, wide, fresh: true });
    // Past the limit on the last page: nothing scored in the walk, every question from the golds just stored.
    const runs = scored ?? (scoring ? await scoreFromStored(db, storedAt(campaign), scoring) : null);
    return scoring && !runs ? false : { scored: runs };
  }
  const restored = await restoreEntries(db, campaign.id, row.version);
  const restoredRuns = [...new Set([...restored.values()].flatMap((m) => [...m.keys()]))];
  for (let i = 0; i < moved.length; i += PAGE_QUERIES) {
    const page = moved.slice(i, i + PAGE_QUERIES);
    const guesses = await guessesOf(db, restoredRuns, page);
    for (const m of page) swapQuestion(restored, m.before, m.now, guesses.get(m.id) ?? new Map());
  }
  await storeCatchUp(db, campaign, versions, at, { toStore, counts, restored, increments: row.increments + moved.length, wide });
  return { scored: null };
}
