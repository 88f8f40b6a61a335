import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Db } from "@/db/client";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";
import { claimHandleSchema } from "./assignment";
import { spanWithTextOf, type JudgmentVersionRow } from "../report/rows";
import { revisionRefusal } from "./revise-judgment";
import { likePattern, searchText } from "@/lib/list-options.contract";
import type { MemberSpan } from "@/db/schema";
import { memberRowsSql, passageOf, type MemberRow } from "../set-members.internal";
import { verdictName } from "./judgment-sets";
import { MY_JUDGMENT_VERDICTS, type MyJudgment, type MyJudgmentVerdict } from "./judgments.contract";

/** The history's filters, as the page's address and the API's query string carry them. */
export const myJudgmentsFilterSchema = z.object({
  verdict: z.enum(MY_JUDGMENT_VERDICTS, { error: `must be one of ${MY_JUDGMENT_VERDICTS.join(", ")}` }).optional(),
  q: searchText,
});

/**
 * `GET /api/campaigns/:id/my-judgments?verdict=&q=&after=&limit=` — `verdict` and `q` (a part of the
 * question) filter; `after` the claim handle that ended the page before.
 */
export const myJudgmentsQuerySchema = myJudgmentsFilterSchema.extend({
  after: claimHandleSchema.optional(),
  limit: z.coerce
    .number("must be a number")
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(50, "must be at most 50")
    .default(20),
});

export type MyJudgmentsQuery = z.infer<typeof myJudgmentsQuerySchema>;

/** The verdict filter's condition on a judgment `j`. */
const VERDICT_FILTER: Record<MyJudgmentVerdict, SQL> = {
  sufficient: sql`and j.verdict = 'sufficient'`,
  insufficient: sql`and j.verdict = 'insufficient' and not j.unreadable and not j.partial`,
  partial: sql`and j.partial`,
  unreadable: sql`and j.unreadable`,
};

interface Row extends JudgmentVersionRow {
  handle: string;
  kilt_id: string;
  input: string;
  title: string;
  start: number;
  paragraphs: string[];
  header_above: string | null;
  created_at: string;
  revised_at: string | null;
  r: number;
  paused: boolean;
  batch_status: string;
  sealed: boolean;
  is_decided: boolean;
  judgment_count: number;
  proposed: boolean;
  task_kind: TaskKind;
  label: FactLabel | null;
  partial: boolean;
  member_spans: MemberSpan[] | null;
  members: MemberRow[] | null;
  wikipedia_id: string;
}

function myJudgmentOf(r: Row): MyJudgment {
  const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
  const shown = ({ title, paragraphs }: { title: string; paragraphs: MyJudgment["passage"]["paragraphs"] }) => ({ title, paragraphs });
  const members = r.members?.map((m) => shown(passageOf(m)));
  return {
    claim: r.handle,
    query: { id: r.kilt_id, input: r.input, kind: r.task_kind },
    passage: members?.[0] ?? shown(passageOf(r)),
    ...(members ? { members } : {}),
    verdict: verdictName(r.verdict, r.partial),
    label: r.label ?? null,
    unreadable: r.unreadable,
    span: r.member_spans ? null : spanWithTextOf(r),
    ...(r.member_spans ? { spans: r.member_spans.map((m) => ({ ...m })) } : {}),
    comment: r.comment,
    flags: r.flags,
    revision: r.revision,
    submittedAt: new Date(r.created_at).toISOString(),
    revisedAt: iso(r.revised_at),
    locked: revisionRefusal(r)?.message ?? null,
  };
}

/**
 * The caller's own judgments in a campaign, newest first, a page at a time (keyset on the time they
 * were first submitted; `after` a claim handle, so no id is sent), those of one verdict or whose
 * question holds `q` when the query says so. Annotators of the campaign only;
 * a paused annotator still sees them (locked).
 */
export async function listMyJudgments(
  db: Db,
  actor: Actor,
  campaignId: number,
  query: MyJudgmentsQuery,
): Promise<{ rows: MyJudgment[]; next: string | null; campaignName: string }> {
  const user = requireUser(actor);
  if (user.role !== "annotator") throw new AppError("forbidden", "Only annotators have judgments of their own.");
  const [access] = rowsOf<{ ok: boolean; name: string }>(
    await db.execute(sql`select c.name, (c.all_annotators or exists (select 1 from campaign_members m where m.campaign_id = c.id and m.user_id = ${user.id})) as ok
      from campaigns c where c.id = ${campaignId}`),
  );
  if (!access?.ok) throw new AppError("not_found", `No campaign with id ${campaignId} for you.`);
  const after =
    query.after === undefined
      ? sql``
      : sql`and (j.created_at, j.id) < (select j2.created_at, j2.id from claims c2 join judgments j2 on j2.claim_id = c2.id
        where c2.handle = ${query.after} and j2.user_id = ${user.id} and j2.campaign_id = ${campaignId})`;
  const filter = sql`${query.verdict ? VERDICT_FILTER[query.verdict] : sql``} ${query.q ? sql`and q.input ilike ${likePattern(query.q)}` : sql``}`;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select c.handle, q.kilt_id, q.input, pg.wikipedia_id, pg.title, p.start_paragraph_id as start, ${sql.raw(memberRowsSql("p"))} as members,
        array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
        (select e from unnest(pg.paragraphs[2 : p.start_paragraph_id]) with ordinality as h(e, i)
          where e like 'Section::::%' order by i desc limit 1) as header_above,
        j.verdict::text as verdict, j.unreadable, j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character, j.span_text,
        j.comment, j.flags, j.revision, j.created_at, j.revised_at, j.label, j.partial, j.member_spans, b.task_kind,
        cp.judgments_per_passage::int as r, coalesce(s.status = 'paused', false) as paused, b.status::text as batch_status,
        p.sealed_judgment_count is not null as sealed, p.is_decided, p.judgment_count::int as judgment_count,
        exists (select 1 from proposals pr where pr.passage_id = j.passage_id and pr.user_id = j.user_id) as proposed
      from judgments j
      join claims c on c.id = j.claim_id
      join passages p on p.id = j.passage_id
      join queries q on q.id = p.query_id
      join pages pg on pg.wikipedia_id = p.wikipedia_id
      join batches b on b.id = p.batch_id
      join campaigns cp on cp.id = j.campaign_id
      left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id
      where j.user_id = ${user.id} and j.campaign_id = ${campaignId} ${filter} ${after}
      order by j.created_at desc, j.id desc
      limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit).map(myJudgmentOf);
  return { rows: page, next: rows.length > query.limit ? page[page.length - 1]!.claim : null, campaignName: access.name };
}
