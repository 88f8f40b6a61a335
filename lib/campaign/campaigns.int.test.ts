import { expect, it } from "vitest";
import { batches, campaignMembers, campaigns, pages, passages, queries } from "@/db/schema";
import { system } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { listCampaigns, listMyCampaigns } from "./campaigns";

describeEachDatabase("campaign lists", ({ db }) => {
  async function campaignWith(opts: { queries: number; passagesEach: number; status: "draft" | "launched"; allAnnotators?: boolean }) {
    const [c] = await db()
      .insert(campaigns)
      .values({ name: unique("camp"), allAnnotators: opts.allAnnotators ?? true })
      .returning();
    // The batch carries its question count, as the import writes it (the list reads it there).
    const [b] = await db()
      .insert(batches)
      .values({ campaignId: c!.id, name: "b", status: opts.status, queryCount: opts.queries })
      .returning();
    const wikipediaId = unique("page");
    await db()
      .insert(pages)
      .values({ wikipediaId, title: "T", paragraphs: ["T\n", "Text.\n", "More.\n", "End.\n"] });
    for (let i = 0; i < opts.queries; i++) {
      const [q] = await db()
        .insert(queries)
        .values({ campaignId: c!.id, batchId: b!.id, kiltId: String(i), input: "q", originalLine: "{}", lineNumber: i + 1 })
        .returning();
      for (let p = 1; p <= opts.passagesEach; p++) {
        await db()
          .insert(passages)
          .values({
            queryId: q!.id,
            campaignId: c!.id,
            batchId: b!.id,
            wikipediaId,
            startParagraphId: p,
            endParagraphId: p,
            origins: [{ kind: "retriever", retriever: "dpr", rank: p }],
            openSlots: 3,
          });
      }
    }
    return c!;
  }

  it("counts each campaign's own batches, questions and passages", async () => {
    const a = await campaignWith({ queries: 2, passagesEach: 3, status: "launched" });
    const b = await campaignWith({ queries: 1, passagesEach: 1, status: "draft" });
    const list = (await listCampaigns(db(), system, { limit: 500 })).rows;
    expect(list.find((c) => c.id === a.id)).toMatchObject({ batches: 1, launchedBatches: 1, queries: 2, passages: 6 });
    expect(list.find((c) => c.id === b.id)).toMatchObject({ batches: 1, launchedBatches: 0, queries: 1, passages: 1 });
  });

  it("shows an annotator the all-annotator campaigns and those they were added to", async () => {
    const open = await campaignWith({ queries: 1, passagesEach: 1, status: "launched" });
    const closed = await campaignWith({ queries: 1, passagesEach: 1, status: "draft", allAnnotators: false });
    const member = await campaignWith({ queries: 1, passagesEach: 1, status: "draft", allAnnotators: false });
    const { user } = await createUser(db(), system, { username: unique("ann"), role: "annotator", password: "password-123" });
    await db().insert(campaignMembers).values({ campaignId: member.id, userId: user.id });
    const actor = { kind: "user" as const, id: user.id, username: user.username, role: "annotator" as const, via: "session" as const };
    const mine = (await listMyCampaigns(db(), actor, { limit: 500 })).rows;
    const ids = mine.map((c) => c.id);
    expect(ids).toContain(open.id);
    expect(ids).toContain(member.id);
    expect(ids).not.toContain(closed.id);
    expect(mine.find((c) => c.id === open.id)?.hasLaunchedBatch).toBe(true);
    expect(mine.find((c) => c.id === member.id)?.hasLaunchedBatch).toBe(false);
    await expect(listCampaigns(db(), actor, { limit: 1 })).rejects.toBeInstanceOf(AppError);
  });
});
