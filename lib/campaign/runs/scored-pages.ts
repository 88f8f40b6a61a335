import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { RunProvenanceItem } from "@/db/schema";
import { pyStrip } from "@/lib/kilt/score/python";
import type { GoldRecord, GuessRecord } from "@/lib/kilt/score/types";
import type { CampaignView } from "../campaigns";
import { PAGE_QUERIES, readProvenancePageAt, type QuestionProvenance } from "../report/kilt-provenance";
import { goldsOf } from "./golds";
import { GOLDS, type PerGold } from "./runs.contract";

// The walk every run figure comes from: the campaign's questions a page at a time (memory flat in
// the campaign's size), each with its three golds built from the campaign's outcomes as they are now
// (the export's own reading, report/kilt-provenance.ts) and the runs' predictions for it. Internal:
// callers authorize first.

export interface ScoredQuestion {
  question: QuestionProvenance;
  golds: PerGold<GoldRecord | null>;
  /** Per run id, its prediction (absent: the question came to the campaign after the run). */
  guesses: Map<number, GuessRecord>;
  /** The question as read with T at each of the walk's `otherTs`, in their order (golds-at-t.ts keeps them). */
  atOtherTs: QuestionProvenance[];
}

export interface WalkOptions {
  after?: number;
  where?: SQL;
  /** Questions per page (PAGE_QUERIES by default). */
  limit?: number;
  /** Other values of T to read each question with too, in the same reading of the database. */
  otherTs?: readonly number[];
}

/** One page of questions after `after`, with golds and the runs' predictions. */
export async function scoredPage(
  db: Db,
  campaign: CampaignView,
  runIds: readonly number[],
  options: WalkOptions = {},
): Promise<ScoredQuestion[]> {
  const [page, ...others] = await readProvenancePageAt(
    db,
    campaign,
    { location: "span", after: options.after ?? 0, where: options.where, limit: options.limit },
    [campaign.endorsementThreshold, ...(options.otherTs ?? [])],
  );
  if (!page?.length) return [];
  const predictions = runIds.length
    ? rowsOf<{ run_id: number; query_id: number; answer: string | null; provenance: RunProvenanceItem[] | null }>(
        await db.execute(sql`
          select run_id, query_id, answer, provenance from run_predictions
          where run_id = any(${sql.param([...runIds])}::bigint[]) and query_id = any(${sql.param(page.map((q) => q.id))}::bigint[])`),
      )
    : [];
  const byQuery = new Map<number, typeof predictions>();
  for (const p of predictions) {
    const list = byQuery.get(Number(p.query_id));
    if (list) list.push(p);
    else byQuery.set(Number(p.query_id), [p]);
  }
  return page.map((question, i) => {
    const id = pyStrip(question.kiltId);
    const guesses = new Map(
      (byQuery.get(question.id) ?? []).map((p) => [Number(p.run_id), { id, answer: p.answer, provenance: p.provenance }]),
    );
    return { question, golds: goldsOf(question), guesses, atOtherTs: others.map((o) => o[i]!) };
  });
}

/**
 * Every question of the campaign, page by page; the next page is read while the caller scores this
 * one (two pages in memory at most), so the database's time and the scorer's overlap.
 */
export async function* scoredQuestions(
  db: Db,
  campaign: CampaignView,
  runIds: readonly number[],
  otherTs: readonly number[] = [],
): AsyncGenerator<ScoredQuestion> {
  let next = scoredPage(db, campaign, runIds, { after: 0, otherTs });
  for (;;) {
    const page = await next;
    const more = page.length === PAGE_QUERIES;
    if (more) {
      next = scoredPage(db, campaign, runIds, { after: page[page.length - 1]!.question.id, otherTs });
      next.catch(() => {}); // awaited on the next round; a caller that stops early leaves no unhandled rejection
    }
    yield* page;
    if (!more) return;
  }
}

/** Questions in each gold. */
export class GoldCounts {
  readonly counts: PerGold<{ questions: number }>;
  constructor(from?: PerGold<{ questions: number }>) {
    this.counts = {
      original: { questions: from?.original.questions ?? 0 },
      endorsed: { questions: from?.endorsed.questions ?? 0 },
      both: { questions: from?.both.questions ?? 0 },
    };
  }
  /** Counts a question's golds in (sign -1: out). */
  add(golds: PerGold<GoldRecord | null>, sign: 1 | -1 = 1): void {
    for (const g of GOLDS) if (golds[g]) this.counts[g].questions += sign;
  }
}
