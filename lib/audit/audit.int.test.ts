import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog, batches, campaigns } from "@/db/schema";
import { anonymous, system, type UserActor } from "@/lib/auth/actor";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { createInvite } from "@/lib/auth/invites";
import { createUser } from "@/lib/auth/users";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign, setCampaignMembers, updateCampaign } from "@/lib/campaign/campaigns";
import { pauseAnnotator, resumeAnnotator } from "@/lib/campaign/quality/standings";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { AppError } from "@/lib/errors";
import { makeCampaign } from "@/test/campaign-factory";
import { describeEachDatabase, unique } from "@/test/databases";
import { listAudit } from "./audit";
import { describeAuditTargets } from "./audit-targets";
import { auditQuerySchema } from "./schemas";

describeEachDatabase("audit log", ({ db }) => {
  async function coordinator(): Promise<UserActor> {
    const { user } = await createUser(db(), system, { username: unique("coord"), role: "coordinator", password: "password-123" });
    return { kind: "user", id: user.id, username: user.username, role: "coordinator", via: "session", address: "198.51.100.4" };
  }

  const entriesOf = async (actor: UserActor) =>
    (await db().select().from(auditLog).where(eq(auditLog.actorId, actor.id)).orderBy(auditLog.id)).map(
      (e) => `${e.action} ${e.targetType}`,
    );

  it("writes an entry for each coordinator action on people, campaigns, batches and standings", async () => {
    const coord = await coordinator();
    const { campaignId, batchId } = await makeCampaign(db(), { queries: 1, candidates: 1, launch: false });
    const { user: ann } = await createUser(db(), coord, { username: unique("ann"), role: "annotator", password: "password-123" });
    await createInvite(db(), coord, { role: "annotator", expiresInHours: 1 });
    const campaign = await createCampaign(db(), coord, createCampaignSchema.parse({ name: unique("audited") }));
    await updateCampaign(db(), coord, campaign.id, { showAnswers: true });
    await setCampaignMembers(db(), coord, campaignId, { allAnnotators: false, userIds: [ann.id] });
    await changeBatchStatus(db(), coord, batchId, "launch");
    await changeBatchStatus(db(), coord, batchId, "pause");
    await changeBatchStatus(db(), coord, batchId, "launch");
    await changeBatchStatus(db(), coord, batchId, "close");
    await pauseAnnotator(db(), coord, campaignId, ann.id);
    await resumeAnnotator(db(), coord, campaignId, ann.id);
    const token = await createApiToken(db(), coord, { name: "audited" });
    await revokeApiToken(db(), coord, token.id);
    expect(await entriesOf(coord)).toEqual([
      "user.create user",
      "invite.create invite",
      "campaign.create campaign",
      "campaign.update campaign",
      "campaign.members campaign",
      "batch.launch batch",
      "batch.pause batch",
      "batch.launch batch",
      "batch.close batch",
      "standing.pause user",
      "standing.resume user",
      "token.create token",
      "token.revoke token",
    ]);
    const [first] = await db().select().from(auditLog).where(eq(auditLog.actorId, coord.id)).orderBy(auditLog.id).limit(1);
    expect(first).toMatchObject({ actorUsername: coord.username, address: "198.51.100.4", targetId: String(ann.id) });
    expect(first?.details).toMatchObject({ username: ann.username, role: "annotator", with: "password" });
  });

  it("writes nothing when the change fails (the entry is in the change's transaction)", async () => {
    const coord = await coordinator();
    const username = unique("taken");
    await createUser(db(), coord, { username, role: "annotator", password: "password-123" });
    await expect(createUser(db(), coord, { username, role: "annotator", password: "password-123" })).rejects.toBeInstanceOf(AppError);
    const { batchId } = await makeCampaign(db(), { queries: 1, candidates: 0 });
    await expect(changeBatchStatus(db(), coord, batchId, "launch")).rejects.toBeInstanceOf(AppError); // already launched
    expect(await entriesOf(coord)).toEqual(["user.create user"]);
  });

  it("pages newest first by cursor, or oldest first from an instant; coordinators only", async () => {
    const coord = await coordinator();
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await createCampaign(db(), coord, createCampaignSchema.parse({ name: unique("paged") }))).id);
    const mine = await db().select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.actorId, coord.id));
    const ids = mine.map((e) => e.id).sort((a, b) => a - b);

    const newest = await listAudit(db(), coord, auditQuerySchema.parse({ limit: "2" }));
    expect(newest.entries).toHaveLength(2);
    expect(newest.entries[0]!.id).toBeGreaterThan(newest.entries[1]!.id);
    const older = await listAudit(db(), coord, auditQuerySchema.parse({ limit: "2", cursor: String(newest.nextCursor) }));
    expect(older.entries[0]!.id).toBeLessThan(newest.entries[1]!.id);

    const since = (
      await db()
        .select()
        .from(auditLog)
        .where(inArray(auditLog.id, [ids[0]!]))
    )[0]!.createdAt;
    const walked: number[] = [];
    let cursor: number | undefined;
    for (;;) {
      const page = await listAudit(
        db(),
        coord,
        auditQuerySchema.parse({ order: "asc", since: since.toISOString(), limit: "2", ...(cursor ? { cursor: String(cursor) } : {}) }),
      );
      walked.push(...page.entries.filter((e) => e.actorId === coord.id).map((e) => e.id));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(walked).toEqual(ids);
    expect(made).toHaveLength(5);

    const { user: ann } = await createUser(db(), system, { username: unique("ann"), role: "annotator", password: "password-123" });
    const annActor: UserActor = { kind: "user", id: ann.id, username: ann.username, role: "annotator", via: "session" };
    await expect(listAudit(db(), annActor, auditQuerySchema.parse({}))).rejects.toMatchObject({ code: "forbidden" });
    await expect(listAudit(db(), anonymous, auditQuerySchema.parse({}))).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("filters by action, actor (any case), target kind and days, and names each target with its campaign", async () => {
    const coord = await coordinator();
    const other = await coordinator();
    const { campaignId, batchId } = await makeCampaign(db(), { queries: 1, candidates: 1, launch: false });
    await changeBatchStatus(db(), coord, batchId, "launch");
    await changeBatchStatus(db(), other, batchId, "pause");
    const campaign = await createCampaign(db(), coord, createCampaignSchema.parse({ name: unique("filtered") }));
    const { user: ann } = await createUser(db(), coord, { username: unique("ann"), role: "annotator", password: "password-123" });
    const list = (q: Record<string, string>) => listAudit(db(), coord, auditQuerySchema.parse({ limit: "500", ...q }));
    const today = new Date().toISOString().slice(0, 10);

    const mine = await list({ actor: coord.username.toUpperCase(), from: today, to: today });
    expect(mine.entries.map((e) => e.action)).toEqual(["user.create", "campaign.create", "batch.launch"]);
    const launches = await list({ action: "batch.launch", actor: coord.username });
    expect(launches.entries.map((e) => e.targetId)).toEqual([String(batchId)]);
    expect((await list({ target: "batch", actor: other.username })).entries.map((e) => e.action)).toEqual(["batch.pause"]);
    expect((await list({ actor: coord.username, to: "2000-01-01" })).entries).toEqual([]);
    expect((await list({ actor: coord.username, from: "2999-01-01" })).entries).toEqual([]);

    const targets = await describeAuditTargets(db(), coord, mine.entries);
    const [made, created, launched] = mine.entries.map((e) => targets.get(e.id)!);
    const [batch] = await db().select().from(batches).where(eq(batches.id, batchId));
    const [home] = await db().select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(launched).toMatchObject({ kind: "batch", name: batch!.name, gone: false, campaign: { id: campaignId, name: home!.name } });
    expect(created).toMatchObject({ kind: "campaign", name: campaign.name, campaign: { id: campaign.id, name: campaign.name } });
    expect(made).toMatchObject({ kind: "user", name: ann.username, campaign: null });
    const { user: annotator } = await createUser(db(), system, { username: unique("ann"), role: "annotator", password: "password-123" });
    const annActor: UserActor = { kind: "user", id: annotator.id, username: annotator.username, role: "annotator", via: "session" };
    await expect(describeAuditTargets(db(), annActor, mine.entries)).rejects.toMatchObject({ code: "forbidden" });
  });
});
