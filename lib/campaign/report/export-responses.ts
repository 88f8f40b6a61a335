// Internal to exportJudgments: the lines of the judgments export after the judgments — each
// explanation and each proposal (issue 16), for audit. Built by the database and read with COPY,
// as the judgment lines are; a campaign with neither gets no line more.
import "server-only";
import { sql } from "drizzle-orm";
import { copyLines } from "@/db/copy-lines";
import { rowsOf, type Db } from "@/db/client";
import { MEMBERS_JSON, memberSpansJson } from "./set-lines";

/** Explanations or proposals per page (a page is a range of questions; one question has at most one of each per annotator). */
const PAGE_ROWS = 10_000;

function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`responseLinesSelect: not an integer: ${n}`);
  return String(n);
}

const createdAt = (t: string) => `'"' || to_char(${t}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;

type Kind = "explanations" | "proposals";

/**
 * One JSONL line per explanation (`{"query_id","annotator","explanation":{"reason","text"},"batch_id","created_at"}`)
 * or proposal (`{"query_id","passage_id","wikipedia_id","start_paragraph_id","end_paragraph_id","members","annotator",
 * "proposal":{"span":…,"member_spans":…},"batch_id","created_at"}`; a proposal of a set: its `members` and a
 * highlight per member, else null) of the campaign's questions with ids in
 * (`after`, `upTo`], by question then id. SQL text with the values inline, for COPY.
 */
export function responseLinesSelect(kind: Kind, campaignId: number, page: { after: number; upTo: number; batchId?: number }): string {
  const batch = page.batchId === undefined ? "" : `and q.batch_id = ${int(page.batchId)}`;
  const line =
    kind === "explanations"
      ? `'{"query_id":' || to_json(q.kilt_id)::text || ',"annotator":' || to_json(u.pseudonym)::text
        || ',"explanation":{"reason":' || to_json(r.reason)::text || ',"text":' || to_json(r.text)::text || '}'`
      : `'{"query_id":' || to_json(q.kilt_id)::text || ',"passage_id":' || r.passage_id::text
        || ',"wikipedia_id":' || to_json(p.wikipedia_id)::text
        || ',"start_paragraph_id":' || p.start_paragraph_id::text || ',"end_paragraph_id":' || p.end_paragraph_id::text
        || ',"members":' || ${MEMBERS_JSON}
        || ',"annotator":' || to_json(u.pseudonym)::text
        || ',"proposal":{"span":{"start_paragraph_id":' || r.start_paragraph_id::text || ',"start_character":' || r.start_character::text
        || ',"end_paragraph_id":' || r.end_paragraph_id::text || ',"end_character":' || r.end_character::text
        || ',"text":' || to_json(r.span_text)::text || '},"member_spans":' || ${memberSpansJson("r")} || '}'`;
  return `
    select ${line} || ',"batch_id":' || q.batch_id::text || ',"created_at":' || ${createdAt("r")} || '}' as line
    from ${kind} r
    join queries q on q.id = r.query_id
    join users u on u.id = r.user_id
    ${kind === "proposals" ? "join passages p on p.id = r.passage_id" : ""}
    where r.campaign_id = ${int(campaignId)} and r.query_id > ${int(page.after)} and r.query_id <= ${int(page.upTo)} ${batch}
    order by r.query_id, r.id`;
}

/** The last question of the page after `after`: the next PAGE_ROWS rows by question (explanations_campaign_idx, proposals_query_user_idx). */
async function pageEnd(db: Db, kind: Kind, campaignId: number, after: number): Promise<{ upTo: number; full: boolean } | null> {
  const table = sql.raw(kind);
  const [r] = rowsOf<{ up_to: number | null; n: number }>(
    await db.execute(sql`select max(query_id)::float8 as up_to, count(*)::int as n from (
      select query_id from ${table} where campaign_id = ${campaignId} and query_id > ${after} order by query_id limit ${PAGE_ROWS}) page`),
  );
  return r && r.up_to !== null ? { upTo: r.up_to, full: r.n === PAGE_ROWS } : null;
}

/** The explanation lines, then the proposal lines, of a campaign (or of one batch's questions), a page at a time. */
export async function* responseLines(db: Db, campaignId: number, batchId: number | undefined): AsyncGenerator<Buffer> {
  for (const kind of ["explanations", "proposals"] as const) {
    for (let after = 0; ;) {
      const end = await pageEnd(db, kind, campaignId, after);
      if (!end) break;
      yield* await copyLines(db, responseLinesSelect(kind, campaignId, { after, upTo: end.upTo, batchId }));
      if (!end.full) break;
      after = end.upTo;
    }
  }
}
