// The invariants of annotation, checked in the database after the run (on either driver).
export type Query = (text: string) => Promise<Record<string, unknown>[]>;

export interface InvariantReport {
  ok: boolean;
  lines: string[];
  judgments: number;
}

/** KILT offsets count code points, end exclusive; an independent slice (not the app's). */
function sliceByCodePoints(paragraphs: string[], sp: number, sc: number, ep: number, ec: number): string | undefined {
  if (sp > ep || sp < 0 || ep >= paragraphs.length) return undefined;
  const first = [...paragraphs[sp]!];
  const last = [...paragraphs[ep]!];
  if (sc > first.length || ec > last.length) return undefined;
  if (sp === ep) return first.slice(sc, ec).join("");
  return first.slice(sc).join("") + paragraphs.slice(sp + 1, ep).join("") + last.slice(0, ec).join("");
}

function sample(rows: Record<string, unknown>[], n = 3): string {
  return rows
    .slice(0, n)
    .map((r) => JSON.stringify(r))
    .join("; ");
}

export async function checkInvariants(
  query: Query,
  campaignId: number,
  expectedJudgments: number,
  spanSample = 1000,
): Promise<InvariantReport> {
  const lines: string[] = [];
  let ok = true;
  const check = (name: string, violations: Record<string, unknown>[], detail = "") => {
    if (violations.length) {
      ok = false;
      lines.push(`VIOLATED ${name}: ${violations.length} rows, e.g. ${sample(violations)}`);
    } else lines.push(`OK  ${name}${detail}`);
  };
  // Judgments count while their annotator is in good standing (a paused annotator's stop counting
  // and their slots reopen; lib/campaign/standings.ts), the first R of them per passage.
  const counts = `
    with j as (select j.passage_id, count(*)::int as n from judgments j
               left join annotator_standings s on s.campaign_id = j.campaign_id and s.user_id = j.user_id
               where coalesce(s.status, 'active') = 'active' group by j.passage_id),
         c as (select passage_id, count(*)::int as n from claims where ended_at is null group by passage_id)
    select p.id, k.judgments_per_passage as r, coalesce(j.n, 0) as judgments, coalesce(c.n, 0) as live_claims,
           p.judgment_count, p.claim_count, p.open_slots, p.is_decided
    from passages p join campaigns k on k.id = p.campaign_id
    left join j on j.passage_id = p.id left join c on c.passage_id = p.id
    where p.campaign_id = ${Number(campaignId)}`;

  const [totals] = await query(`
    select (select count(*)::int from judgments where campaign_id = ${Number(campaignId)}) as judgments,
           (select count(*)::int from judgments where campaign_id = ${Number(campaignId)} and verdict = 'sufficient') as sufficient,
           (select count(*)::int from claims where campaign_id = ${Number(campaignId)} and ended_at is null) as live_claims,
           (select count(*)::int from passages where campaign_id = ${Number(campaignId)} and judgment_count > 0) as touched,
           (select count(*)::int from passages where campaign_id = ${Number(campaignId)} and open_slots = 0) as full,
           (select count(*)::int from annotator_standings where campaign_id = ${Number(campaignId)} and status <> 'active') as paused,
           (select count(*)::int from annotator_standings where campaign_id = ${Number(campaignId)} and gold_judged > 0) as gold_judges`);
  const judgments = Number(totals?.judgments ?? 0);
  lines.push(
    `database: ${judgments} judgments (${totals?.sufficient} sufficient), ${totals?.live_claims} live claims, ${totals?.touched} passages judged at least once, ${totals?.full} with no open slot; ` +
      `${totals?.gold_judges} annotators judged gold passages, ${totals?.paused} paused`,
  );
  check(
    "every judgment the annotators got a 201 for is stored, and no other",
    judgments === expectedJudgments ? [] : [{ stored: judgments, acknowledged: expectedJudgments }],
    ` (${judgments} = ${expectedJudgments})`,
  );
  check(
    "no passage has more than R judgments (of annotators in good standing) + live claims",
    await query(`select * from (${counts}) x where judgments + live_claims > r`),
  );
  check(
    "no two judgments by one annotator on one passage",
    await query(`select passage_id, user_id, count(*)::int as n from judgments group by passage_id, user_id having count(*) > 1`),
  );
  check(
    "no two claims by one annotator on one passage",
    await query(`select passage_id, user_id, count(*)::int as n from claims group by passage_id, user_id having count(*) > 1`),
  );
  check(
    "passages.judgment_count = judgments per passage (of annotators in good standing, at most R)",
    await query(`select * from (${counts}) x where judgment_count <> least(r, judgments)`),
  );
  check("passages.claim_count = live claims per passage", await query(`select * from (${counts}) x where claim_count <> live_claims`));
  check(
    "passages.open_slots = R − judgments − live claims (0 once decided)",
    await query(
      `select * from (${counts}) x where open_slots <> case when is_decided then 0 else greatest(0, r - least(r, judgments) - live_claims) end`,
    ),
  );

  const spans = await query(`
    select j.id, j.start_paragraph_id, j.start_character, j.end_paragraph_id, j.end_character, j.span_text, pg.paragraphs
    from judgments j join passages p on p.id = j.passage_id join pages pg on pg.wikipedia_id = p.wikipedia_id
    where j.campaign_id = ${Number(campaignId)} and j.span_text is not null
    order by random() limit ${Number(spanSample)}`);
  const bad: Record<string, unknown>[] = [];
  let astral = 0;
  for (const s of spans) {
    const paragraphs = s.paragraphs as string[];
    const text = sliceByCodePoints(
      paragraphs,
      Number(s.start_paragraph_id),
      Number(s.start_character),
      Number(s.end_paragraph_id),
      Number(s.end_character),
    );
    if (/[\u{10000}-\u{10FFFF}]/u.test(paragraphs[Number(s.start_paragraph_id)]!.slice(0, 4))) astral++;
    if (text !== s.span_text) bad.push({ id: s.id, stored: s.span_text, slice: text });
  }
  check(
    "span text = code-point slice of the stored paragraph",
    bad,
    ` (${spans.length} sampled spans, ${astral} in paragraphs opening with a character outside the BMP, where code points ≠ UTF-16 indexes)`,
  );
  return { ok, lines, judgments };
}
