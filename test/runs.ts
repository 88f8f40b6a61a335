import { readFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import type { ImportFile } from "@/lib/campaign/import/read-batch-files";
import { BAD_GUESS_DIR } from "./bad-guess-cases";
import { unique } from "./databases";

// Helpers of the runs' integration tests: accounts, files, and a campaign made of the bad-guess fixtures' gold.

export { BAD_GUESS_DIR };

export function fileOf(text: string, fileName = "guess.jsonl"): ImportFile {
  return {
    fileName,
    source: (async function* () {
      yield Buffer.from(text);
    })(),
  };
}

export function fixtureFile(name: string): ImportFile {
  return fileOf(readFileSync(path.join(BAD_GUESS_DIR, name), "utf8"), name);
}

export async function makeUser(db: Db, role: "coordinator" | "annotator"): Promise<UserActor> {
  const { user } = await createUser(db, system, { username: unique(role), role, password: "password-123" });
  return { kind: "user", id: user.id, username: user.username, role, via: "session" };
}

/** A campaign whose questions are the bad-guess fixtures' gold (q1–q4, imported as the batch `gold.jsonl`). */
export async function fixtureCampaign(db: Db): Promise<number> {
  await importKnowledge(db, system, fixtureFile("knowledge.jsonl"));
  const campaign = await createCampaign(db, system, createCampaignSchema.parse({ name: unique("runs") }));
  await importBatch(db, system, { campaignId: campaign.id, queries: fixtureFile("gold.jsonl") });
  return campaign.id;
}

/**
 * Figures as JSON to 12 significant digits, keys in order: the leaderboard cache's sums updated in
 * place (a question's old figures taken out, its new ones put in) may differ from a fresh walk's,
 * and KILT's, in their last bits.
 */
export const figuresText = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "number" ? Number(x.toPrecision(12)) : x));
