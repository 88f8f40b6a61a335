import { and, count, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog, crowdEntries, CROWD_OUTCOMES } from "@/db/schema";
import { anonymous, system, type UserActor } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { createCampaign } from "@/lib/campaign/campaigns";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { AppError, parseInput } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { getCrowdSettings, updateCrowdSettings } from "./crowd-settings";
import { getCrowdEntryInfo } from "./sessions";
import { CROWD_DEFAULTS, updateCrowdSettingsSchema } from "./settings.contract";

/** What a call threw (an AppError), failing the test when it resolved. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the call succeeded but should have been refused");
}

describeEachDatabase("crowd settings", ({ db }) => {
  async function user(role: "coordinator" | "annotator"): Promise<UserActor> {
    const { user } = await createUser(db(), system, { username: unique(role), role, password: "password-123" });
    return { kind: "user", id: user.id, username: user.username, role, via: "session", address: "203.0.113.9" };
  }

  const newCampaign = async () => (await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("crowd") }))).id;
  const rowsOf = async (campaignId: number) =>
    (await db().select({ n: count() }).from(crowdEntries).where(eq(crowdEntries.campaignId, campaignId)))[0]!.n;

  it("makes the entry once, on the first read: defaults, a 128-bit key, one distinct generated code per outcome", async () => {
    const coord = await user("coordinator");
    const campaignId = await newCampaign();
    expect(await rowsOf(campaignId)).toBe(0);
    const first = await getCrowdSettings(db(), coord, campaignId);
    expect(first).toMatchObject({ ...CROWD_DEFAULTS, campaignId });
    expect(first.entryKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(first.entryKey, "base64url")).toHaveLength(16);
    expect(new Set(Object.values(first.codes)).size).toBe(CROWD_OUTCOMES.length);
    for (const code of Object.values(first.codes)) expect(code).toMatch(/^[A-Z0-9]{8}$/);

    const again = await getCrowdSettings(db(), coord, campaignId);
    expect(again).toEqual(first);
    expect(await rowsOf(campaignId)).toBe(1);
    // Two first reads at once still make one row with one key.
    const other = await newCampaign();
    const [a, b] = await Promise.all([getCrowdSettings(db(), coord, other), getCrowdSettings(db(), coord, other)]);
    expect(a.entryKey).toBe(b.entryKey);
    expect(await rowsOf(other)).toBe(1);
    expect(a.entryKey).not.toBe(first.entryKey);
  });

  it("changes only the fields sent, keeps the other codes, and writes one audit entry", async () => {
    const coord = await user("coordinator");
    const campaignId = await newCampaign();
    const before = await getCrowdSettings(db(), coord, campaignId);
    const input = parseInput(updateCrowdSettingsSchema, {
      enabled: true,
      platform: "mturk",
      consent: "I agree to **this**.",
      quota: 6,
      quotaUnit: "questions",
      maxJudgmentsPerWorker: 200,
      pauseFastWorkers: true,
      codes: { completed: "DONE-1", training_failed: "NOPE_2" },
    });
    const after = await updateCrowdSettings(db(), coord, campaignId, input);
    expect(after).toMatchObject({
      enabled: true,
      platform: "mturk",
      quota: 6,
      quotaUnit: "questions",
      maxJudgmentsPerWorker: 200,
      pauseFastWorkers: true,
    });
    expect(after.codes).toEqual({ ...before.codes, completed: "DONE-1", training_failed: "NOPE_2" });
    expect(after.entryKey).toBe(before.entryKey);
    expect(after.trainingItems).toBe(before.trainingItems);
    expect(await getCrowdSettings(db(), coord, campaignId)).toEqual(after);

    const cleared = await updateCrowdSettings(db(), coord, campaignId, { maxJudgmentsPerWorker: null });
    expect(cleared.maxJudgmentsPerWorker).toBeNull();

    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, coord.id), eq(auditLog.action, "campaign.crowd")))
      .orderBy(auditLog.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ targetType: "campaign", targetId: String(campaignId), address: "203.0.113.9" });
    expect(entries[0]!.details).toMatchObject({
      fields: ["enabled", "platform", "consent", "quota", "quotaUnit", "maxJudgmentsPerWorker", "pauseFastWorkers", "codes"],
      changes: { platform: "mturk", consent: "(20 characters)", codes: { completed: "DONE-1" } },
    });
  });

  it("refuses a code another outcome already has, naming it; nothing changes", async () => {
    const coord = await user("coordinator");
    const campaignId = await newCampaign();
    const before = await getCrowdSettings(db(), coord, campaignId);
    const error = await refusal(
      updateCrowdSettings(db(), coord, campaignId, { quota: 9, codes: { timed_out: before.codes.completed.toLowerCase() } }),
    );
    expect(error.status).toBe(422);
    expect(error.details).toEqual({
      problems: [{ field: "codes.timed_out", message: "is the same as the code for 'completed'; each outcome needs its own code" }],
    });
    expect(error.message).toContain("codes.timed_out");
    expect(await getCrowdSettings(db(), coord, campaignId)).toEqual(before);
    // Swapping two codes in one change is fine.
    const swapped = await updateCrowdSettings(db(), coord, campaignId, {
      codes: { completed: before.codes.paused, paused: before.codes.completed },
    });
    expect([swapped.codes.completed, swapped.codes.paused]).toEqual([before.codes.paused, before.codes.completed]);
  });

  it("names the field of hostile or out-of-range input (the route's parse) and stores markup as text", async () => {
    const bad = (body: unknown) => {
      try {
        parseInput(updateCrowdSettingsSchema, body);
      } catch (error) {
        return (error as AppError).details;
      }
      throw new Error("parsed");
    };
    expect(bad({ completionUrl: "javascript:alert(1)" })).toMatchObject({ problems: [{ field: "completionUrl" }] });
    expect(bad({ quota: 10_001 })).toMatchObject({ problems: [{ field: "quota", message: "must be a whole number from 1 to 10,000" }] });
    expect(bad({ codes: { completed: "<b>X</b>" } })).toMatchObject({ problems: [{ field: "codes.completed" }] });
    expect(bad({ codes: { completed: "AAA", paused: "AAA" } })).toMatchObject({ problems: [{ field: "codes.paused" }] });

    const coord = await user("coordinator");
    const campaignId = await newCampaign();
    const consent = "<script>alert(1)</script>\n\n# Consent\n<img src=x onerror=alert(1)>";
    expect((await updateCrowdSettings(db(), coord, campaignId, { consent })).consent).toBe(consent);
  });

  it("is for coordinators only: 401 anonymous, 403 annotators, 404 an unknown campaign; nothing made", async () => {
    const campaignId = await newCampaign();
    const annotator = await user("annotator");
    expect((await refusal(getCrowdSettings(db(), anonymous, campaignId))).status).toBe(401);
    expect((await refusal(getCrowdSettings(db(), annotator, campaignId))).status).toBe(403);
    expect((await refusal(updateCrowdSettings(db(), anonymous, campaignId, { enabled: true }))).status).toBe(401);
    expect((await refusal(updateCrowdSettings(db(), annotator, campaignId, { enabled: true }))).status).toBe(403);
    expect(await rowsOf(campaignId)).toBe(0);
    const coord = await user("coordinator");
    const missing = await refusal(getCrowdSettings(db(), coord, 2 ** 40));
    expect(missing.status).toBe(404);
    expect((await refusal(updateCrowdSettings(db(), coord, 2 ** 40, { quota: 3 }))).status).toBe(404);
  });

  it("opens the entry to workers by its exact key only while it is on", async () => {
    const coord = await user("coordinator");
    const campaignId = await newCampaign();
    const { entryKey } = await getCrowdSettings(db(), coord, campaignId);
    const info = (key: string) => getCrowdEntryInfo(db(), anonymous, key);
    expect((await refusal(info(entryKey))).status).toBe(404);
    await updateCrowdSettings(db(), coord, campaignId, { enabled: true });
    expect(await info(entryKey)).toMatchObject({ platform: "prolific", quota: 20, trainingItems: 5, example: "" });
    expect((await refusal(info(entryKey.toLowerCase() === entryKey ? `${entryKey}x` : entryKey.toLowerCase()))).status).toBe(404);
  });
});
