import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { pageSize } from "@/lib/list-options.contract";
import { rowsOf, type Db } from "@/db/client";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { DURATION_BUCKET_MS } from "@/lib/metrics/durations";
import { getCampaign, type CampaignView } from "../campaigns";
import { annotatorSummaries } from "../tallies.internal";
import { isGoldCorrect, getStanding } from "../quality/standings";
import type { FactLabel, TaskKind } from "@/lib/kilt/task-kind";
import type {
  AnnotatorRow,
  WarningThresholds,
  AnnotatorWarning,
  AnnotatorDetail,
  AnnotatorJudgment,
  FlaggedAnnotator,
} from "./annotators.contract";
import type { MemberSpan, SetMember } from "@/db/schema";
import type { ClaimRow } from "../annotate/judgment-statements";
import { goldMembersOf } from "../annotate/judgment-sets";
import { memberRowsSql, type MemberRow } from "../set-members.internal";
import { spanOf, type JudgmentRow } from "./rows";
import { memberViewsOf } from "./set-views";

// A coordinator's view of one annotator in one campaign: their figures and warnings, speed histogram,
// agreement over time, and their judgments page by page with gold results beside them.

/**
 * Why an annotator is out of line, if they are: more than `warnFastShare` of their judgments under
 * 2 s once they have `warnMinJudgments` judgments; agreement with the majority below
 * `warnMinAgreement` once `warnMinJudgments` of their judgments were compared (passages finished).
 * The dashboard's list (`listAnnotatorWarnings`) applies the same rule in SQL.
 */
export function annotatorWarnings(
  a: Pick<AnnotatorRow, "judgments" | "shareUnder2s" | "compared" | "agreement">,
  t: WarningThresholds,
): AnnotatorWarning[] {
  const out: AnnotatorWarning[] = [];
  if (a.judgments >= t.warnMinJudgments && a.shareUnder2s !== null && a.shareUnder2s > t.warnFastShare)
    out.push({ kind: "fast", shareUnder2s: a.shareUnder2s });
  if (a.compared >= t.warnMinJudgments && a.agreement !== null && a.agreement < t.warnMinAgreement)
    out.push({ kind: "agreement", agreement: a.agreement });
  return out;
}

/** The speed histogram's bins, in seconds: [0, 1), [1, 2), … and 120 s or more (the tallies' open last bucket). */
export const SPEED_BIN_EDGES = [0, 1, 2, 5, 10, 20, 30, 60, 120] as const;

/** Thresholds of a campaign view. */
const thresholdsOf = (c: CampaignView): WarningThresholds => ({
  warnFastShare: c.warnFastShare,
  warnMinAgreement: c.warnMinAgreement,
  warnMinJudgments: c.warnMinJudgments,
});

/** The annotator `userId` in a campaign (coordinators); not found for an unknown campaign or a user who is not an annotator. */
export async function getAnnotatorDetail(db: Db, actor: Actor, campaignId: number, userId: number): Promise<AnnotatorDetail> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  await requireAnnotatorUser(db, userId);
  const [annotator, summaries, days] = await Promise.all([
    getStanding(db, actor, campaignId, userId),
    annotatorSummaries(db, campaignId, userId),
    db.execute(sql`
      select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*)::int as judgments,
             count(agrees)::int as compared, (count(*) filter (where agrees))::int as agreed
      from judgments where user_id = ${userId} and campaign_id = ${campaignId}
      group by 1 order by 1`),
  ]);
  const buckets = summaries[0]?.buckets ?? [];
  const speed = SPEED_BIN_EDGES.map((from, i) => {
    const to = SPEED_BIN_EDGES[i + 1] ?? null;
    const judgments = buckets
      .filter((b) => (b.bucket * DURATION_BUCKET_MS) / 1000 >= from && (to === null || (b.bucket * DURATION_BUCKET_MS) / 1000 < to))
      .reduce((s, b) => s + b.count, 0);
    return { fromSeconds: from, toSeconds: to, judgments };
  });
  const thresholds = thresholdsOf(campaign);
  return {
    campaign: { id: campaign.id, name: campaign.name, ...thresholds },
    annotator,
    warnings: annotatorWarnings(annotator, thresholds),
    speed,
    agreementByDay: rowsOf<{ day: string; judgments: number; compared: number; agreed: number }>(days),
  };
}

