import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/client";
import { system, type UserActor } from "@/lib/auth/actor";
import { nextTask } from "@/lib/campaign/annotate/assignment";
import type { Task } from "@/lib/campaign/annotate/judging.contract";
import { submitJudgment } from "@/lib/campaign/annotate/judgments";
import { changeBatchStatus } from "@/lib/campaign/batches";
import { createCampaign } from "@/lib/campaign/campaigns";
import { importBatch } from "@/lib/campaign/import/import-batch";
import { createCampaignSchema } from "@/lib/campaign/settings.contract";
import { importKnowledge } from "@/lib/knowledge/import-knowledge";
import { judgmentOf, pageParagraphs } from "./campaign-factory";
import { unique } from "./databases";

// Campaigns of one KILT task (the question view, the exports and the leaderboard by kind): batches
// imported through the real path from a file named as KILT names its files (`fever-dev-kilt.jsonl`),
// so detection sets the batch's task and dataset.

function source(text: string) {
  return (async function* () {
    yield Buffer.from(text);
  })();
}

export interface KindLine {
  input: string;
  answers: string[];
}

/** `count` pages of 4 paragraphs each ("Page <id>"), imported; their ids. */
export async function makePages(db: Db, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => unique("page"));
  const lines = ids.map((id) => JSON.stringify({ wikipedia_id: id, wikipedia_title: `Page ${id}`, text: pageParagraphs(`Page ${id}`, 4) }));
  await importKnowledge(db, system, { fileName: "pages.jsonl", source: source(lines.join("\n")) });
  return ids;
}

/**
 * A launched batch of `lines` in a campaign (a new one unless `campaignId`), imported from
 * `fileName`: line i's gold is paragraph 1 of page i, with paragraph 2 of the same page as a
 * candidate. Returns the ids (KILT and database) in line order.
 */
export async function makeKindBatch(
  db: Db,
  options: { fileName: string; lines: KindLine[]; campaignId?: number; settings?: Record<string, unknown> },
): Promise<{ campaignId: number; batchId: number; pageIds: string[]; kiltIds: string[]; queryIds: number[] }> {
  const pageIds = await makePages(db, options.lines.length);
  const campaignId =
    options.campaignId ??
    (
      await createCampaign(
        db,
        system,
        createCampaignSchema.parse({ name: unique("campaign"), goldAccuracyThreshold: 0, ...options.settings }),
      )
    ).id;
  const kiltIds = options.lines.map(() => unique("k"));
  const tasks = options.lines.map((l, i) =>
    JSON.stringify({
      id: kiltIds[i],
      input: l.input,
      output: l.answers.map((answer, a) => ({
        answer,
        ...(a === 0
          ? { provenance: [{ wikipedia_id: pageIds[i], title: `Page ${pageIds[i]}`, start_paragraph_id: 1, end_paragraph_id: 1 }] }
          : {}),
      })),
    }),
  );
  const rankings = kiltIds.map((id, i) =>
    JSON.stringify({ id, output: [{ provenance: [{ wikipedia_id: pageIds[i], start_paragraph_id: 2, end_paragraph_id: 2 }] }] }),
  );
  const { batch } = await importBatch(db, system, {
    campaignId,
    perRetriever: 1,
    queries: { fileName: options.fileName, source: source(tasks.join("\n")) },
    candidates: { fileName: "candidates.jsonl", source: source(rankings.join("\n")) },
  });
  await changeBatchStatus(db, system, batch.id, "launch");
  const rows = rowsOf<{ id: string | number; kilt_id: string }>(
    await db.execute(sql`select id, kilt_id from queries where batch_id = ${batch.id}`),
  );
  const byKilt = new Map(rows.map((r) => [r.kilt_id, Number(r.id)]));
  return { campaignId, batchId: batch.id, pageIds, kiltIds, queryIds: kiltIds.map((k) => byKilt.get(k)!) };
}

/** A verdict as a plan gives it: fact checking's labels mean sufficient with that label. */
export type PlannedVerdict = "sufficient" | "insufficient" | "SUPPORTS" | "REFUTES";

/** Every annotator judges every passage they are given, as `plan` says (sufficient highlights the first word, except in entity linking: the page, no highlight). */
export async function judgeEvery(
  db: Db,
  annotators: UserActor[],
  campaignId: number,
  plan: (t: Task, who: number) => PlannedVerdict,
): Promise<void> {
  for (const [who, a] of annotators.entries()) {
    for (let t = await nextTask(db, a, { campaignId }); t; t = await nextTask(db, a, { campaignId })) {
      const planned = plan(t, who);
      const label = planned === "SUPPORTS" || planned === "REFUTES" ? planned : null;
      const judgment = judgmentOf(t, label ? "sufficient" : (planned as "sufficient" | "insufficient"));
      // Entity linking judges the page: a sufficient verdict comes without a highlight (stored page-level).
      await submitJudgment(db, a, t.claim.handle, { ...judgment, label, ...(t.query.kind === "entity-linking" ? { span: null } : {}) });
    }
  }
}
