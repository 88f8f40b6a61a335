// Internal to submitJudgment: its two statements, as plain SQL sent as named prepared statements
// (postgres.js `prepare: true`), so neither drizzle nor PostgreSQL rebuilds them per judgment. Each
// runs on its own (autocommit): no transaction stays open while the app works, so no row lock is
// held across a round trip to it.
import "server-only";
import { preparedRows } from "@/db/cache/prepared";
import type { Db } from "@/db/client";
import type { FactLabel, JudgmentFlag, MemberSpan, SetMember, TaskKind } from "@/db/schema";
import type { JudgmentRow } from "../report/rows";
import { memberSlicesSql } from "../set-members.internal";

/** One statement, on its own: SQL text with $n parameters → rows. */
export type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

/** Statements of `db` run one by one, each committed by itself (prepared on PostgreSQL). */
export function autocommitQuery(db: Db): Query {
  return async <T>(text: string, params: unknown[]) => preparedRows<T>(db, text, params as (string | number | boolean | null)[]);
}

/** Statement 1 reads everything the checks before writing need (no lock: statement 2 checks the claim again under its lock). */
export interface ClaimRow {
  claim_id: number;
  owner: number;
  campaign_id: number;
  passage_id: number;
  /** Not ended (it may have expired). */
  unended: boolean;
  /** Not ended and not expired. */
  live: boolean;
  r: number;
  t: number;
  early_stop: boolean;
  gold_min_judgments: number;
  gold_accuracy_threshold: number;
  all_annotators: boolean;
  member: boolean;
  standing: "active" | "paused" | null;
  is_gold: boolean;
  expected_verdict: "sufficient" | "insufficient" | null;
  expected_start_paragraph_id: number | null;
  expected_start_character: number | null;
  expected_end_paragraph_id: number | null;
  expected_end_character: number | null;
  start_paragraph_id: number;
  end_paragraph_id: number;
  /** The passage's paragraphs (when asked for: a span to check; always for gold with an expected span: the span check). */
  slice: string[] | null;
  /** This annotator's judgment under the same idempotency key, if any (snake_case columns). */
  previous: StoredJudgmentJson | null;
  /** The span check's slack of sufficient gold (lib/campaign/quality/span-check.ts). */
  gold_span_slack: number;
  /** The passage's batch's task: what the verdict needs (task-verdicts.contract.ts). */
  task_kind: TaskKind;
  /** Fact-checking gold: the line's dataset label (its first answer), which a sufficient verdict's label must match. */
  expected_label: string | null;
  /** An evidence set's members (null: a single passage). */
  set_members: SetMember[] | null;
  /** A set's members' paragraphs, in member order (when $3 asks for them, and always for gold). */
  member_slices: string[][] | null;
  /** The batch asks for "part of the evidence" on single passages. */
  partial_evidence: boolean;
}

/** A stored judgment as statement 1 reads it (`row_to_json`: times as strings). */
export type StoredJudgmentJson = Omit<JudgmentRow, "id" | "passage_id" | "created_at"> & {
  request_hash: string;
  partial: boolean;
  member_spans: MemberSpan[] | null;
  created_at: string;
  comment: string | null;
  flags: JudgmentFlag[];
  label: FactLabel | null;
};

const JUDGMENT_JSON = `select verdict, unreadable, start_paragraph_id, start_character, end_paragraph_id, end_character,
  span_text, duration_ms, request_hash, created_at, comment, flags, label, partial, member_spans from judgments j where j.user_id = $2 and j.idempotency_key = $4`;

