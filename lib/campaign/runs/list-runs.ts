import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runs, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { getCampaign, type CampaignView } from "../campaigns";
import type { RunView } from "./runs.contract";

const runColumns = {
  id: runs.id,
  name: runs.name,
  createdAt: runs.createdAt,
  createdBy: users.username,
  questions: runs.questions,
  hasProvenance: runs.hasProvenance,
  hasAnswers: runs.hasAnswers,
};

type RunRow = {
  id: number;
  name: string;
  createdAt: Date;
  createdBy: string | null;
  questions: number;
  hasProvenance: boolean;
  hasAnswers: boolean;
};

const toView = (r: RunRow): RunView => ({ ...r, id: Number(r.id), createdAt: r.createdAt.toISOString() });

/** The campaign's runs, newest first (coordinators). A campaign holds a few runs, not thousands: one list, unpaged. */
export async function listRuns(db: Db, actor: Actor, campaignId: number): Promise<RunView[]> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  return runRows(db, campaignId);
}

/** The runs of a campaign the caller already may read. Internal. */
export async function runRows(db: Db, campaignId: number, runId?: number): Promise<RunView[]> {
  const rows = await db
    .select(runColumns)
    .from(runs)
    .leftJoin(users, eq(users.id, runs.createdBy))
    .where(runId === undefined ? eq(runs.campaignId, campaignId) : and(eq(runs.campaignId, campaignId), eq(runs.id, runId)))
    .orderBy(desc(runs.id));
  return rows.map(toView);
}

/** One run as the API shows it. Internal: the caller has authorized. */
export async function getRunView(db: Db, campaignId: number, runId: number): Promise<RunView> {
  const [run] = await runRows(db, campaignId, runId);
  if (!run) throw new AppError("not_found", `No run with id ${runId} in campaign ${campaignId}.`);
  return run;
}

/** A coordinator's campaign and one of its runs: 404 when either is unknown (a run of another campaign too). */
export async function requireRun(
  db: Db,
  actor: Actor,
  campaignId: number,
  runId: number,
): Promise<{ campaign: CampaignView; run: RunView }> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  return { campaign, run: await getRunView(db, campaignId, runId) };
}

/** Deletes a run and its predictions (coordinators; audited). */
export async function deleteRun(db: Db, actor: Actor, input: { campaignId: number; runId: number }): Promise<void> {
  const { run } = await requireRun(db, actor, input.campaignId, input.runId);
  await db.transaction(async (tx) => {
    await tx.delete(runs).where(and(eq(runs.id, run.id), eq(runs.campaignId, input.campaignId)));
    await recordAudit(tx, actor, {
      action: "run.delete",
      targetType: "run",
      targetId: run.id,
      details: { campaignId: input.campaignId, name: run.name },
    });
  });
}