async function requireAnnotatorUser(db: Db, userId: number): Promise<void> {
  const [u] = rowsOf<{ role: string }>(await db.execute(sql`select role from users where id = ${userId}`));
  if (u?.role !== "annotator" && u?.role !== "crowd") throw new AppError("not_found", `No annotator with id ${userId}.`);
}

/** `GET /api/campaigns/:id/annotators/:userId/judgments?gold=1&after=&limit=` — newest first, 20 to a page. */
export const annotatorJudgmentsQuerySchema = z.object({
  gold: z.enum(["0", "1"], "must be 0 or 1").optional(),
  after: z.coerce.number().int().positive("must be a judgment id").optional(),
  limit: pageSize(100, 20),
});
export type AnnotatorJudgmentsQuery = z.infer<typeof annotatorJudgmentsQuerySchema>;

/** The gold columns of a passage, as the judgment's checks read them. */
type GoldColumns = Pick<
  ClaimRow,
  | "is_gold"
  | "expected_verdict"
  | "expected_start_paragraph_id"
  | "expected_start_character"
  | "expected_end_paragraph_id"
  | "expected_end_character"
>;

interface JudgmentPageRow extends JudgmentRow, GoldColumns {
  agrees: boolean | null;
  query_id: string | number;
  kilt_id: string;
  input: string;
  wikipedia_id: string;
  title: string;
  start: number;
  paragraphs: string[];
  task_kind: TaskKind;
  answers: string[];
  label: FactLabel | null;
  partial: boolean;
  member_spans: MemberSpan[] | null;
  set_members: SetMember[] | null;
  members: MemberRow[] | null;
}

/** One page of the annotator's judgments in a campaign, newest first (keyset on the judgment id), or their gold judgments only. */
export async function listAnnotatorJudgments(
  db: Db,
  actor: Actor,
  campaignId: number,
  userId: number,
  query: AnnotatorJudgmentsQuery,
): Promise<{ rows: AnnotatorJudgment[]; next: number | null }> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  await requireAnnotatorUser(db, userId);
  const rows = rowsOf<JudgmentPageRow>(
    await db.execute(sql`
      select j.id, j.passage_id, j.verdict, j.unreadable, j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character,
             j.span_text, j.duration_ms, j.created_at, j.agrees, j.label, b.task_kind, to_json(q.answers) as answers,
             q.id as query_id, q.kilt_id, q.input, p.wikipedia_id, pg.title, p.start_paragraph_id as start,
             array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1]) as paragraphs,
             p.is_gold, p.expected_verdict, p.expected_start_paragraph_id, p.expected_start_character, p.expected_end_paragraph_id, p.expected_end_character,
             j.partial, j.member_spans, p.set_members, ${sql.raw(memberRowsSql("p"))} as members
      from judgments j
      join passages p on p.id = j.passage_id
      join queries q on q.id = p.query_id
      join batches b on b.id = p.batch_id
      join pages pg on pg.wikipedia_id = p.wikipedia_id
      where j.user_id = ${userId} and j.campaign_id = ${campaignId}
        ${query.gold === "1" ? sql`and p.is_gold` : sql``}
        ${query.after === undefined ? sql`` : sql`and j.id < ${query.after}`}
      order by j.id desc
      limit ${query.limit + 1}`),
  );
  const page = rows.slice(0, query.limit).map((r) => judgmentOfRow(r, campaign.goldSpanSlack));
  return { rows: page, next: rows.length > query.limit ? page[page.length - 1]!.id : null };
}

