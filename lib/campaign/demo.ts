import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { appMeta, batches, campaigns, pages, passages, queries } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { hashPassword } from "@/lib/auth/crypto";
import { insertUser } from "@/lib/auth/users";
import { knowledgeRecordSchema, provenanceItemSchema, taskLineSchema } from "@/lib/kilt/schemas";
import { parseInput } from "@/lib/errors";
import { z } from "zod";
import { answersOf, candidatePassagesOf, goldPassagesOf, mergePassages } from "./batch-rows";

export const DEMO_DIR = path.join(process.cwd(), "db", "demo");
export const DEMO_PASSWORD = "kilt-demo";
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

const retrievalLineSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  output: z.array(z.object({ provenance: z.array(provenanceItemSchema).optional() })),
});

function readJsonl<T>(file: string, schema: z.ZodType<T>): { value: T; raw: string; lineNumber: number }[] {
  const text = fs.readFileSync(path.join(DEMO_DIR, file), "utf8");
  return text
    .split(/\r?\n/)
    .map((raw, i) => ({ raw, lineNumber: i + 1 }))
    .filter(({ raw }) => raw.trim() !== "")
    .map(({ raw, lineNumber }) => ({ raw, lineNumber, value: parseInput(schema, JSON.parse(raw), `${file} line ${lineNumber}`) }));
}

export interface DemoSummary {
  campaignId: number;
  accounts: { username: string; role: string; password: string }[];
}

/** Whether the demo was seeded in this database (it is seeded once, on first start). */
export async function isDemoSeeded(db: Db): Promise<boolean> {
  const [row] = await db.select().from(appMeta).where(eq(appMeta.key, DEMO_KEY));
  return !!row;
}

/**
 * Seeds the demo: the sample pages, a launched campaign over the sample questions with their
 * candidates and one gold passage each, and four accounts with a known password.
 */
export async function seedDemo(db: Db, actor: Actor): Promise<DemoSummary> {
  requireCoordinator(actor);
  const records = readJsonl("knowledge.jsonl", knowledgeRecordSchema);
  const tasks = readJsonl("queries.jsonl", taskLineSchema);
  const retrieval = new Map(readJsonl("candidates.jsonl", retrievalLineSchema).map((r) => [r.value.id, r.value]));
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  return db.transaction(async (tx) => {
    const accountIds: number[] = [];
    for (const account of DEMO_ACCOUNTS) {
      accountIds.push((await insertUser(tx, { ...account, passwordHash })).id);
    }
    for (const { value: r } of records) {
      await tx
        .insert(pages)
        .values({ wikipediaId: r.wikipedia_id, title: r.wikipedia_title, paragraphs: r.text })
        .onConflictDoUpdate({ target: pages.wikipediaId, set: { title: r.wikipedia_title, paragraphs: r.text, updatedAt: new Date() } });
    }
    const [campaign] = await tx
      .insert(campaigns)
      .values({ name: "Demo — Velmora questions", instructions: INSTRUCTIONS, createdBy: accountIds[0] })
      .returning();
    if (!campaign) throw new Error("insert returned no row");
    const [batch] = await tx
      .insert(batches)
      .values({ campaignId: campaign.id, name: "demo sample", status: "launched", launchedAt: new Date(), createdBy: accountIds[0] })
      .returning();
    if (!batch) throw new Error("insert returned no row");

    for (const { value: line, raw, lineNumber } of tasks) {
      const [query] = await tx
        .insert(queries)
        .values({
          campaignId: campaign.id,
          batchId: batch.id,
          kiltId: line.id,
          input: line.input,
          answers: answersOf(line),
          originalLine: raw,
          lineNumber,
        })
        .returning({ id: queries.id });
      if (!query) throw new Error("insert returned no row");
      const ranking = retrieval.get(line.id)?.output[0]?.provenance ?? [];
      const drafts = mergePassages([...goldPassagesOf(line), ...candidatePassagesOf(ranking, 4)]);
      await tx.insert(passages).values(
        drafts.map((d) => ({
          queryId: query.id,
          campaignId: campaign.id,
          batchId: batch.id,
          wikipediaId: d.wikipediaId,
          startParagraphId: d.startParagraphId,
          endParagraphId: d.endParagraphId,
          origins: d.origins,
          isGold: d.isGold,
          expectedVerdict: d.isGold ? ("sufficient" as const) : null,
          expectedStartParagraphId: d.expectedSpan?.startParagraphId ?? null,
          expectedStartCharacter: d.expectedSpan?.startCharacter ?? null,
          expectedEndParagraphId: d.expectedSpan?.endParagraphId ?? null,
          expectedEndCharacter: d.expectedSpan?.endCharacter ?? null,
          openSlots: campaign.judgmentsPerPassage,
        })),
      );
    }
    await tx.insert(appMeta).values({ key: DEMO_KEY, value: { campaignId: campaign.id } });
    return {
      campaignId: campaign.id,
      accounts: DEMO_ACCOUNTS.map((a) => ({ ...a, password: DEMO_PASSWORD })),
    };
  });
}
