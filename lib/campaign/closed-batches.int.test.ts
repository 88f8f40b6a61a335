import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { rowsOf, type Db } from "@/db/client";
import { migrationsFolder } from "@/db/migrate";
import { passages } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { judgmentOf, makeAnnotators, makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase } from "@/test/databases";
import { nextTask, renewClaim } from "./annotate/assignment";
import type { Task } from "./annotate/judging.contract";
import { submitJudgment } from "./annotate/judgments";
import { changeBatchStatus } from "./batches";
import { updateCampaign } from "./campaigns";
import { pauseAnnotator } from "./quality/standings";
import { exportJudgments } from "./report/export-judgments";
import { exportKilt } from "./report/export-kilt";
import { exportedBytes } from "@/test/exported";

/**
 * A launched campaign of `queries` questions with `candidates` candidates each, where a passage
 * takes `r` judgments and `t` sufficient ones endorse it; gold never pauses anyone here.
 */
function judgedCampaign(db: Db, shape: { queries: number; candidates: number; r: number; t: number }) {
  const settings = { judgmentsPerPassage: shape.r, endorsementThreshold: shape.t, goldMinJudgments: 10_000 };
  return makeCampaign(db, { queries: shape.queries, candidates: shape.candidates, settings });
}

/** "ok", or the refusal as "status code: message". */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}: ${error.message}`;
    throw error;
  }
}

/** Every export of one batch, as the bytes a download would carry. */
async function exportsOf(db: Db, campaignId: number, batchId: number): Promise<string> {
  const parts: string[] = [];
  for (const location of ["span", "passage"] as const) {
    for await (const line of exportKilt(db, system, campaignId, { batchId, location })) parts.push(line);
    parts.push("--\n");
  }
  parts.push((await exportedBytes(exportJudgments(db, system, campaignId, { batchId }))).toString("utf8"));
  return parts.join("");
}

/** Live claims and open slots of a batch's passages agree with their judgments: R − judgments − live claims. */
async function countersOf(db: Db, campaignId: number) {
  const ps = await db.select().from(passages).where(eq(passages.campaignId, campaignId));
  return ps.map((p) => ({ claims: p.claimCount, open: p.openSlots, judged: p.judgmentCount }));
}

/** `who` judges every passage they are given; with `keepLast`, the last one stays claimed (returned) instead. */
async function judgeAll(
  db: Db,
  who: UserActor,
  campaignId: number,
  verdict: "sufficient" | "insufficient",
  keepLast = false,
): Promise<Task | null> {
  for (let t = await nextTask(db, who, { campaignId }); t; t = await nextTask(db, who, { campaignId })) {
    // The prefetch claims the next passage, which the next round resumes; none left: keep this one.
    if (keepLast && !(await nextTask(db, who, { campaignId, after: t.claim.handle }))) return t;
    await submitJudgment(db, who, t.claim.handle, judgmentOf(t, verdict));
  }
  return null;
}

describeEachDatabase("closed means closed", ({ db }) => {
  it("pausing a batch ends its claims, hands out nothing and refuses judgments on claims made before (409); relaunching reopens the slots", async () => {
    const c = await judgedCampaign(db(), { queries: 2, candidates: 1, r: 2, t: 1 });
    const [a, b] = await makeAnnotators(db(), 2);
    const ta = (await nextTask(db(), a!, { campaignId: c.campaignId }))!;
    const tb = (await nextTask(db(), b!, { campaignId: c.campaignId }))!;
    expect((await countersOf(db(), c.campaignId)).reduce((n, p) => n + p.claims, 0)).toBe(2);

    await changeBatchStatus(db(), system, c.batchId, "pause");
    expect(await countersOf(db(), c.campaignId)).toEqual(Array.from({ length: 4 }, () => ({ claims: 0, open: 2, judged: 0 })));
    expect(await nextTask(db(), a!, { campaignId: c.campaignId })).toBeNull();
    expect(await outcome(submitJudgment(db(), a!, ta.claim.handle, judgmentOf(ta, "insufficient")))).toMatch(
      /^409 conflict: This passage's batch is paused/,
    );
    expect(await outcome(renewClaim(db(), b!, tb.claim.handle))).toMatch(/^410 gone/);

    await changeBatchStatus(db(), system, c.batchId, "launch");
    const again = (await nextTask(db(), a!, { campaignId: c.campaignId }))!;
    expect(await outcome(submitJudgment(db(), a!, again.claim.handle, judgmentOf(again, "insufficient")))).toBe("ok");
    // Once relaunched, a claim the pause ended is like a lapsed lease: its judgment counts while a slot is free.
    expect(await outcome(submitJudgment(db(), b!, tb.claim.handle, judgmentOf(tb, "insufficient")))).toBe("ok");
    expect((await countersOf(db(), c.campaignId)).every((p) => p.open === 2 - p.judged - p.claims)).toBe(true);
  });

  it("closing a batch ends its live claims and refuses judgments on it with 409, saying it was closed", async () => {
    const c = await judgedCampaign(db(), { queries: 2, candidates: 1, r: 2, t: 1 });
    const [a, b] = await makeAnnotators(db(), 2);
    const first = (await nextTask(db(), a!, { campaignId: c.campaignId }))!;
    await submitJudgment(db(), a!, first.claim.handle, judgmentOf(first, "sufficient"));
    const live = (await nextTask(db(), a!, { campaignId: c.campaignId }))!;
    const other = (await nextTask(db(), b!, { campaignId: c.campaignId }))!;

    await changeBatchStatus(db(), system, c.batchId, "close");
    const counters = await countersOf(db(), c.campaignId);
    expect(counters.every((p) => p.claims === 0 && p.open === 2 - p.judged)).toBe(true);
    expect(counters.reduce((n, p) => n + p.judged, 0)).toBe(1);
    for (const [who, t] of [
      [a!, live],
      [b!, other],
    ] as const) {
      expect(await outcome(submitJudgment(db(), who, t.claim.handle, judgmentOf(t, "insufficient")))).toMatch(
        /^409 conflict: This passage's batch was closed on \d{4}-/,
      );
    }
    expect(await outcome(renewClaim(db(), a!, live.claim.handle))).toMatch(/^410 gone/);
    expect(await nextTask(db(), b!, { campaignId: c.campaignId })).toBeNull();
    // A closed batch stays closed.
    expect(await outcome(changeBatchStatus(db(), system, c.batchId, "launch"))).toMatch(/^409 conflict/);
  });

  it(
    "exports a closed batch byte for byte the same, whatever happens after: late judgments, T changed, annotators paused, time",
    { timeout: 120_000 },
    async () => {
      // Two identical campaigns: one closed, one left open as the control that the changes do matter.
      const closed = await judgedCampaign(db(), { queries: 3, candidates: 1, r: 3, t: 2 });
      const open = await judgedCampaign(db(), { queries: 3, candidates: 1, r: 3, t: 2 });
      const team = await makeAnnotators(db(), 3);
      const late: Record<number, { who: UserActor; task: Task } | null> = {};
      for (const c of [closed, open]) {
        await judgeAll(db(), team[0]!, c.campaignId, "sufficient");
        await judgeAll(db(), team[1]!, c.campaignId, "sufficient");
        const kept = await judgeAll(db(), team[2]!, c.campaignId, "insufficient", true);
        late[c.campaignId] = kept && { who: team[2]!, task: kept };
      }
      const beforeClose = await exportsOf(db(), closed.campaignId, closed.batchId);
      await changeBatchStatus(db(), system, closed.batchId, "close");
      const atClose = await exportsOf(db(), closed.campaignId, closed.batchId);
      expect(atClose).toBe(beforeClose);
      expect(atClose.split("\n").filter((l) => l.includes('"provenance"'))).not.toHaveLength(0);
      const openBefore = await exportsOf(db(), open.campaignId, open.batchId);

      // What could change an export: a late judgment, T, an annotator's standing, the clock.
      const l = late[closed.campaignId];
      expect(l).not.toBeNull();
      expect(await outcome(submitJudgment(db(), l!.who, l!.task.claim.handle, judgmentOf(l!.task, "sufficient")))).toMatch(/^409/);
      for (const c of [closed, open]) {
        await updateCampaign(db(), system, c.campaignId, { endorsementThreshold: 3 });
        await pauseAnnotator(db(), system, c.campaignId, team[0]!.id);
      }
      await new Promise((r) => setTimeout(r, 1100));

      expect(await exportsOf(db(), closed.campaignId, closed.batchId)).toBe(atClose);
      // The control: the same changes do change an open batch's export.
      expect(await exportsOf(db(), open.campaignId, open.batchId)).not.toBe(openBefore);
    },
  );

  it(
    "a judgment racing the close either lands before the seal (and is in it) or is refused: none lands after",
    { timeout: 120_000 },
    async () => {
      const c = await judgedCampaign(db(), { queries: 6, candidates: 2, r: 3, t: 2 });
      const team = await makeAnnotators(db(), 8);
      const tasks = await Promise.all(team.map(async (a) => ({ a, t: (await nextTask(db(), a, { campaignId: c.campaignId }))! })));
      const results = await Promise.all([
        ...tasks.map(({ a, t }, i) =>
          new Promise((r) => setTimeout(r, i * 3)).then(() =>
            outcome(submitJudgment(db(), a, t.claim.handle, judgmentOf(t, i % 2 ? "sufficient" : "insufficient"))),
          ),
        ),
        new Promise((r) => setTimeout(r, 10)).then(() => changeBatchStatus(db(), system, c.batchId, "close")).then(() => "closed"),
      ]);
      expect(results.every((r) => r === "ok" || r === "closed" || /^409 conflict: This passage's batch was closed/.test(r))).toBe(true);
      const [check] = rowsOf<{ unsealed: number; mismatched: number }>(
        await db().execute(sql`
        select
          (select count(*)::int from judgments where batch_id = ${c.batchId} and counted_at_close is null) as unsealed,
          (select count(*)::int from passages p where p.batch_id = ${c.batchId}
             and p.sealed_judgment_count <> (select count(*) from judgments j where j.passage_id = p.id)) as mismatched`),
      );
      expect(check).toEqual({ unsealed: 0, mismatched: 0 });
    },
  );

  it("migration 0006 seals the batches closed before it as closing does", { timeout: 120_000 }, async () => {
    const c = await judgedCampaign(db(), { queries: 3, candidates: 1, r: 2, t: 1 });
    const team = await makeAnnotators(db(), 3);
    for (const [i, a] of team.entries()) await judgeAll(db(), a, c.campaignId, i === 1 ? "insufficient" : "sufficient");
    await pauseAnnotator(db(), system, c.campaignId, team[0]!.id); // its judgments do not count, the third annotator's do
    await changeBatchStatus(db(), system, c.batchId, "close");
    const sealed = async () =>
      rowsOf(
        await db().execute(sql`
          select (select array_agg(counted_at_close order by id) from judgments where batch_id = ${c.batchId}) as j,
                 (select array_agg(row(sealed_judgment_count, sealed_sufficient_count, sealed_is_decided)::text order by id) from passages where batch_id = ${c.batchId}) as p,
                 (select row(sealed_judgments_per_passage, sealed_endorsement_threshold)::text from batches where id = ${c.batchId}) as b`),
      );
    const atClose = await sealed();
    const exported = await exportsOf(db(), c.campaignId, c.batchId);
    expect(JSON.stringify(atClose)).toContain("false");
    // As a database from before 0006 has it: closed, nothing sealed.
    await db().execute(sql`update judgments set counted_at_close = null where batch_id = ${c.batchId}`);
    await db().execute(
      sql`update passages set sealed_judgment_count = null, sealed_sufficient_count = null, sealed_is_decided = null where batch_id = ${c.batchId}`,
    );
    await db().execute(
      sql`update batches set sealed_judgments_per_passage = null, sealed_endorsement_threshold = null where id = ${c.batchId}`,
    );
    const migration = await readFile(path.join(migrationsFolder, "0006_sealed_batches_claim_handles.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await db().execute(sql.raw(statement));
    expect(await sealed()).toEqual(atClose);
    expect(await exportsOf(db(), c.campaignId, c.batchId)).toBe(exported);
  });
});
