// A synthetic, fully judged campaign built directly in SQL (generate_series), not through the app:
// fast enough for a million judgments. Runs the same statements on PostgreSQL and on PGlite.
//
// Shape, for N judgments:
//   - P = ceil(N/3) passages, Q = ceil(P/3) questions: 3 passages per question, 3 judgments per
//     passage (only the very last passage may have fewer when N is not a multiple of 3, so that the
//     campaign holds exactly N judgments); annotators rotate (judgment j by annotator j mod A), so
//     (passage, annotator) is unique;
//   - W = max(16, ceil(P/8)) pages of 8–24 elements after the title: paragraphs of 30–90 words drawn
//     from a pool of 4,096 (some non-ASCII, ~20% with a character outside the BMP, some with a
//     quoted word or a backslash), a `Section::::…` header at every index divisible by 4 (some
//     nested: `Section::::History.:Early years.`);
//   - question q: kilt_id a 19-digit string (every other one negative, as in NQ); original_line a
//     KILT task line {"id", "input", ["meta" with an integer above 2^53 written literally, 1 in 7],
//     "output": [{"answer"}, {"provenance": [the gold passage's location]}]} ("output" last);
//   - passage k = 0 of a question is its gold passage (expected verdict sufficient), except for 1 in
//     10 questions that have none; passages are 1–2 content paragraphs (never a header);
//   - votes: gold passages are endorsed with 2–3 sufficient votes except 1 question in 12 whose gold
//     gets 0–1 (unanswerable: left out of the KILT export); other passages are endorsed 45% of the
//     time. ~60% of passages end up endorsed;
//   - sufficient judgments carry a span in code points (sometimes across the passage's two
//     paragraphs) and span_text = the code-point slice, computed with substr() (characters in a
//     UTF-8 database); the three highlights of a passage overlap, so a consensus exists.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { stepTimer } from "../common";
import { PLACE_WORDS, rnd, textArray } from "../synthetic-sql";

export const FIRST_WIKIPEDIA_ID = 93_000_000;

export interface BuildOptions {
  judgments: number;
  annotators: number;
}

export interface BuiltCampaign {
  campaignId: number;
  batchId: number;
  judgments: number;
  passages: number;
  questions: number;
  pages: number;
  annotators: number;
  /** What the KILT export should report, computed here in SQL, independently of the app. */
  expected: {
    queriesExported: number;
    unanswerable: number;
    withoutEndorsement: number;
    passagesEndorsed: number;
    passagesEndorsedTotal: number;
    sufficientJudgments: number;
  };
  /** Stored sizes (pg_total_relation_size), bytes. */
  sizes: Record<string, number>;
  /** Wall seconds per build step. */
  steps: [string, number][];
}

const WORDS = [
  ...PLACE_WORDS,
  "province",
  "engine",
  "theatre",
  "festival",
  "library",
  "station",
  "mountain",
  "island",
  "century",
  "painter",
  "novel",
  "the",
  "of",
  "and",
  "in",
  "was",
  "built",
  "named",
  "after",
  "during",
  "by",
  "its",
  "first",
  "second",
  "north",
  "south",
  "with",
  "a",
  "which",
  "Zürich",
  "Москва",
  "東京",
  "naïve",
  "café",
  "São",
  "Kraków",
  "Ελλάδα",
  "–",
  '"Ode"',
  "back\\slash",
];
const ASTRAL = ["𝄞", "😀", "𐌅𐌄𐌋", "𝔄"];
const SECTIONS = ["History", "Geography", "Economy", "Culture", "Legacy", "Architecture"];

