// The judgments export as it was before its lines were built in SQL and read with COPY
// (lib/campaign/report/export-judgments.ts up to issue 13): the rows through drizzle, each line
// written in JavaScript. Kept as the reference the new export must equal byte for byte; issue 14's
// fields (revision, revised_at, comment, flags, versions) and issue 26's `client_duration_ms` (after
// `duration_ms`, in the line and in each version) and fact checking's `label` (after `verdict`) are
// written here the same way, and so are the evidence sets' `members` (after `end_paragraph_id`),
// `partial` and `member_spans` (after `span`, in the line and in each version).
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import type { MemberSpan, SetMember } from "@/db/schema";
import type { JudgmentRow } from "@/lib/campaign/report/rows";

const json = JSON.stringify;

/** The export's columns before `counted` (the bench's psql baseline selects them too). */
export const JUDGMENT_COLUMNS = `q.kilt_id as query_id, j.passage_id, p.wikipedia_id,
  p.start_paragraph_id as passage_start, p.end_paragraph_id as passage_end,
  u.pseudonym as annotator, j.verdict, j.label, j.unreadable,
  j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character, j.span_text,
  j.partial, j.member_spans, p.set_members, p.is_gold`;

/** What a judgment row joins to for those columns and `counted`. */
export const JUDGMENT_JOINS = `from judgments j
  join passages p on p.id = j.passage_id
  join queries q on q.id = p.query_id
  join users u on u.id = j.user_id
  join campaigns c on c.id = j.campaign_id
  left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id`;

interface SetColumns {
  partial: boolean;
  member_spans: MemberSpan[] | null;
}

interface ExportedJudgmentRow extends JudgmentRow, SetColumns {
  set_members: SetMember[] | null;
  label: string | null;
  client_duration_ms: number | null;
  query_id: string;
  wikipedia_id: string;
  passage_start: number;
  passage_end: number;
  annotator: string;
  is_gold: boolean;
  counted: boolean;
  batch_id: number;
  revision: number;
  revised_at: string | Date | null;
  comment: string | null;
  flags: string[];
  versions: VersionRow[] | null;
}

interface VersionRow extends Omit<JudgmentRow, "id" | "passage_id" | "created_at">, SetColumns {
  label: string | null;
  client_duration_ms: number | null;
  revision: number;
  comment: string | null;
  flags: string[];
  submitted_at: string;
  replaced_at: string;
}

const iso = (t: string | Date | null) => (t === null ? "null" : `"${new Date(t).toISOString()}"`);

function spanOf(r: Omit<JudgmentRow, "id" | "passage_id" | "created_at">): string {
  return r.span_text === null
    ? "null"
    : `{"start_paragraph_id":${r.start_paragraph_id},"start_character":${r.start_character},"end_paragraph_id":${r.end_paragraph_id},"end_character":${r.end_character},"text":${json(r.span_text)}}`;
}

/** A set judgment's highlight per member, as the span is written; `null` for others. */
function memberSpansOf(r: SetColumns): string {
  if (!r.member_spans) return "null";
  const spans = r.member_spans.map(
    (m) =>
      `{"start_paragraph_id":${m.startParagraphId},"start_character":${m.startCharacter},"end_paragraph_id":${m.endParagraphId},"end_character":${m.endCharacter},"text":${json(m.text)}}`,
  );
  return `[${spans.join(",")}]`;
}

function membersOf(members: SetMember[] | null): string {
  if (!members) return "null";
  return json(
    members.map((m) => ({ wikipedia_id: m.wikipediaId, start_paragraph_id: m.startParagraphId, end_paragraph_id: m.endParagraphId })),
  );
}

/** Issue 14's fields: the revision, notes and earlier versions. */
function revisionsOf(r: ExportedJudgmentRow): string {
  const versions = (r.versions ?? []).map(
    (v) =>
      `{"revision":${v.revision},"verdict":${json(v.verdict)},"label":${json(v.label ?? null)},"unreadable":${v.unreadable},"span":${spanOf(v)},"partial":${v.partial},"member_spans":${memberSpansOf(v)},"comment":${json(v.comment)},` +
      `"flags":${json(v.flags)},"duration_ms":${v.duration_ms},"client_duration_ms":${json(v.client_duration_ms ?? null)},"submitted_at":${iso(v.submitted_at)},"replaced_at":${iso(v.replaced_at)}}`,
  );
  return `,"revision":${r.revision},"revised_at":${iso(r.revised_at)},"comment":${json(r.comment)},"flags":${json(r.flags)},"versions":[${versions.join(",")}]`;
}

/** Every judgment line of a campaign (or one batch of it), as the previous export wrote them. */
export async function referenceJudgmentLines(db: Db, campaignId: number, batchId?: number): Promise<string> {
  const rows = rowsOf<ExportedJudgmentRow>(
    await db.execute(sql`
      select j.id, ${sql.raw(JUDGMENT_COLUMNS)},
             coalesce(j.counted_at_close, coalesce(s.status, 'active') = 'active' and (
               select count(*) from judgments j2
               left join annotator_standings s2 on s2.campaign_id = j2.campaign_id and s2.user_id = j2.user_id
               where j2.passage_id = j.passage_id and coalesce(s2.status, 'active') = 'active'
                 and (j2.created_at, j2.id) < (j.created_at, j.id)
             ) < c.judgments_per_passage) as counted,
             j.batch_id, j.duration_ms, j.client_duration_ms, j.created_at, j.revision, j.revised_at, j.comment, j.flags,
             (select json_agg(v order by v.revision) from judgment_versions v where v.judgment_id = j.id) as versions
      ${sql.raw(JUDGMENT_JOINS)}
      where j.campaign_id = ${campaignId} ${batchId === undefined ? sql`` : sql`and j.batch_id = ${batchId}`}
      order by j.id`),
  );
  return rows
    .map((r) => {
      const span = spanOf(r);
      return (
        `{"query_id":${json(r.query_id)},"passage_id":${Number(r.passage_id)},"wikipedia_id":${json(r.wikipedia_id)},` +
        `"start_paragraph_id":${r.passage_start},"end_paragraph_id":${r.passage_end},"members":${membersOf(r.set_members)},"annotator":${json(r.annotator)},` +
        `"verdict":${json(r.verdict)},"label":${json(r.label ?? null)},"unreadable":${r.unreadable},"span":${span},"partial":${r.partial},"member_spans":${memberSpansOf(r)},"is_gold":${r.is_gold},"counted":${r.counted},` +
        `"batch_id":${Number(r.batch_id)},"duration_ms":${r.duration_ms},"client_duration_ms":${json(r.client_duration_ms ?? null)},"created_at":"${new Date(r.created_at).toISOString()}"${revisionsOf(r)}}\n`
      );
    })
    .join("");
}
