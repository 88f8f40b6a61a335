// A campaign with an evidence set, judged by a plan: the downstream tests of sets (the KILT export,
// the golds of the runs, the coordinator's views) share it.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { SetMember } from "@/db/schema";
import type { UserActor } from "@/lib/auth/actor";
import { nextTask } from "@/lib/campaign/annotate/assignment";
import type { Task, TaskPassage } from "@/lib/campaign/annotate/judging.contract";
import { judgmentInputSchema, submitJudgment } from "@/lib/campaign/annotate/judgments";
import { makeCampaign, type TestCampaign } from "./campaign-factory";
import { unique } from "./databases";

export type SetCampaign = TestCampaign & { setId: number };

/**
 * A launched campaign of two questions on two pages (makeCampaign: gold paragraph 1 and a candidate
 * paragraph 2 each, R = 3, T = 2 unless `settings` say otherwise), with an evidence set added to
 * question 0: paragraph 2 of page 0 and paragraph 2 of page 1, in that order (`gold`: a gold set
 * expected sufficient, each member expecting its first two words).
 */
export async function makeSetCampaign(
  db: Db,
  opts: { settings?: Record<string, unknown>; partialEvidence?: boolean; gold?: boolean } = {},
): Promise<SetCampaign> {
  const c = await makeCampaign(db, {
    queries: 2,
    candidates: 1,
    settings: { goldAccuracyThreshold: 0, goldMinJudgments: 10_000, askWhenNoneSufficient: false, ...opts.settings },
  });
  // Gold: each member expects its first two words, "The 𐌅𐌄𐌋" (code points 0–7 of paragraph 2).
  const expectedSpan = { startParagraphId: 2, startCharacter: 0, endParagraphId: 2, endCharacter: 7 };
  const members: SetMember[] = c.pageIds.map((id) => ({
    wikipediaId: id,
    startParagraphId: 2,
    endParagraphId: 2,
    ...(opts.gold ? { expectedSpan } : {}),
  }));
  const [set] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id,
        origins, is_gold, expected_verdict, set_members, set_key, open_slots)
      select q.id, q.campaign_id, q.batch_id, ${members[0]!.wikipediaId}, 2, 2, '[{"kind":"retriever","retriever":"bm25","rank":1}]'::jsonb,
        ${!!opts.gold}, ${opts.gold ? "sufficient" : null}::verdict, ${JSON.stringify(members)}::jsonb, ${`${members[1]!.wikipediaId}:2-2`}, cp.judgments_per_passage
      from queries q join campaigns cp on cp.id = q.campaign_id where q.batch_id = ${c.batchId} and q.kilt_id = ${c.queryIds[0]!}
      returning id::float8 as id`),
  );
  await db.execute(sql`update batches set passage_count = passage_count + 1 where id = ${c.batchId}`);
  if (opts.partialEvidence) await db.execute(sql`update batches set partial_evidence = true where id = ${c.batchId}`);
  return { ...c, setId: set!.id };
}

/** Words `from` … `from + count − 1` of a passage's first paragraph, as a span (code points). */
export function wordsOf(p: TaskPassage, from: number, count = 3) {
  const para = p.paragraphs[0]!;
  const words = para.text.split(" ");
  const start = Array.from(words.slice(0, from).join(" ")).length + (from ? 1 : 0);
  const text = words.slice(from, from + count).join(" ");
  return { startParagraphId: para.id, startCharacter: start, endParagraphId: para.id, endCharacter: start + Array.from(text).length, text };
}

/** What an annotator does with a task: a verdict and its highlights (`span` or a set's `spans`). */
export interface Plan {
  verdict: "sufficient" | "insufficient" | "partial";
  span?: ReturnType<typeof wordsOf> | null;
  spans?: ReturnType<typeof wordsOf>[];
}

/** The annotator judges every task handed out, as `plan` says. */
export async function judgeByPlan(db: Db, who: UserActor, campaignId: number, plan: (t: Task) => Plan): Promise<void> {
  for (let t = await nextTask(db, who, { campaignId }); t; t = await nextTask(db, who, { campaignId })) {
    const p = plan(t);
    const body = judgmentInputSchema.parse({
      verdict: p.verdict,
      span: p.span ?? null,
      ...(p.spans ? { spans: p.spans } : {}),
      unreadable: false,
      durationMs: 900,
      idempotencyKey: unique("k"),
    });
    await submitJudgment(db, who, t.claim.handle, body);
  }
}
