import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { system, type UserActor } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { updateCrowdSettings } from "@/lib/crowd/crowd-settings";
import { updateCrowdSettingsSchema } from "@/lib/crowd/settings.contract";
import { parseInput } from "@/lib/errors";
import { buildIndex, startIndexBuild } from "@/lib/knowledge/index-build";
import { describeEachDatabase, unique } from "@/test/databases";
import { listAudit } from "./audit";

// The actions beside people and campaigns that change what a campaign shows or exports: the
// knowledge source (a changed page changes closed batches' exports), the text index and the crowd
// entry's defences. Run upload and delete: lib/campaign/runs/upload-run.int.test.ts.
describeEachDatabase("audit log: knowledge, index and crowd settings", ({ db }) => {
  async function coordinator(): Promise<UserActor> {
    const { user } = await createUser(db(), system, { username: unique("coord"), role: "coordinator", password: "password-123" });
    return { kind: "user", id: user.id, username: user.username, role: "coordinator", via: "token", address: "192.0.2.44" };
  }
  const entriesOf = (actor: UserActor, action: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, actor.id), eq(auditLog.action, action)))
      .orderBy(auditLog.id);

  const page = (id: string, text: string) => ({ wikipedia_id: id, wikipedia_title: `Page ${id}`, text: [`Page ${id}\n`, `${text}\n`] });
  const file = (fileName: string, records: unknown[]) => ({
    fileName,
    source: (async function* () {
      yield Buffer.from(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    })(),
  });

  it("a knowledge import says who imported which file: pages added, changed, unchanged; a refused file writes nothing", async () => {
    const coord = await coordinator();
    const [a, b, c] = [unique("pa"), unique("pb"), unique("pc")];
    expect(await importKnowledge(db(), coord, file("first.jsonl", [page(a, "one"), page(b, "two")]))).toMatchObject({
      pages: 2,
      inserted: 2,
      updated: 0,
      unchanged: 0,
    });
    const again = await importKnowledge(db(), coord, file("second.jsonl", [page(a, "one"), page(b, "two, revised"), page(c, "three")]));
    expect(again).toMatchObject({ lines: 3, pages: 3, inserted: 1, updated: 1, unchanged: 1 });
    await expect(importKnowledge(db(), coord, file("bad.jsonl", [page(a, "x"), { wikipedia_id: 7 }]))).rejects.toThrow();

    const entries = await entriesOf(coord, "knowledge.import");
    expect(entries.map((e) => [e.targetType, e.targetId, e.details])).toEqual([
      [
        "knowledge",
        "first.jsonl",
        { file: "first.jsonl", lines: 2, inserted: 2, updated: 0, unchanged: 0, skipped: 0, indexed: expect.any(Number) },
      ],
      [
        "knowledge",
        "second.jsonl",
        { file: "second.jsonl", lines: 3, inserted: 1, updated: 1, unchanged: 1, skipped: 0, indexed: expect.any(Number) },
      ],
    ]);
    expect(entries[0]).toMatchObject({ actorUsername: coord.username, address: "192.0.2.44" });
    // The app's own imports (the demo) are not the audit log's business.
    await importKnowledge(db(), system, file("system.jsonl", [page(unique("ps"), "s")]));
    expect((await db().select().from(auditLog).where(eq(auditLog.targetId, "system.jsonl"))).length).toBe(0);
  });

  it("a text-index build that starts writes an entry with the pages it had to index, background or not", async () => {
    const coord = await coordinator();
    await importKnowledge(db(), system, file("stale.jsonl", [page(unique("pi"), "index me")]));
    await buildIndex(db(), coord);
    const started = await startIndexBuild(db(), coord);
    expect(["building", "ready"]).toContain(started.state);
    await buildIndex(db(), system); // waits for the background build to end
    const entries = await entriesOf(coord, "knowledge.index");
    expect(entries.map((e) => [e.targetType, e.targetId, (e.details as { background: boolean }).background])).toEqual([
      ["knowledge", null, false],
      ["knowledge", null, true],
    ]);
    // The second import indexed its page itself (the index was built): what is stale is global, so only its shape.
    for (const e of entries) expect((e.details as { stalePages: number }).stalePages).toEqual(expect.any(Number));
  });

  it("crowd settings record the entry state, the caps, the MTurk site and the example's length", async () => {
    const coord = await coordinator();
    const campaignId = (await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("crowd") }))).id;
    const input = parseInput(updateCrowdSettingsSchema, {
      entry: "stopped",
      maxWorkers: 35,
      maxSessionsInProgress: 10,
      mturkSite: "sandbox",
      example: "An example, not gold.",
    });
    await updateCrowdSettings(db(), coord, campaignId, input);
    const [entry] = await entriesOf(coord, "campaign.crowd");
    expect(entry).toMatchObject({ targetType: "campaign", targetId: String(campaignId) });
    expect(entry!.details).toEqual({
      fields: ["entry", "maxWorkers", "maxSessionsInProgress", "mturkSite", "example"],
      changes: { entry: "stopped", maxWorkers: 35, maxSessionsInProgress: 10, mturkSite: "sandbox", example: "(21 characters)" },
    });
  });

  it("the audit API lists the new actions", async () => {
    const coord = await coordinator();
    await importKnowledge(db(), coord, file("listed.jsonl", [page(unique("pl"), "listed")]));
    const { entries } = await listAudit(db(), coord, { order: "desc", limit: 50 });
    expect(entries.find((e) => e.actorId === coord.id)).toMatchObject({
      action: "knowledge.import",
      targetType: "knowledge",
      targetId: "listed.jsonl",
    });
  });
});