/** $1 handle, $2 user id, $3 whether to read the passage's paragraphs (and for gold with an expected span), $4 idempotency key. */
export const READ_CLAIM_SQL = `
select c.id::float8 as claim_id, c.user_id::float8 as owner, c.campaign_id::float8 as campaign_id, c.passage_id::float8 as passage_id,
  (c.ended_at is null) as unended, (c.ended_at is null and c.expires_at > clock_timestamp()) as live,
  cp.judgments_per_passage::int as r, cp.endorsement_threshold::int as t, cp.early_stop,
  cp.gold_min_judgments::int as gold_min_judgments, cp.gold_accuracy_threshold::float8 as gold_accuracy_threshold,
  cp.all_annotators, (m.user_id is not null) as member, s.status::text as standing,
  p.is_gold, p.expected_verdict::text as expected_verdict,
  p.expected_start_paragraph_id, p.expected_start_character, p.expected_end_paragraph_id, p.expected_end_character,
  p.start_paragraph_id, p.end_paragraph_id,
  case when $3::boolean or (p.is_gold and p.expected_start_paragraph_id is not null) then (select array_to_json(pg.paragraphs[p.start_paragraph_id + 1 : p.end_paragraph_id + 1])
    from pages pg where pg.wikipedia_id = p.wikipedia_id) end as slice,
  (select row_to_json(x) from (${JUDGMENT_JSON}) x) as previous,
  cp.gold_span_slack::float8 as gold_span_slack, b.task_kind,
  case when p.is_gold and b.task_kind = 'fact-checking' then (select q.answers[1] from queries q where q.id = p.query_id) end as expected_label,
  p.set_members, b.partial_evidence,
  ${memberSlicesSql("p", "$3::boolean or p.is_gold")} as member_slices
from claims c
join campaigns cp on cp.id = c.campaign_id
join passages p on p.id = c.passage_id
join batches b on b.id = p.batch_id
left join campaign_members m on m.campaign_id = c.campaign_id and m.user_id = $2::bigint
left join annotator_standings s on s.campaign_id = c.campaign_id and s.user_id = $2::bigint
where c.handle = $1::text`;

/** The judgment counts when fewer than R judgments count on the passage (it is the newest: created under the passage lock). */
const COUNTS = `p.judgment_count < $r`;
const NEW_JC = `least($r, p.judgment_count + 1)`;
const NEW_SC = `p.sufficient_count + (case when $verdict = 'sufficient' and ${COUNTS} then 1 else 0 end)`;
// The outcome rules are the SQL functions of db/sql/outcome-rules.sql (the same as lib/campaign/quality/outcome.ts);
// PostgreSQL inlines them, so calling them costs what the expression written in place would.
const DECIDES = `kps_closes_early($early, ${NEW_JC}, ${NEW_SC}, $r, $t)`;

/**
 * The time the server measured for this judgment, in ms: from handing out its task (the claim's
 * `created_at`) or, if later, from the annotator's previous judgment in the campaign (a task
 * prefetched while the previous one was on screen counts from that judgment), to receiving this
 * one; clamped to [0, $max_duration] (24 h). The previous judgment is the first row of a backward
 * scan of judgments_user_idx (user_id, campaign_id, created_at): one index entry read, however many
 * judgments the annotator has (`max()` may read them all when the planner's estimate is small).
 * This statement's own insert is not visible to the subquery. The client's `durationMs` is stored
 * beside it (`client_duration_ms`) as a hint that no rule reads.
 */
const SERVER_DURATION = `least(greatest(round(extract(epoch from (now_.at - greatest(held.created_at,
      (select pj.created_at from judgments pj where pj.user_id = $user and pj.campaign_id = p.campaign_id
       order by pj.created_at desc limit 1)))) * 1000), 0), $max_duration)::int`;

/**
 * Statement 2, the write, on its own (autocommit, so its row locks end with it): locks the claim
 * and requires it still ended or not as statement 1 read it (a pause, close or reaping that ended it
 * since, or a submission on the same claim that came first, makes `claim_same` false: the caller
 * reads again and retries); then locks the passage, checks it takes the judgment (batch launched,
 * not sealed by a close, not judged by this annotator, who is not paused, a slot for a claim that is
 * no longer live), moves its counters, stores the judgment, ends the claim and scores a gold
 * judgment. Claim before passage, the order every other statement that locks both takes. No
 * `created_at`: refused (the caller finds out why).
 */
