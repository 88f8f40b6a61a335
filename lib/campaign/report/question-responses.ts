import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { ExplanationReason, PassageOrigin } from "@/db/schema";

/** An annotator's explanation of why no passage answers a question, as the reports show it (annotator by pseudonym). */
export interface ExplanationView {
  reason: ExplanationReason;
  text: string;
  annotator: string;
  createdAt: string;
}

/** The pseudonyms of the annotators who proposed a passage (its `annotator` origins), in the order they proposed it. */
export function proposersOf(origins: PassageOrigin[]): string[] {
  return origins.flatMap((o) => (o.kind === "annotator" ? [o.annotator] : []));
}

/**
 * The explanations of some questions of a campaign, by question id, oldest first. Reads the
 * explanations_campaign_idx (campaign, question) for the given questions only: bounded by the caller's page.
 */
export async function explanationsOf(db: Db, campaignId: number, queryIds: number[]): Promise<Map<number, ExplanationView[]>> {
  const byQuery = new Map<number, ExplanationView[]>();
  if (!queryIds.length) return byQuery;
  const rows = rowsOf<{ query_id: number; reason: ExplanationReason; text: string; annotator: string; created_at: string | Date }>(
    await db.execute(sql`
      select e.query_id::float8 as query_id, e.reason, e.text, u.pseudonym as annotator, e.created_at
      from explanations e join users u on u.id = e.user_id
      where e.campaign_id = ${campaignId} and e.query_id = any(${sql.param(queryIds)}::bigint[])
      order by e.query_id, e.created_at, e.id`),
  );
  for (const r of rows) {
    const view = { reason: r.reason, text: r.text, annotator: r.annotator, createdAt: new Date(r.created_at).toISOString() };
    const list = byQuery.get(r.query_id);
    if (list) list.push(view);
    else byQuery.set(r.query_id, [view]);
  }
  return byQuery;
}
