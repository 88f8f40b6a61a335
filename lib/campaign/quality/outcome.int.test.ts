import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { describe, expect, it } from "vitest";
import { rowsOf, type DatabaseHandle, type Db } from "@/db/client";
import { migrateDatabase, migrationsFolder } from "@/db/migrate";
import { annotatorStandings, campaigns, judgments, passages, queries } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { judgmentOf, makeAnnotator, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, openPrivateDatabase, testDatabaseKinds, type DatabaseKind, seededRandom } from "@/test/databases";
import { nextTask } from "../annotate/assignment";
import { submitJudgment } from "../annotate/judgments";
import { updateCampaign } from "../campaigns";
import { annotatorRows } from "../report/annotator-rows";
import { getDashboard } from "../report/dashboard";
import { exportKilt, type ExportReport } from "../report/export-kilt";
import { listQuestions } from "../report/question-list";
import { questionListQuerySchema } from "../report/question-list-options";
import { getQuestionView } from "../report/question-view";
import {
  agreesWithOutcome,
  closesEarly,
  isUnanswerable,
  passageOutcome,
  questionOutcome,
  type PassageOutcome,
  type QuestionTally,
} from "./outcome";
import { pauseAnnotator, resumeAnnotator } from "./standings";

const random = seededRandom;

/**
 * Every outcome of a campaign computed in TypeScript from the raw rows: which judgments count
 * (annotators in good standing, the first R of each passage in time order), the passages' counts,
 * and from those, with the rules of outcome.ts, each passage's and question's outcome and each
 * judgment's agreement with it. Only `is_decided` is read as stored (it records when early stop
 * closed a passage); `checkEarlyStop` holds it to the rule.
 */
async function outcomesFromRows(db: Db, campaignId: number) {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const ps = await db.select().from(passages).where(eq(passages.campaignId, campaignId)).orderBy(asc(passages.id));
  const js = await db
    .select()
    .from(judgments)
    .where(eq(judgments.campaignId, campaignId))
    .orderBy(asc(judgments.createdAt), asc(judgments.id));
  const standings = await db
    .select()
    .from(annotatorStandings)
    .where(and(eq(annotatorStandings.campaignId, campaignId), eq(annotatorStandings.status, "paused")));
  const qs = await db
    .select({ id: queries.id, kiltId: queries.kiltId })
    .from(queries)
    .where(eq(queries.campaignId, campaignId))
    .orderBy(asc(queries.id));
  const paused = new Set(standings.map((s) => s.userId));
  const r = campaign!.judgmentsPerPassage;

  const passageOf = new Map(
    ps.map((p) => {
      const counted = js.filter((j) => j.passageId === p.id && !paused.has(j.userId)).slice(0, r);
      const judgmentCount = counted.length;
      const sufficientCount = counted.filter((j) => j.verdict === "sufficient").length;
      const outcome = passageOutcome(
        { judgmentCount, sufficientCount, isDecided: p.isDecided, isGold: p.isGold, expectedVerdict: p.expectedVerdict },
        campaign!,
      );
      return [p.id, { row: p, judgmentCount, sufficientCount, outcome }] as const;
    }),
  );
  const agreement = new Map<number, { compared: number; agreed: number }>();
  for (const j of js) {
    const { outcome } = passageOf.get(j.passageId)!;
    const agrees = agreesWithOutcome(j.verdict, outcome.finished, outcome.endorsed);
    const a = agreement.get(j.userId) ?? { compared: 0, agreed: 0 };
    if (agrees !== null) a.compared++;
    if (agrees) a.agreed++;
    agreement.set(j.userId, a);
  }
  const questions = qs.map((q) => {
    const own = [...passageOf.values()].filter((p) => p.row.queryId === q.id);
    const count = (f: (o: PassageOutcome) => boolean) => own.filter((p) => f(p.outcome)).length;
    return {
      id: q.id,
      kiltId: q.kiltId,
      passages: own.length,
      finished: count((o) => o.finished),
      endorsed: count((o) => o.endorsed),
      disputed: count((o) => o.disputed),
      unanswerable: isUnanswerable(own.map((p) => p.outcome)),
      own,
    };
  });
  return { campaign: campaign!, passages: [...passageOf.values()], judgments: js, agreement, questions };
}

type Expected = Awaited<ReturnType<typeof outcomesFromRows>>;

