import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import type { TaskKind } from "@/lib/kilt/task-kind";
import { getCampaign } from "../campaigns";
import { waitingCounts, waitingSql } from "../quality/adjudication-waiting";
import type { QuestionFilter, QuestionList, QuestionListQuery } from "./question-list-options";

const condition: Record<QuestionFilter, ReturnType<typeof sql>> = {
  all: sql`true`,
  disputed: sql`coalesce(t.disputed, 0) > 0`,
  unanswerable: sql`coalesce(t.gold_missed, 0) > 0`,
  answered: sql`coalesce(t.endorsed, 0) > 0`,
  open: sql`coalesce(t.finished, 0) < coalesce(t.passages, 0)`,
  waiting: waitingSql("any"),
  "waiting-split": waitingSql("split"),
  "waiting-explained": waitingSql("explained"),
  "waiting-decoy": waitingSql("decoy"),
  "waiting-gold": waitingSql("gold"),
};

/** `%`, `_` and `\` stand for themselves in the search text. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A campaign's questions, filtered by their outcome so far and searched by text or KILT id, in id
 * order, a page at a time (keyset: `after` is the last id of the page before, so a late page costs
 * what the first does). Outcomes come from the per-question tallies the triggers keep; a page reads
 * questions from `after` until `limit` match, and the counts read one tally row per question.
 */
export async function listQuestions(db: Db, actor: Actor, campaignId: number, query: QuestionListQuery): Promise<QuestionList> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  const search = query.q ? sql`and (q.input ilike ${likePattern(query.q)} or q.kilt_id = ${query.q})` : sql``;
  const [rows, counts, waiting] = await Promise.all([
    db.execute(sql`
      select q.id, q.kilt_id, q.input, q.line_number, b.name as batch_name, b.task_kind,
             coalesce(t.passages, 0)::int as passages, coalesce(t.finished, 0)::int as finished,
             coalesce(t.endorsed, 0)::int as endorsed, coalesce(t.disputed, 0)::int as disputed,
             coalesce(t.gold_missed, 0) > 0 as unanswerable
      from queries q
      join batches b on b.id = q.batch_id
      left join query_tallies t on t.query_id = q.id
      where q.campaign_id = ${campaignId} and ${condition[query.show]} ${search}
        ${query.after === undefined ? sql`` : sql`and q.id > ${query.after}`}
      order by q.id
      limit ${query.limit + 1}`),
    db.execute(sql`
      select (select coalesce(sum(query_count), 0) from batches where campaign_id = ${campaignId})::int as "all",
             (count(*) filter (where disputed > 0))::int as disputed,
             (count(*) filter (where gold_missed > 0))::int as unanswerable,
             (count(*) filter (where endorsed > 0))::int as answered,
             (count(*) filter (where finished < passages))::int as open
      from query_tallies where campaign_id = ${campaignId}`),
    waitingCounts(db, campaignId),
  ]);
  const page = rowsOf<{
    id: string | number;
    kilt_id: string;
    input: string;
    line_number: number;
    batch_name: string;
    task_kind: TaskKind;
    passages: number;
    finished: number;
    endorsed: number;
    disputed: number;
    unanswerable: boolean;
  }>(rows);
  const [c] = rowsOf<Record<"all" | "disputed" | "unanswerable" | "answered" | "open", number>>(counts);
  const questions = page.slice(0, query.limit).map((r) => ({
    id: Number(r.id),
    kiltId: r.kilt_id,
    input: r.input,
    batchName: r.batch_name,
    taskKind: r.task_kind,
    lineNumber: r.line_number,
    passages: r.passages,
    finished: r.finished,
    endorsed: r.endorsed,
    disputed: r.disputed,
    unanswerable: r.unanswerable,
  }));
  return {
    questions,
    next: page.length > query.limit ? questions[questions.length - 1]!.id : null,
    counts: {
      ...(c ?? { all: 0, disputed: 0, unanswerable: 0, answered: 0, open: 0 }),
      waiting: waiting.any,
      "waiting-split": waiting.split,
      "waiting-explained": waiting.explained,
      "waiting-decoy": waiting.decoy,
      "waiting-gold": waiting.gold,
    },
  };
}
