import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { getCampaign } from "../campaigns";
import type { JudgmentRow } from "./rows";

const json = JSON.stringify;

/** Rows read per round trip: memory stays flat whatever the campaign's size. */
const PAGE_ROWS = 5000;

interface ExportedJudgmentRow extends JudgmentRow {
  query_id: string;
  wikipedia_id: string;
  passage_start: number;
  passage_end: number;
  annotator: string;
  is_gold: boolean;
  counted: boolean;
  batch_id: number;
}

/**
 * The export's statement: the judgments after `after` in id order, with what a line needs and
 * whether each counts (the rule of `countedJudgmentsOf`, applied row by row). Without `limit`, every
 * row at once (bench/export runs it so, for its diagnostics).
 */
export function judgmentRowsQuery(campaignId: number, page: { after?: number; limit?: number; batchId?: number } = {}): SQL {
  return sql`
    select j.id, q.kilt_id as query_id, j.passage_id, p.wikipedia_id,
           p.start_paragraph_id as passage_start, p.end_paragraph_id as passage_end,
           u.pseudonym as annotator, j.verdict, j.unreadable,
           j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character, j.span_text,
           p.is_gold,
           -- In a closed batch: whether it counted at close (internal/seal.ts), whatever happened since.
           coalesce(j.counted_at_close, coalesce(s.status, 'active') = 'active' and (
             select count(*) from judgments j2
             left join annotator_standings s2 on s2.campaign_id = j2.campaign_id and s2.user_id = j2.user_id
             where j2.passage_id = j.passage_id and coalesce(s2.status, 'active') = 'active'
               and (j2.created_at, j2.id) < (j.created_at, j.id)
           ) < c.judgments_per_passage) as counted,
           j.batch_id, j.duration_ms, j.created_at
    from judgments j
    join passages p on p.id = j.passage_id
    join queries q on q.id = p.query_id
    join users u on u.id = j.user_id
    join campaigns c on c.id = j.campaign_id
    left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id
    where j.campaign_id = ${campaignId}
      ${page.after === undefined ? sql`` : sql`and j.id > ${page.after}`}
      ${page.batchId === undefined ? sql`` : sql`and j.batch_id = ${page.batchId}`}
    order by j.id
    ${page.limit === undefined ? sql`` : sql`limit ${page.limit}`}`;
}

/**
 * Every judgment of a campaign as JSONL lines (snake_case), for audit and re-analysis: keyset pages
 * over the judgments in id order, so memory stays flat. Annotators appear by pseudonym only.
 */
export async function* exportJudgments(db: Db, actor: Actor, campaignId: number, options: { batchId?: number } = {}): AsyncGenerator<string> {
  requireCoordinator(actor);
  await getCampaign(db, actor, campaignId);
  // One page per READ ONLY transaction with JIT off: the page statement's estimated cost crosses
  // jit_above_cost, and compiling it on every page cost more than it saved (bench/export).
  // The next page is asked for before this one is turned into lines, so the server and the
  // JavaScript work at the same time (on PGlite they simply take turns).
  const page = (after: number) =>
    db.transaction(
      async (tx) => {
        await tx.execute(sql`set local jit = off`);
        return rowsOf<ExportedJudgmentRow>(await tx.execute(judgmentRowsQuery(campaignId, { after, limit: PAGE_ROWS, batchId: options.batchId })));
      },
      { accessMode: "read only" },
    );
  // A page asked for ahead and never awaited (the download was cancelled) must not be an unhandled rejection.
  const ahead = (after: number) => {
    const p = page(after);
    p.catch(() => {});
    return p;
  };
  let pending = ahead(0);
  for (;;) {
    const rows = await pending;
    const last = rows.length === PAGE_ROWS ? Number(rows[rows.length - 1]!.id) : null;
    if (last !== null) pending = ahead(last);
    for (const r of rows) {
      // The line is written out field by field (strings through JSON.stringify, for their escapes):
      // the same bytes as stringifying an object, without building one per row (bench/export).
      const span =
        r.span_text === null
          ? "null"
          : `{"start_paragraph_id":${r.start_paragraph_id},"start_character":${r.start_character},"end_paragraph_id":${r.end_paragraph_id},"end_character":${r.end_character},"text":${json(r.span_text)}}`;
      yield (
        `{"query_id":${json(r.query_id)},"passage_id":${Number(r.passage_id)},"wikipedia_id":${json(r.wikipedia_id)},` +
        `"start_paragraph_id":${r.passage_start},"end_paragraph_id":${r.passage_end},"annotator":${json(r.annotator)},` +
        `"verdict":${json(r.verdict)},"unreadable":${r.unreadable},"span":${span},"is_gold":${r.is_gold},"counted":${r.counted},` +
        `"batch_id":${Number(r.batch_id)},"duration_ms":${r.duration_ms},"created_at":"${new Date(r.created_at).toISOString()}"}\n`
      );
    }
    if (last === null) return;
  }
}