export async function buildCampaign(db: Db, opts: BuildOptions): Promise<BuiltCampaign> {
  const N = opts.judgments;
  const A = opts.annotators;
  if (A < 3) throw new Error("at least 3 annotators are needed");
  const P = Math.ceil(N / 3);
  const Q = Math.ceil(P / 3);
  const W = Math.max(16, Math.ceil(P / 8));
  const { steps, step } = stepTimer();

  const [superuser] = rowsOf<{ s: boolean }>(await db.execute(sql.raw(`select rolsuper as s from pg_roles where rolname = current_user`)));
  let campaignId = 0;
  let batchId = 0;
  await db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    // Foreign keys hold by construction: skip their per-row triggers while loading (superuser only).
    if (superuser?.s) await run(`set local session_replication_role = replica`);

    await run(`create table bench_export_pool (i int primary key, body text not null)`);
    await run(`
      insert into bench_export_pool (i, body)
      select i,
        case when i % 10 = 3 then (${textArray(ASTRAL)})[1 + (i / 10) % ${ASTRAL.length}] || ' ' else '' end ||
        initcap(w.words[1 + ${rnd("i * 7919", WORDS.length)}]) || ' ' ||
        (select string_agg(
                  case when i % 10 = 7 and n = 10 then '(Old Italic: 𐌅𐌄𐌋)'
                       else w.words[1 + ${rnd("i * 131071 + n * 8191", WORDS.length)}] end
                  || case when n % 9 = 0 then '.' else '' end, ' ' order by n)
         from generate_series(1, 30 + ${rnd("i", 61)}) n) || '.'
      from generate_series(0, 4095) i, (select ${textArray(WORDS)} as words) w`);
    step("paragraph pool");

    await run(`
      insert into pages (wikipedia_id, title, paragraphs)
      select (${FIRST_WIKIPEDIA_ID} + w)::text, 'Bench ' || initcap(${textArray(WORDS)}[1 + ${rnd("w * 3 + 1", WORDS.length)}]) || ' ' || w,
        array['Bench ' || initcap(${textArray(WORDS)}[1 + ${rnd("w * 3 + 1", WORDS.length)}]) || ' ' || w || E'\\n'] ||
        array(select case when k % 4 = 0
                          then 'Section::::' || (${textArray(SECTIONS)})[1 + (w + k) % ${SECTIONS.length}] || '.' ||
                               case when k % 8 = 0 then ':Early years.' else '' end || E'\\n'
                          else (select body from bench_export_pool where i = ${rnd("w * 64 + k", 4096)}) || E'\\n' end
              from generate_series(1, 8 + (w * 13) % 17) k order by k)
      from generate_series(0, ${W - 1}) w`);
    step("pages");

    await run(`
      insert into users (username, role, pseudonym)
      select 'bench-annotator-' || lpad(u::text, 4, '0'), 'annotator', 'a-bench' || lpad(u::text, 5, '0')
      from generate_series(0, ${A - 1}) u`);
    await run(`create table bench_export_annotators (k int primary key, user_id bigint not null)`);
    await run(`
      insert into bench_export_annotators (k, user_id)
      select (row_number() over (order by username) - 1)::int, id from users where username like 'bench-annotator-%'`);
    const [c] = rowsOf<{ id: number | string }>(
      await run(
        `insert into campaigns (name, judgments_per_passage, endorsement_threshold) values ('Export benchmark', 3, 2) returning id`,
      ),
    );
    campaignId = Number(c!.id);
    const [b] = rowsOf<{ id: number | string }>(
      await run(
        `insert into batches (campaign_id, name, status, launched_at, closed_at) values (${campaignId}, 'bench batch', 'closed', now(), now()) returning id`,
      ),
    );
    batchId = Number(b!.id);
    await run(`
      insert into annotator_standings (campaign_id, user_id, status, gold_judged, gold_correct)
      select ${campaignId}, user_id, 'active', 0, 0 from bench_export_annotators`);

    // Questions. The gold location is passage 3q's (same formulas as the passages below).
    const goldPage = `(3 * q) % ${W}`;
    const goldStart = `(case when 1 + (3 * q * 5) % 7 = 4 then 5 else 1 + (3 * q * 5) % 7 end)`;
    const goldEnd = `(case when (3 * q) % 2 = 1 and (${goldStart} + 1) % 4 <> 0 then ${goldStart} + 1 else ${goldStart} end)`;
    await run(`
      insert into queries (id, campaign_id, batch_id, kilt_id, input, answers, original_line, line_number)
      overriding system value
      select q + 1, ${campaignId}, ${batchId}, x.kilt_id, x.input, array[x.answer], 
        '{"id": "' || x.kilt_id || '", "input": ' || to_json(x.input)::text ||
        case when q % 7 = 0 then ', "meta": {"template_id": ' || (9007199254740993 + q::bigint)::text || ', "source": "bench"}' else '' end ||
        ', "output": [{"answer": ' || to_json(x.answer)::text || '}' ||
        case when q % 10 = 7 then '' else
          ', {"provenance": [{"wikipedia_id": "' || (${FIRST_WIKIPEDIA_ID} + ${goldPage})::text || '", "title": ' || to_json(pg.title)::text ||
          ', "section": "Section::::Abstract.", "start_paragraph_id": ' || ${goldStart} || ', "start_character": -1, "end_paragraph_id": ' || ${goldEnd} ||
          ', "end_character": -1, "bleu_score": 1.0}]}' end ||
        ']}',
        q + 1
      from generate_series(0, ${Q - 1}) q
      join pages pg on pg.wikipedia_id = (${FIRST_WIKIPEDIA_ID} + ${goldPage})::text
      cross join lateral (select
        (case when q % 2 = 0 then '-' else '' end) || (4000000000000000000 + q::bigint * 7919 * 1000003)::text as kilt_id,
        'what is the ' || w.words[1 + ${rnd("q * 17 + 1", WORDS.length)}] || ' of the ' || w.words[1 + ${rnd("q * 17 + 2", WORDS.length)}] ||
          case when q % 11 = 0 then ' ' || (${textArray(ASTRAL)})[1 + q % ${ASTRAL.length}] else '' end || ' ' || q || '?' as input,
        initcap(w.words[1 + ${rnd("q * 17 + 3", WORDS.length)}]) || ' ' || q as answer
        from (select ${textArray(WORDS)} as words) w) x`);
    step("questions");

    // Passages: p = 3q + k. Votes: sufficient_count = judgments saying sufficient (slots 0..sc-1).
    await run(`
      insert into passages (id, query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins,
                            is_gold, expected_verdict, judgment_count, sufficient_count, claim_count, open_slots, is_decided)
      overriding system value
      select p + 1, p / 3 + 1, ${campaignId}, ${batchId}, (${FIRST_WIKIPEDIA_ID} + p % ${W})::text, y.s,
        case when p % 2 = 1 and (y.s + 1) % 4 <> 0 then y.s + 1 else y.s end,
        case when y.gold then '[{"kind":"gold"}]'::jsonb
             else jsonb_build_array(jsonb_build_object('kind', 'retriever', 'retriever', 'dpr', 'rank', p % 3 + 1)) end,
        y.gold, case when y.gold then 'sufficient'::verdict end,
        y.jc, least(y.jc, y.sc), 0, 3 - y.jc, false
      from generate_series(0, ${P - 1}) p
      cross join lateral (select
        case when 1 + (p * 5) % 7 = 4 then 5 else 1 + (p * 5) % 7 end as s,
        p % 3 = 0 and (p / 3) % 10 <> 7 as gold,
        least(3, ${N} - 3 * p) as jc,
        case when p % 3 = 0 and (p / 3) % 10 <> 7
             then case when (p / 3) % 12 = 5 then (p / 3) % 2 else 2 + (case when (p / 3) % 3 = 0 then 1 else 0 end) end
             else case when ${rnd("p * 7 + 5", 100)} < 45 then 2 + p % 2 else (p / 3) % 2 end end as sc) y`);
    step("passages");

    // Per passage with a sufficient vote: its paragraphs and a base offset for the highlights.
    await run(
      `create table bench_export_spans (passage_id bigint primary key, ps text not null, pe text not null, is_cross boolean not null)`,
    );
    await run(`
      insert into bench_export_spans (passage_id, ps, pe, is_cross)
      select p.id, pg.paragraphs[p.start_paragraph_id + 1], pg.paragraphs[p.end_paragraph_id + 1],
             p.end_paragraph_id > p.start_paragraph_id and p.id % 4 = 0
      from passages p join pages pg on pg.wikipedia_id = p.wikipedia_id
      where p.campaign_id = ${campaignId} and p.sufficient_count > 0`);
    step("span paragraphs");

    await run(`
      insert into judgments (id, passage_id, user_id, campaign_id, batch_id, verdict, unreadable,
                             start_paragraph_id, start_character, end_paragraph_id, end_character, span_text,
                             duration_ms, idempotency_key, request_hash, created_at)
      overriding system value
      select j + 1, p.id, a.user_id, ${campaignId}, ${batchId},
        case when x.suff then 'sufficient' else 'insufficient' end::verdict,
        not x.suff and j % 50 = 0,
        case when x.suff then p.start_paragraph_id end,
        case when x.suff then z.sc end,
        case when x.suff then case when s.is_cross then p.end_paragraph_id else p.start_paragraph_id end end,
        case when x.suff then z.ec end,
        case when x.suff then case when s.is_cross then substr(s.ps, z.sc + 1) || substr(s.pe, 1, z.ec)
                                   else substr(s.ps, z.sc + 1, z.ec - z.sc) end end,
        2000 + ${rnd("j", 60000)}, md5('idem' || j), md5('req' || j) || md5('body' || j),
        timestamptz '2026-11-01 00:00:00+00' + j * interval '1 second'
      from generate_series(0, ${N - 1}) j
      join passages p on p.id = j / 3 + 1
      join bench_export_annotators a on a.k = j % ${A}
      left join bench_export_spans s on s.passage_id = p.id
      cross join lateral (select j % 3 < p.sufficient_count as suff, j % 3 as slot) x
      cross join lateral (select
        least(((p.id * 37) % greatest(1, char_length(s.ps) / 2)) + x.slot * 3, char_length(s.ps) - 2)::int as sc) z0
      cross join lateral (select z0.sc,
        case when s.is_cross then least(10 + x.slot * 4 + (p.id % 20)::int, char_length(s.pe) - 1)
             else least(z0.sc + 25 + ((p.id * 13 + x.slot * 7) % 60)::int, char_length(s.ps) - 1) end as ec) z`);
    step("judgments");

    for (const table of ["queries", "passages", "judgments"]) {
      await run(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    }
    await run(`drop table bench_export_pool`);
    await run(`drop table bench_export_annotators`);
    await run(`drop table bench_export_spans`);
  });
  // Steady state for every reader: hint bits set, visibility map and statistics current.
  await db.execute(sql.raw(`vacuum analyze pages, users, campaigns, batches, annotator_standings, queries, passages, judgments`));
  step("vacuum analyze");

  const [e] = rowsOf<Record<string, number | string>>(
    await db.execute(
      sql.raw(`
      with q as (
        select q.id,
          bool_or(kps_misses_gold(p.is_gold, p.expected_verdict, kps_is_finished(p.is_decided, p.judgment_count, 3), kps_is_endorsed(p.sufficient_count, 2))) as gold_missed,
          count(*) filter (where kps_is_endorsed(p.sufficient_count, 2)) as endorsed
        from queries q join passages p on p.query_id = q.id
        where q.campaign_id = ${campaignId} group by q.id)
      select
        count(*) filter (where not gold_missed and endorsed > 0)::int as queries_exported,
        count(*) filter (where gold_missed)::int as unanswerable,
        count(*) filter (where not gold_missed and endorsed = 0)::int as without_endorsement,
        coalesce(sum(endorsed) filter (where not gold_missed), 0)::int as passages_endorsed,
        coalesce(sum(endorsed), 0)::int as passages_endorsed_total,
        (select count(*) from judgments where campaign_id = ${campaignId} and verdict = 'sufficient')::int as sufficient_judgments,
        (select count(*) from judgments where campaign_id = ${campaignId})::int as judgments,
        (select count(*) from passages where campaign_id = ${campaignId})::int as passages,
        (select count(*) from queries where campaign_id = ${campaignId})::int as questions,
        (select count(*) from pages)::int as pages
      from q`),
    ),
  );
  if (Number(e!.judgments) !== N) throw new Error(`build: ${e!.judgments} judgments stored, expected ${N}`);
  const sizes: Record<string, number> = {};
  for (const r of rowsOf<{ t: string; b: number | string }>(
    await db.execute(
      sql.raw(
        `select c.relname as t, pg_total_relation_size(c.oid) as b from pg_class c where c.relname in ('pages', 'queries', 'passages', 'judgments') and c.relkind = 'r'`,
      ),
    ),
  )) {
    sizes[r.t] = Number(r.b);
  }
  return {
    campaignId,
    batchId,
    judgments: N,
    passages: Number(e!.passages),
    questions: Number(e!.questions),
    pages: Number(e!.pages),
    annotators: A,
    expected: {
      queriesExported: Number(e!.queries_exported),
      unanswerable: Number(e!.unanswerable),
      withoutEndorsement: Number(e!.without_endorsement),
      passagesEndorsed: Number(e!.passages_endorsed),
      passagesEndorsedTotal: Number(e!.passages_endorsed_total),
      sufficientJudgments: Number(e!.sufficient_judgments),
    },
    sizes,
    steps,
  };
}
