import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { annotatorStandings, campaignMembers, campaigns, crowdWorkers, type Campaign } from "@/db/schema";
import { requireUser, type Actor, type UserActor } from "@/lib/auth/actor";
import { cachedOrLoad, invalidate } from "@/db/cache/hot-cache";
import { preparedFor } from "@/db/cache/prepared";
import { AppError } from "@/lib/errors";

type AccessRow = { campaign: Campaign; member: number | null; crowd: number | null; standing: "active" | "paused" | null };

const accessQuery = (db: Db) =>
  db
    .select({ campaign: campaigns, member: campaignMembers.userId, crowd: crowdWorkers.userId, standing: annotatorStandings.status })
    .from(campaigns)
    .leftJoin(campaignMembers, and(eq(campaignMembers.campaignId, campaigns.id), eq(campaignMembers.userId, sql.placeholder("user"))))
    .leftJoin(crowdWorkers, and(eq(crowdWorkers.campaignId, campaigns.id), eq(crowdWorkers.userId, sql.placeholder("user"))))
    .leftJoin(
      annotatorStandings,
      and(eq(annotatorStandings.campaignId, campaigns.id), eq(annotatorStandings.userId, sql.placeholder("user"))),
    )
    .where(eq(campaigns.id, sql.placeholder("campaign")))
    .prepare("kps_annotator_access");

/**
 * The annotator's campaign, if they work on it and are not paused; otherwise a clear refusal. A crowd
 * worker's account (role `crowd`) works on the one campaign it entered (crowd_workers), never another.
 * Outside a transaction the campaign, membership and standing are cached for at most 1 s per process
 * (db/cache/hot-cache.ts): a change by this process (`campaignAccessChanged`) applies at once, by
 * another process within that second. Inside a transaction (or with `fresh`) it reads the database.
 */
export async function requireActiveAnnotator(
  db: Db | Tx,
  actor: Actor,
  campaignId: number,
  options: { fresh?: boolean } = {},
): Promise<{ user: UserActor; campaign: Campaign }> {
  const user = requireUser(actor);
  if (user.role !== "annotator" && user.role !== "crowd") throw new AppError("forbidden", "Only annotators judge passages.");
  const load = async () => {
    const [row] = (await preparedFor(db, "access", accessQuery).execute({ campaign: campaignId, user: user.id })) as (
      AccessRow | undefined
    )[];
    return { value: row ?? null, keep: !!row && refusal(row, user.role) === null };
  };
  const row = options.fresh || "rollback" in db ? (await load()).value : await cachedOrLoad(db, "access", `${campaignId}:${user.id}`, load);
  const refused = row ? refusal(row, user.role) : "not_found";
  if (refused === "not_found") throw new AppError("not_found", `No campaign with id ${campaignId} for you.`);
  if (refused === "paused") {
    throw new AppError("forbidden", "Your work on this campaign is paused. Your coordinator can resume it.", { paused: true });
  }
  return { user, campaign: row!.campaign };
}

const campaignQuery = (db: Db) =>
  db
    .select()
    .from(campaigns)
    .where(eq(campaigns.id, sql.placeholder("campaign")))
    .prepare("kps_campaign_row");

/**
 * The campaign of an annotator whose access was checked against the database in this request
 * already: the claim read of the judgment that brings the next task (judgments.ts) read their
 * membership and standing, and the write read the standing again. Only the campaign's row is left
 * to read, and it is cached per campaign (1 s, the same topic, so `campaignAccessChanged` forgets
 * it), not per annotator: requireActiveAnnotator's entry of an annotator who judges every few
 * seconds has expired by each judgment, while the campaign's entry is kept warm by all of them.
 */
export async function campaignOfCheckedAnnotator(db: Db, campaignId: number): Promise<Campaign | null> {
  return cachedOrLoad(db, "access", `campaign:${campaignId}`, async () => {
    const [row] = await preparedFor(db, "campaign", campaignQuery).execute({ campaign: campaignId });
    return { value: row ?? null, keep: !!row };
  });
}

function refusal(row: AccessRow, role: UserActor["role"]): "not_found" | "paused" | null {
  if (role === "crowd" ? row.crowd === null : !row.campaign.allAnnotators && row.member === null) return "not_found";
  return row.standing === "paused" ? "paused" : null;
}

/** Forgets this process's cached campaign access: called by changes to campaigns, members and standings. */
export function campaignAccessChanged(): void {
  invalidate("access");
}
