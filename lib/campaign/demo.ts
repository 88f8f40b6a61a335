import "server-only";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { appMeta } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { hashPassword } from "@/lib/auth/crypto";
import type { DemoPasswords } from "./demo-credentials";
import { insertUser } from "@/lib/auth/users";
import { changeBatchStatus } from "./batches";
import { createCampaign } from "./campaigns";
import { importBatch, type ImportFile } from "./import/import-batch";
import { importKnowledge } from "../knowledge/import-knowledge";
import { createCampaignSchema } from "./settings.contract";

export const DEMO_DIR = path.join(process.cwd(), "db", "demo");
export const DEMO_FILES = { knowledge: "knowledge.jsonl", queries: "queries.jsonl", candidates: "candidates.jsonl" } as const;
export const DEMO_ACCOUNTS = [
  { username: "demo-coordinator", role: "coordinator" },
  { username: "demo-annotator-1", role: "annotator" },
  { username: "demo-annotator-2", role: "annotator" },
  { username: "demo-annotator-3", role: "annotator" },
] as const;

const DEMO_KEY = "demo_seeded";

const INSTRUCTIONS = `## What to do

Read the **question**, then the **passage**. Decide whether the passage alone holds enough
evidence to answer the question.

- **Sufficient** (key \`1\`): highlight the shortest span that carries the answer, then press Enter.
- **Not sufficient** (key \`2\`): the passage is on topic but does not settle the answer, or is off topic.
- **Unreadable** (key \`U\`): the text is garbled or not prose.

Judge the passage, not your own knowledge.
`;

function demoFile(name: string): ImportFile {
  return { fileName: name, source: fs.createReadStream(path.join(DEMO_DIR, name)) };
}

export interface DemoSummary {
  campaignId: number;
  batchId: number;
  accounts: { username: string; role: string; password: string }[];
}

/** Whether the demo was seeded in this database (it is seeded once, on first start). */
export async function isDemoSeeded(db: Db): Promise<boolean> {
  const [row] = await db.select().from(appMeta).where(eq(appMeta.key, DEMO_KEY));
  return !!row;
}

/**
 * Seeds the demo through the real import path: the sample pages, a campaign with one launched
 * batch (questions, top-4 candidates, one gold passage each), and four accounts with the given
 * passwords (random ones, newDemoPasswords(), kept in the data directory by lib/bootstrap.ts).
 */
export async function seedDemo(db: Db, actor: Actor, passwords: DemoPasswords): Promise<DemoSummary> {
  requireCoordinator(actor);
  await importKnowledge(db, actor, demoFile(DEMO_FILES.knowledge));
  const campaign = await createCampaign(
    db,
    actor,
    createCampaignSchema.parse({ name: "Demo — Velmora questions", instructions: INSTRUCTIONS }),
  );
  const { batch } = await importBatch(db, actor, {
    campaignId: campaign.id,
    name: "demo sample",
    topK: 4,
    queries: demoFile(DEMO_FILES.queries),
    candidates: demoFile(DEMO_FILES.candidates),
  });
  await changeBatchStatus(db, actor, batch.id, "launch");
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(passwords[a.username])));
  await db.transaction(async (tx) => {
    for (const [i, account] of DEMO_ACCOUNTS.entries()) await insertUser(tx, { ...account, passwordHash: hashes[i]! });
    await tx.insert(appMeta).values({ key: DEMO_KEY, value: { campaignId: campaign.id, batchId: batch.id } });
  });
  const accounts = DEMO_ACCOUNTS.map((a) => ({ ...a, password: passwords[a.username] }));
  return { campaignId: campaign.id, batchId: batch.id, accounts };
}