function judgmentOfRow(r: JudgmentPageRow, slack: number): AnnotatorJudgment {
  const span = spanOf(r);
  const expectedSpan = spanOf({
    start_paragraph_id: r.expected_start_paragraph_id,
    start_character: r.expected_start_character,
    end_paragraph_id: r.expected_end_paragraph_id,
    end_character: r.expected_end_character,
  });
  return {
    id: Number(r.id),
    createdAt: new Date(r.created_at).toISOString(),
    verdict: r.verdict,
    unreadable: r.unreadable,
    span,
    spanText: r.span_text,
    partial: r.partial,
    memberSpans: r.member_spans,
    durationMs: r.duration_ms,
    agrees: r.agrees,
    query: { id: Number(r.query_id), kiltId: r.kilt_id, input: r.input },
    passage: {
      id: Number(r.passage_id),
      wikipediaId: r.wikipedia_id,
      title: r.title,
      paragraphs: r.paragraphs.map((text, i) => ({ id: r.start + i, text })),
      members: memberViewsOf(r.members, r.set_members),
    },
    gold:
      r.is_gold && r.expected_verdict
        ? {
            expectedVerdict: r.expected_verdict,
            expectedSpan,
            correct: isGoldCorrect(
              {
                startParagraphId: r.start,
                paragraphs: r.paragraphs,
                expectedVerdict: r.expected_verdict,
                expectedStartParagraphId: r.expected_start_paragraph_id,
                expectedStartCharacter: r.expected_start_character,
                expectedEndParagraphId: r.expected_end_paragraph_id,
                expectedEndCharacter: r.expected_end_character,
                taskKind: r.task_kind,
                expectedLabel: r.answers[0] ?? null,
                members: goldMembersOf(r.set_members, r.members?.map((m) => m.paragraphs) ?? null),
              },
              { verdict: r.partial ? "partial" : r.verdict, span, spans: r.member_spans, label: r.label },
              slack,
            ),
          }
        : null,
  };
}

/**
 * The campaign's annotators out of line by `annotatorWarnings`' rule, worst agreement first, at most
 * `limit` (the list says how many more): computed in SQL from the tallies, a few rows per annotator.
 */
export async function listAnnotatorWarnings(
  db: Db,
  actor: Actor,
  campaignId: number,
  limit = 20,
): Promise<{ thresholds: WarningThresholds; flagged: FlaggedAnnotator[]; total: number }> {
  requireCoordinator(actor);
  const campaign = await getCampaign(db, actor, campaignId);
  const t = thresholdsOf(campaign);
  const under2s = 2_000 / DURATION_BUCKET_MS;
  const rows = rowsOf<{
    user_id: string | number;
    username: string;
    judgments: number;
    share: number | null;
    compared: number;
    agreement: number | null;
    total: number;
  }>(
    await db.execute(sql`
      with per_user as (
        select user_id, sum(judgments)::int as judgments, sum(compared)::int as compared, sum(agreed)::int as agreed,
               (sum(judgments) filter (where duration_bucket < ${under2s}))::int as fast
        from (select user_id, duration_bucket, judgments, compared, agreed from annotator_tallies where campaign_id = ${campaignId}
              union all select user_id, duration_bucket, judgments, compared, agreed from annotator_tally_deltas where campaign_id = ${campaignId}) b
        group by user_id
      ), figures as (
        select user_id, judgments, compared,
               case when judgments > 0 then coalesce(fast, 0)::float8 / judgments end as share,
               case when compared > 0 then agreed::float8 / compared end as agreement
        from per_user
      ), flagged as (
        select * from figures
        where (judgments >= ${t.warnMinJudgments} and share > ${t.warnFastShare}::float8)
           or (compared >= ${t.warnMinJudgments} and agreement < ${t.warnMinAgreement}::float8)
      )
      select f.user_id, u.username, f.judgments, f.share, f.compared, f.agreement, (select count(*)::int from flagged) as total
      from flagged f join users u on u.id = f.user_id
      order by f.agreement asc nulls last, f.share desc, f.user_id
      limit ${limit}`),
  );
  return {
    thresholds: t,
    total: rows[0]?.total ?? 0,
    flagged: rows.map((r) => {
      const figures = {
        judgments: r.judgments,
        compared: r.compared,
        shareUnder2s: r.share === null ? null : Number(r.share),
        agreement: r.agreement === null ? null : Number(r.agreement),
      };
      return { userId: Number(r.user_id), username: r.username, judgments: r.judgments, warnings: annotatorWarnings(figures, t) };
    }),
  };
}
