import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { JudgmentFlag } from "@/db/schema";
import type { NotedJudgments } from "./dashboard.contract";

/**
 * Internal to getDashboard (which authorized the coordinator): the judgments of a campaign with a
 * comment or a flag. Both reads stay on the partial index `judgments_noted_idx` (their condition is
 * its predicate), so they cost what the noted judgments cost, not the campaign's size.
 */
export async function notedJudgments(db: Db, campaignId: number, latest = 5): Promise<NotedJudgments> {
  const noted = sql`j.campaign_id = ${campaignId} and (j.comment is not null or j.flags <> '{}'::text[])`;
  const [count] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from judgments j where ${noted}`));
  const rows = rowsOf<{ query_id: number; input: string; comment: string | null; flags: JudgmentFlag[] }>(
    await db.execute(sql`
      select p.query_id::float8 as query_id, q.input, n.comment, n.flags
      from (select j.passage_id, j.comment, j.flags, j.created_at from judgments j where ${noted} order by j.created_at desc limit ${latest}) n
      join passages p on p.id = n.passage_id join queries q on q.id = p.query_id
      order by n.created_at desc`),
  );
  return { count: count?.n ?? 0, latest: rows.map((r) => ({ queryId: r.query_id, input: r.input, comment: r.comment, flags: r.flags })) };
}
