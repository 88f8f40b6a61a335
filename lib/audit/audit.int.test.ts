import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog } from "@/db/schema";
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
});