const WRITE_TEMPLATE = `
with held as materialized (
  select c.id, c.created_at from claims c where c.id = $claim and (c.ended_at is null) = $unended
  for no key update of c
), p as (
  update passages p set
    judgment_count = ${NEW_JC},
    sufficient_count = ${NEW_SC},
    claim_count = p.claim_count - (case when $unended then 1 else 0 end),
    open_slots = case when ${DECIDES} then 0
      when $live or ($unended and not p.is_decided) then p.open_slots else p.open_slots - 1 end,
    is_decided = p.is_decided or ${DECIDES}
  from batches b
  where p.id = $passage and exists (select 1 from held) and p.sealed_judgment_count is null and b.id = p.batch_id and b.status = 'launched'
    and ($live or (case when $unended and not p.is_decided then p.open_slots + 1 else p.open_slots end) > 0)
    and not exists (select 1 from judgments j where j.passage_id = p.id and j.user_id = $user)
    -- Read again here: a pause that ended this claim while statement 1 waited for it is seen now.
    and not exists (select 1 from annotator_standings s where s.campaign_id = p.campaign_id and s.user_id = $user and s.status = 'paused')
  returning p.id, p.campaign_id, p.batch_id, p.judgment_count, p.sufficient_count, p.is_decided
), j as (
  -- Compared with the passage's outcome as this statement leaves it, as the passages trigger does
  -- for its judgments (it then finds nothing to change here); also when this one does not count.
  insert into judgments (passage_id, user_id, claim_id, campaign_id, batch_id, verdict, unreadable,
    start_paragraph_id, start_character, end_paragraph_id, end_character, span_text, duration_ms, idempotency_key, request_hash, created_at, agrees,
    comment, flags, client_duration_ms, label, page_level, partial, member_spans)
  select p.id, $user, $claim, p.campaign_id, p.batch_id, $verdict, $unreadable,
    $sp, $sc, $ep, $ec, $text, ${SERVER_DURATION}, $key, $hash, now_.at,
    kps_agrees_with_outcome($verdict, kps_is_finished(p.is_decided, p.judgment_count, $r), kps_is_endorsed(p.sufficient_count, $t)),
    $comment, $flags, $client_duration, $label, $page, $partial, $member_spans
  from p cross join held cross join (select clock_timestamp() as at) now_
  returning created_at, duration_ms
), e as (
  update claims c set ended_at = now() from p where c.id = $claim
), g as (
  -- Gold: both kinds count in gold_judged/gold_correct; negative gold (expected insufficient, decoys
  -- included) also in negative_gold_judged/negative_gold_correct (the gold rule weighs each kind apart).
  insert into annotator_standings as s (campaign_id, user_id, gold_judged, gold_correct, negative_gold_judged, negative_gold_correct)
  select p.campaign_id, $user, 1, case when $correct then 1 else 0 end,
    case when x.expected_verdict = 'insufficient' then 1 else 0 end,
    case when x.expected_verdict = 'insufficient' and $correct then 1 else 0 end
  from p join passages x on x.id = p.id where $gold
  on conflict (campaign_id, user_id) do update set
    gold_judged = s.gold_judged + 1, gold_correct = s.gold_correct + excluded.gold_correct,
    negative_gold_judged = s.negative_gold_judged + excluded.negative_gold_judged,
    negative_gold_correct = s.negative_gold_correct + excluded.negative_gold_correct, updated_at = now()
  returning s.status::text as status, s.gold_judged::int as gold_judged, s.gold_correct::int as gold_correct,
    s.negative_gold_judged::int as negative_gold_judged, s.negative_gold_correct::int as negative_gold_correct
)
select (select created_at from j) as created_at, exists (select 1 from held) as claim_same, g.status, g.gold_judged, g.gold_correct,
  g.negative_gold_judged, g.negative_gold_correct, (select duration_ms from j) as duration_ms
from (select 1) one left join g on true`;

const PARAMS: Record<string, string> = {
  $claim: "$1::bigint",
  $user: "$2::bigint",
  $passage: "$3::bigint",
  $live: "$4::boolean",
  $unended: "$5::boolean",
  $r: "$6::int",
  $t: "$7::int",
  $early: "$8::boolean",
  $verdict: "$9::verdict",
  $unreadable: "$10::boolean",
  $sp: "$11::int",
  $sc: "$12::int",
  $ep: "$13::int",
  $ec: "$14::int",
  $text: "$15::text",
  $max_duration: "$16::int",
  $key: "$17::text",
  $hash: "$18::text",
  $gold: "$19::boolean",
  $correct: "$20::boolean",
  $comment: "$21::text",
  $flags: "$22::text[]",
  $client_duration: "$23::int",
  $label: "$24::text",
  $page: "$25::boolean",
  $partial: "$26::boolean",
  $member_spans: "$27::jsonb",
};

export const WRITE_JUDGMENT_SQL = WRITE_TEMPLATE.replace(/\$[a-z_]+\b/g, (name) => {
  const p = PARAMS[name];
  if (!p) throw new Error(`judgment statement: no parameter ${name}`);
  return p;
});

export interface WriteResult {
  /** Null: the passage took no judgment. */
  created_at: Date | string | null;
  /** The claim was as statement 1 read it (else nothing was written: read again). */
  claim_same: boolean;
  status: "active" | "paused" | null;
  gold_judged: number | null;
  gold_correct: number | null;
  negative_gold_judged: number | null;
  negative_gold_correct: number | null;
  /** The time the server measured (SERVER_DURATION); null when nothing was written. */
  duration_ms: number | null;
}
