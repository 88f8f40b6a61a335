import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { ExplanationReason, PassageOrigin } from "@/db/schema";

/**
 * How the coordinators' views (the question view, the export report) name an annotator, with `u` the
 * users row: the username of an annotator account; a crowd worker's pseudonym, never their account
 * name or platform id. The exported files keep pseudonyms for everyone.
 */
const coordinatorName = sql`case when u.role = 'crowd' then u.pseudonym else u.username end`;

/** An annotator's explanation of why no passage answers a question, as the coordinators' views show it (`coordinatorName`). */
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
 * The proposers of some passages as coordinators see them (`coordinatorName`), by the pseudonym their
 * origins hold; one indexed look-up (users_pseudonym_key) for the given pseudonyms only.
 */
export async function proposerNamesOf(db: Db, pseudonyms: string[]): Promise<Map<string, string>> {
  if (!pseudonyms.length) return new Map();
  const rows = rowsOf<{ pseudonym: string; name: string }>(
    await db.execute(sql`select u.pseudonym, ${coordinatorName} as name from users u
      where u.pseudonym = any(${sql.param([...new Set(pseudonyms)])}::text[])`),
  );
  return new Map(rows.map((r) => [r.pseudonym, r.name]));
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
      select e.query_id::float8 as query_id, e.reason, e.text, ${coordinatorName} as annotator, e.created_at
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