/** What the question list shows of a question, and the rows are expected to give: its tallies and its outcome. */
function questionFigures(q: QuestionTally & { id: number; disputed: number }) {
  return {
    id: q.id,
    passages: q.passages,
    finished: q.finished,
    endorsed: q.endorsed,
    disputed: q.disputed,
    unanswerable: q.unanswerable,
    outcome: questionOutcome(q),
  };
}

/** The stored counters, the dashboard (tallies), the question list and view, and the KILT export agree with the rules. */
async function expectAgreement(db: Db, campaignId: number, stage: string): Promise<Expected> {
  const e = await outcomesFromRows(db, campaignId);
  for (const p of e.passages) {
    expect({ id: p.row.id, judgmentCount: p.row.judgmentCount, sufficientCount: p.row.sufficientCount }, stage).toEqual({
      id: p.row.id,
      judgmentCount: p.judgmentCount,
      sufficientCount: p.sufficientCount,
    });
  }
  const count = <T>(rows: readonly T[], f: (row: T) => boolean) => rows.filter(f).length;

  const dash = await getDashboard(db, system, campaignId);
  expect(dash.totals, stage).toMatchObject({
    passages: e.passages.length,
    filled: e.passages.reduce((s, p) => s + p.judgmentCount, 0),
    finishedPassages: count(e.passages, (p) => p.outcome.finished),
    endorsedPassages: count(e.passages, (p) => p.outcome.endorsed),
  });
  expect(dash.questions, stage).toEqual({
    unanswerable: count(e.questions, (q) => q.unanswerable),
    answered: count(e.questions, (q) => q.endorsed > 0),
  });
  expect(new Map(dash.disputed.map((q) => [q.queryId, q.disputed])), stage).toEqual(
    new Map(e.questions.filter((q) => q.disputed > 0).map((q) => [q.id, q.disputed])),
  );
  for (const row of await annotatorRows(db, campaignId)) {
    const a = e.agreement.get(row.userId) ?? { compared: 0, agreed: 0 };
    expect({ user: row.userId, compared: row.compared, agreement: row.agreement }, stage).toEqual({
      user: row.userId,
      compared: a.compared,
      agreement: a.compared ? a.agreed / a.compared : null,
    });
  }

  const list = await listQuestions(db, system, campaignId, questionListQuerySchema.parse({ limit: 200 }));
  expect(list.questions.map(questionFigures), stage).toEqual(e.questions.map(questionFigures));

  for (const q of e.questions) {
    const view = await getQuestionView(db, system, campaignId, q.id);
    expect(view.unanswerable, `${stage}: question ${q.id}`).toBe(q.unanswerable);
    expect(
      new Map(
        view.passages.map((p) => [
          p.id,
          { finished: p.finished, endorsed: p.endorsed, judgments: p.judgmentCount, sufficient: p.sufficientCount },
        ]),
      ),
      stage,
    ).toEqual(
      new Map(
        q.own.map((p) => [
          p.row.id,
          { finished: p.outcome.finished, endorsed: p.outcome.endorsed, judgments: p.judgmentCount, sufficient: p.sufficientCount },
        ]),
      ),
    );
  }

  // The export: a line per answerable question with an endorsed passage, an entry (with its votes) per endorsed passage.
  let report: ExportReport | undefined;
  const exported = new Map<string, string[]>();
  for await (const line of exportKilt(db, system, campaignId, { location: "span" }, (r) => (report = r))) {
    const parsed = JSON.parse(line) as {
      id: string;
      output: {
        provenance?: {
          wikipedia_id: string;
          meta?: { passage: { start_paragraph_id: number }; votes: { sufficient: number; insufficient: number } };
        }[];
      }[];
    };
    const entries = parsed.output.flatMap((o) => o.provenance ?? []).filter((p) => p.meta?.votes);
    exported.set(
      parsed.id,
      entries
        .map((p) => `${p.wikipedia_id}:${p.meta!.passage.start_paragraph_id}:${p.meta!.votes.sufficient}/${p.meta!.votes.insufficient}`)
        .sort(),
    );
  }
  const answerable = e.questions.filter((q) => !q.unanswerable);
  const endorsedOf = (q: (typeof e.questions)[number]) =>
    q.own
      .filter((p) => p.outcome.endorsed)
      .map((p) => `${p.row.wikipediaId}:${p.row.startParagraphId}:${p.sufficientCount}/${p.judgmentCount - p.sufficientCount}`);
  expect(exported, stage).toEqual(new Map(answerable.filter((q) => q.endorsed > 0).map((q) => [q.kiltId, endorsedOf(q).sort()])));
  expect(report, stage).toMatchObject({
    queries: e.questions.length,
    queriesExported: count(answerable, (q) => q.endorsed > 0),
    passagesEndorsed: answerable.reduce((s, q) => s + q.endorsed, 0),
    withoutEndorsement: count(answerable, (q) => q.endorsed === 0),
  });
  expect(new Set(report!.unanswerable), stage).toEqual(new Set(e.questions.filter((q) => q.unanswerable).map((q) => q.kiltId)));
  return e;
}

