// The HotpotQA-shaped fixture (test/fixtures/hotpot/README.md): its knowledge source, its questions
// (gold outputs whose provenance spans two pages: one gold evidence set each) and its retrieval file,
// imported through the real import path.
import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { passages, queries, type SetMember } from "@/db/schema";
import { system, type Actor } from "@/lib/auth/actor";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign } from "@/lib/campaign/campaigns";
import type { BatchImportResult } from "@/lib/campaign/import/import-batch.contract";
import { importBatch, type BatchImportOptionsInput, type ImportFile } from "@/lib/campaign/import/import-batch";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { unique } from "./databases";

export const HOTPOT_DIR = path.join(process.cwd(), "test", "fixtures", "hotpot");

/** The fixture's files: the questions file's name says HotpotQA (so partial evidence is on by default). */
export const HOTPOT_FILES = { knowledge: "knowledge.jsonl", queries: "hotpotqa-dev-kilt.jsonl", candidates: "dpr.jsonl" } as const;

/** The KILT ids of the fixture's questions, in file order. */
export const HOTPOT_QUESTION_IDS = ["hotpot-q1", "hotpot-q2", "hotpot-q3", "hotpot-q4", "hotpot-q5", "hotpot-q6", "hotpot-q7"] as const;

/**
 * Question 7 ("Which river flows through the town where Aldric Venn was born?", answer River Tessel):
 * paragraph 1 of 9300001 (Aldric Venn: born in Marlowe Ferry) and paragraph 1 of 9300005 (Marlowe
 * Ferry: on the River Tessel) are sufficient only together; each alone is insufficient. Its members
 * in page order; its set_key.
 */
export const HOTPOT_Q7 = {
  kiltId: "hotpot-q7",
  members: [
    { wikipediaId: "9300001", startParagraphId: 1, endParagraphId: 1 },
    { wikipediaId: "9300005", startParagraphId: 1, endParagraphId: 1 },
  ] satisfies SetMember[],
  setKey: "9300005:1-1",
} as const;

/** A fixture file as an import takes it; `transform` rewrites its lines (parsed JSON) first. */
export function hotpotFile(name: string, transform?: (line: Record<string, unknown>) => Record<string, unknown>): ImportFile {
  let text = readFileSync(path.join(HOTPOT_DIR, name), "utf8");
  if (transform)
    text = text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.stringify(transform(JSON.parse(l) as Record<string, unknown>)))
      .join("\n");
  return {
    fileName: name,
    source: (async function* () {
      yield Buffer.from(text);
    })(),
  };
}

/** Imports (upserts) the fixture's 15 pages, wikipedia ids 9300001–9300015. */
export async function importHotpotKnowledge(db: Db): Promise<void> {
  await importKnowledge(db, system, hotpotFile(HOTPOT_FILES.knowledge));
}

export interface HotpotImportOptions extends Omit<BatchImportOptionsInput, "queries" | "candidates"> {
  /** Leave out the retrieval file (only the gold sets are imported). */
  withoutCandidates?: boolean;
  /** KILT ids whose gold outputs lose their provenance (answers kept): e.g. ["hotpot-q7"] makes Q7's pair a plain candidate set. */
  withoutGold?: readonly string[];
}

/** Imports the fixture's questions (and, unless told not to, its retrieval file) as a batch of `campaignId`, with the import's options. */
export async function importHotpotBatch(
  db: Db,
  campaignId: number,
  options: HotpotImportOptions = {},
  actor: Actor = system,
): Promise<BatchImportResult> {
  const { withoutCandidates, withoutGold = [], ...importOptions } = options;
  const dropGold = (line: Record<string, unknown>) =>
    withoutGold.includes(line.id as string)
      ? { ...line, output: (line.output as Record<string, unknown>[]).map(({ provenance: _, ...o }) => o) }
      : line;
  return importBatch(db, actor, {
    campaignId,
    ...importOptions,
    queries: hotpotFile(HOTPOT_FILES.queries, dropGold),
    candidates: withoutCandidates ? undefined : hotpotFile(HOTPOT_FILES.candidates),
  });
}

/**
 * A campaign (settings as `createCampaignSchema` takes them) holding the fixture as one batch,
 * imported with `options` (e.g. `{ sets: "pairs" }`), launched unless `launch: false`.
 */
export async function makeHotpotCampaign(
  db: Db,
  options: HotpotImportOptions & { settings?: Record<string, unknown>; launch?: boolean } = {},
): Promise<{ campaignId: number; batchId: number; result: BatchImportResult }> {
  const { settings, launch, ...importOptions } = options;
  await importHotpotKnowledge(db);
  const campaign = await createCampaign(db, system, createCampaignSchema.parse({ name: unique("hotpot"), ...settings }));
  const result = await importHotpotBatch(db, campaign.id, importOptions);
  if (launch !== false) await changeBatchStatus(db, system, result.batch.id, "launch");
  return { campaignId: campaign.id, batchId: result.batch.id, result };
}

/** A batch's passages, in question order then page order (sets after the single passage at their first member). */
export async function hotpotPassages(db: Db, batchId: number) {
  return db
    .select({
      id: passages.id,
      kiltId: queries.kiltId,
      wikipediaId: passages.wikipediaId,
      startParagraphId: passages.startParagraphId,
      endParagraphId: passages.endParagraphId,
      setKey: passages.setKey,
      setMembers: passages.setMembers,
      isGold: passages.isGold,
      origins: passages.origins,
    })
    .from(passages)
    .innerJoin(queries, eq(queries.id, passages.queryId))
    .where(eq(passages.batchId, batchId))
    .orderBy(asc(queries.lineNumber), asc(passages.wikipediaId), asc(passages.startParagraphId), asc(passages.setKey));
}
