// The batch upload's evidence-set fields (sets, setPages, partialEvidence) as multipart text, as
// the import form and `kps batch import` send them, over the HotpotQA-shaped fixture.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { system } from "@/lib/auth/actor";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { describeEachDatabase, unique } from "@/test/databases";
import { HOTPOT_DIR, HOTPOT_FILES, importHotpotKnowledge } from "@/test/hotpot-fixture";
import { refusal } from "@/test/refusal";
import { batchUploadParts } from "./uploads";

const MiB = 1024 * 1024;

function upload(fields: Record<string, string>): Request {
  const form = new FormData();
  for (const key of ["queries", "candidates"] as const) {
    const name = HOTPOT_FILES[key];
    form.append(key, new Blob([readFileSync(path.join(HOTPOT_DIR, name))]), name);
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return new Request("http://x/api/campaigns/1/batches", { method: "POST", body: form });
}

describeEachDatabase("the batch upload's evidence-set fields", ({ db }) => {
  it("takes sets, setPages and partialEvidence as multipart text, and names a bad one", async () => {
    await importHotpotKnowledge(db());
    const campaign = await createCampaign(db(), system, createCampaignSchema.parse({ name: unique("upload-sets") }));
    const parts = batchUploadParts(upload({ sets: "pairs", setPages: "2", partialEvidence: "off" }), MiB);
    const result = await importBatch(db(), system, { campaignId: campaign.id, parts });
    // 7 gold sets, and one pair per question (its two best pages), the gold set itself for 3 of them.
    expect(result).toMatchObject({ queries: 7, sets: 7 + 7 - 3, partialEvidence: false });

    const bad = await refusal(
      importBatch(db(), system, { campaignId: campaign.id, parts: batchUploadParts(upload({ partialEvidence: "yes" }), MiB) }),
    );
    expect(bad.details).toMatchObject({ problems: [{ field: "partialEvidence" }] });
  });
});