/**
 * Early stop, against the rule: a passage closed early must have a fixed outcome, and a passage
 * judged since early stop came on (judgment id above `since`) is closed exactly when its outcome is.
 */
function checkEarlyStop(e: Expected, since: number, stage: string) {
  for (const p of e.passages) {
    const fixed = closesEarly(e.campaign, p);
    if (p.row.isDecided) expect(fixed, `${stage}: passage ${p.row.id} closed early`).toBe(true);
    if (e.judgments.some((j) => j.passageId === p.row.id && j.id > since))
      expect(p.row.isDecided, `${stage}: passage ${p.row.id} judged since`).toBe(fixed);
  }
}

/**
 * Random judging by a team. Every claim is judged at once: a claim still open when a paused
 * annotator is resumed would be judged on top of R counted judgments (a known gap of the counters,
 * not of the outcome rules).
 */
function judging(db: Db, campaignId: number, team: UserActor[], next: () => number) {
  return async (steps: number, bias = 0.55) => {
    for (let i = 0; i < steps; i++) {
      const who = team[Math.floor(next() * team.length)]!;
      const task = await nextTask(db, who, { campaignId }).catch(() => null);
      if (!task) continue;
      await submitJudgment(db, who, task.claim.handle, judgmentOf(task, next() < bias ? "sufficient" : "insufficient"));
    }
  };
}

describeEachDatabase("outcome rules", ({ db }) => {
  it("tallies, question list, question view and KILT export agree with the rules over the raw rows, through pauses, resumes, R/T changes and early stop", async () => {
    const next = random(20261201);
    const c = await makeCampaign(db(), { queries: 6, candidates: 2, settings: { goldMinJudgments: 10_000, earlyStop: false } });
    const team = await makeAnnotators(db(), 5);
    const round = judging(db(), c.campaignId, team, next);

    // R may change before annotation starts (R = 4, T = 2).
    await updateCampaign(db(), system, c.campaignId, { judgmentsPerPassage: 4 });
    await expectAgreement(db(), c.campaignId, "before any judgment");
    await round(40);
    await expectAgreement(db(), c.campaignId, "after judging");

    await pauseAnnotator(db(), system, c.campaignId, team[0]!.id);
    await expectAgreement(db(), c.campaignId, "after a pause");
    await round(25);
    await resumeAnnotator(db(), system, c.campaignId, team[0]!.id);
    await expectAgreement(db(), c.campaignId, "after a resume");

    await updateCampaign(db(), system, c.campaignId, { endorsementThreshold: 3 });
    await expectAgreement(db(), c.campaignId, "after T 2 → 3");

    const before = await outcomesFromRows(db(), c.campaignId);
    const since = Math.max(0, ...before.judgments.map((j) => j.id));
    await updateCampaign(db(), system, c.campaignId, { earlyStop: true });
    await round(50, 0.5);
    checkEarlyStop(await expectAgreement(db(), c.campaignId, "with early stop"), since, "with early stop");
    await pauseAnnotator(db(), system, c.campaignId, team[1]!.id);
    checkEarlyStop(await expectAgreement(db(), c.campaignId, "with early stop, after a pause"), since, "with early stop, after a pause");
    await resumeAnnotator(db(), system, c.campaignId, team[1]!.id);
    await round(30, 0.3);
    const end = await expectAgreement(db(), c.campaignId, "at the end");
    checkEarlyStop(end, since, "at the end");
    // The run reached every kind of outcome, or it proved less than it claims.
    expect(end.passages.some((p) => p.row.isDecided && p.judgmentCount < end.campaign.judgmentsPerPassage)).toBe(true);
    expect(end.passages.some((p) => p.outcome.endorsed)).toBe(true);
    expect(end.passages.some((p) => p.outcome.disputed)).toBe(true);
    expect(end.questions.some((q) => q.unanswerable)).toBe(true);
  });
});

