import "server-only";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { crowdEntries, type CrowdEntry } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "@/lib/campaign/campaigns";
import { invalidField, invalidInput } from "@/lib/errors";
import {
  duplicateCodes,
  entryColumns,
  entryStateOf,
  generateCodes,
  trainingItemsProblem,
  type CrowdOutcome,
  type CrowdSettingsView,
  type EntryUsage,
  type UpdateCrowdSettingsInput,
} from "./settings.contract";
import { entryUsage } from "./entry-limits";

// A campaign's crowd entry (one row of crowd_entries), as coordinators read and change it. The row
// is made on the first read or change, with a random entry key and generated completion codes, so
// every campaign has one and a coordinator never sees a campaign "without crowd settings".

function toView(row: CrowdEntry, usage: EntryUsage): CrowdSettingsView {
  return {
    campaignId: row.campaignId,
    entryKey: row.entryKey,
    enabled: row.enabled,
    entry: entryStateOf(row),
    platform: row.platform,
    consent: row.consent,
    trainingItems: row.trainingItems,
    trainingPassShare: row.trainingPassShare,
    quota: row.quota,
    quotaUnit: row.quotaUnit,
    timeLimitMinutes: row.timeLimitMinutes,
    maxSessionsPerWorker: row.maxSessionsPerWorker,
    maxJudgmentsPerWorker: row.maxJudgmentsPerWorker,
    pauseFastWorkers: row.pauseFastWorkers,
    completionUrl: row.completionUrl,
    maxWorkers: row.maxWorkers,
    maxSessionsInProgress: row.maxSessionsInProgress,
    mturkSite: row.mturkSite,
    example: row.example,
    codes: { ...row.codes },
    updatedAt: row.updatedAt.toISOString(),
    usage,
  };
}

/** The campaign's row, made now (defaults, a random key, generated codes) when it has none; concurrent first reads make one. */
async function ensureEntry(db: Db, campaignId: number): Promise<CrowdEntry> {
  const [found] = await db.select().from(crowdEntries).where(eq(crowdEntries.campaignId, campaignId));
  if (found) return found;
  await db
    .insert(crowdEntries)
    .values({ campaignId, entryKey: randomBytes(16).toString("base64url"), codes: generateCodes() })
    .onConflictDoNothing({ target: crowdEntries.campaignId });
  const [made] = await db.select().from(crowdEntries).where(eq(crowdEntries.campaignId, campaignId));
  if (!made) throw new Error(`crowd entry of campaign ${campaignId} missing after insert`);
  return made;
}

/** A campaign's crowd settings and entry key (coordinators); 404 for an unknown campaign. */
export async function getCrowdSettings(db: Db, actor: Actor, campaignId: number): Promise<CrowdSettingsView> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  return toView(await ensureEntry(db, campaignId), await entryUsage(db, campaignId));
}

/** Gold passages of the campaign marked as training (`"training": true` at import), in any batch. */
export async function markedTrainingPassages(db: Db, campaignId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from passages where campaign_id = ${campaignId} and is_training`),
  );
  return row?.n ?? 0;
}

/**
 * Changes the fields sent (coordinators); codes sent replace those outcomes' codes, the others are
 * kept, and all five must stay distinct (422 naming `codes.<outcome>`). Training items sent (K > 0)
 * must not outnumber the campaign's passages marked for training (422 on `trainingItems` saying how
 * many are marked); a K stored earlier is not checked again when other fields change — if a batch
 * holding training passages is paused, closed or deleted later, training gives fewer items (those
 * of launched batches). Audited as `campaign.crowd`.
 */
export async function updateCrowdSettings(
  db: Db,
  actor: Actor,
  campaignId: number,
  input: UpdateCrowdSettingsInput,
): Promise<CrowdSettingsView> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  if (input.trainingItems !== undefined && input.trainingItems > 0) {
    const problem = trainingItemsProblem(input.trainingItems, await markedTrainingPassages(db, campaignId));
    if (problem) throw invalidField("trainingItems", problem);
  }
  await ensureEntry(db, campaignId);
  const { codes: newCodes, entry, enabled, ...rest } = input;
  // The entry state as stored: `entry` (or `enabled`: true opens, false closes; a stopped entry stays stopped).
  const state =
    entry !== undefined ? entryColumns(entry) : enabled === true ? entryColumns("open") : enabled === false ? { enabled: false } : {};
  const fields = { ...rest, ...state };
  const row = await db.transaction(async (tx) => {
    // Locked: two coordinators changing codes at once cannot end with one code for two outcomes.
    const [current] = await tx.select().from(crowdEntries).where(eq(crowdEntries.campaignId, campaignId)).for("update");
    if (!current) throw new Error(`crowd entry of campaign ${campaignId} missing`);
    const codes = { ...current.codes, ...newCodes };
    const clashes = duplicateCodes(codes, Object.keys(newCodes ?? {}) as CrowdOutcome[]);
    if (clashes.length) throw invalidInput(clashes);
    const [updated] = await tx
      .update(crowdEntries)
      .set({ ...fields, ...(newCodes ? { codes } : {}), updatedAt: new Date() })
      .where(eq(crowdEntries.campaignId, campaignId))
      .returning();
    // The consent text can be long: the entry names that it changed, not its words.
    const { consent, example, ...changes } = input;
    await recordAudit(tx, actor, {
      action: "campaign.crowd",
      targetType: "campaign",
      targetId: campaignId,
      details: {
        fields: Object.keys(input),
        changes: {
          ...changes,
          ...(consent === undefined ? {} : { consent: `(${Array.from(consent).length} characters)` }),
          ...(example === undefined ? {} : { example: `(${Array.from(example).length} characters)` }),
        },
      },
    });
    return updated!;
  });
  return toView(row, await entryUsage(db, campaignId));
}