/** A database migrated up to `tag` only, as an installation of that version left it. */
async function migrateUpTo(handle: DatabaseHandle, tag: string): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), "kps-migrations-"));
  try {
    await cp(migrationsFolder, folder, { recursive: true });
    const journalPath = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
    journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag) + 1);
    await writeFile(journalPath, JSON.stringify(journal));
    if (handle.kind === "pglite") await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder: folder });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Today's code writes the columns of a later migration (claim handles, 0006): applied ahead, as it is idempotent. */
async function applyAhead(handle: DatabaseHandle, tag: string): Promise<void> {
  const text = await readFile(path.join(migrationsFolder, `${tag}.sql`), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) await handle.db.execute(sql.raw(statement));
}

/** The rule functions 0004 defines (its first six statements), and their removal before 0004 runs whole. */
const RULE_FUNCTIONS = [
  "kps_is_endorsed",
  "kps_is_finished",
  "kps_is_disputed",
  "kps_closes_early",
  "kps_misses_gold",
  "kps_agrees_with_outcome",
];

/**
 * Today's judgment statement calls 0004's rule functions: a database at 0003 gets them ahead, to be
 * judged by today's code, and loses them again before the upgrade, which then runs as written.
 */
async function defineRulesAhead(handle: DatabaseHandle): Promise<() => Promise<void>> {
  const text = await readFile(path.join(migrationsFolder, "0004_outcome_rules.sql"), "utf8");
  const statements = text.split("--> statement-breakpoint").slice(0, RULE_FUNCTIONS.length);
  for (const [i, statement] of statements.entries()) {
    expect(statement).toContain(`CREATE FUNCTION ${RULE_FUNCTIONS[i]}(`);
    await handle.db.execute(sql.raw(statement));
  }
  return async () => {
    await handle.db.execute(sql.raw(`DROP FUNCTION ${RULE_FUNCTIONS.join(", ")}`));
  };
}

/** A fresh database of its own (the upgrade needs one that has not seen migration 0004). */
const openEmptyDatabase = (kind: DatabaseKind) => openPrivateDatabase(kind, { migrate: false });

for (const kind of testDatabaseKinds()) {
  describe(`migration 0004 on a database with data [${kind}]`, () => {
    it("keeps the tallies and outcomes of judgments made before it, and the rules hold after it", async () => {
      const { handle, drop } = await openEmptyDatabase(kind);
      try {
        const db = handle.db;
        await migrateUpTo(handle, "0003_judgment_hours");
        await applyAhead(handle, "0006_sealed_batches_claim_handles");
        await applyAhead(handle, "0007_annotator_experience");
        await applyAhead(handle, "0008_crowd_campaigns");
        await applyAhead(handle, "0009_proposals_explanations_search");
        await applyAhead(handle, "0011_quality_control");
        await applyAhead(handle, "0013_task_kinds");
        await applyAhead(handle, "0014_el_page_level");
        await applyAhead(handle, "0015_evidence_sets");
        const dropRules = await defineRulesAhead(handle);
        const next = random(20261202);
        const c = await makeCampaign(db, { queries: 4, candidates: 2, settings: { goldMinJudgments: 10_000 } });
        const team: UserActor[] = [];
        for (let i = 0; i < 4; i++) team.push(await makeAnnotator(db));
        const round = judging(db, c.campaignId, team, next);
        // Before 0004: judgments, a change of T (the 0002 retally) and early stop (no pause: its recount calls the 0004 rules).
        await round(30);
        await updateCampaign(db, system, c.campaignId, { endorsementThreshold: 3 });
        await updateCampaign(db, system, c.campaignId, { earlyStop: true });
        await round(20, 0.4);

        const ruleFunction = async () =>
          rowsOf<{ f: string | null }>(await db.execute(sql`select to_regproc('kps_is_endorsed')::text as f`))[0]?.f;
        await dropRules();
        expect(await ruleFunction()).toBeNull();
        await migrateDatabase(handle);
        expect(await ruleFunction()).toBe("kps_is_endorsed");
        await expectAgreement(db, c.campaignId, "right after the upgrade");
        await pauseAnnotator(db, system, c.campaignId, team[0]!.id);
        await round(15);
        await resumeAnnotator(db, system, c.campaignId, team[0]!.id);
        await updateCampaign(db, system, c.campaignId, { endorsementThreshold: 2 });
        await expectAgreement(db, c.campaignId, "after the upgrade");
      } finally {
        await drop();
      }
    }, 120_000); // an initdb and every migration, twice: slow on a loaded machine
  });
}
