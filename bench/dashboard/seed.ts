// A synthetic campaign for the dashboard benchmark, built in set-based SQL (generate_series), not
// through the app: a million passages in about a minute. The same statements run on PostgreSQL and
// on PGlite.
//
// Shape, for P passages and judged share s (R = 3, T = 2):
//   - Q = ceil(P / 10) questions of 10 passages; passage k = 0 of a question is its gold passage
//     (expected verdict sufficient), except for 1 question in 10 that has none;
//   - B batches of consecutive questions, all launched except the last, which is paused;
//   - W = max(20, ceil(P / 20)) tiny pages (a title and four one-sentence paragraphs), passage p
//     (= 10q + k) on page p mod W, so a question never holds one location twice;
//   - counted judgments per passage: 3 for a share a, 2 or 1 for a share b (half each), 0 for the
//     rest, with 3a + 1.5b = 3s (b = 0.3 · min(1, 2s, 2 − 2s)), so s of the 3P slots are judged;
//     no live claims, nothing decided (early stop off), open_slots = 3 − judgment_count;
//   - each judged slot is sufficient with probability 0.85 on gold passages and 0.35 elsewhere,
//     decided by a hash of (passage, slot), so the passage counters and the judgment rows agree;
//     a sufficient judgment highlights the first word of its paragraph ("The");
//   - slot i of passage p is judged by annotator (7p + i·⌊A/3⌋) mod A: three different people;
//   - durations: each annotator has a pace (1 in 25 are sub-2-second clickers, the others 3–18 s),
//     a judgment takes 0.3–2× that, 1 in 50 also gets 1–3 minutes more (the last duration bucket);
//   - created_at spread uniformly over the past four days (up to a few minutes ago);
//   - `agrees` set on judgments of finished passages as the triggers would; standings of every
//     annotator (gold judged / correct) computed from their gold judgments; none paused.
// The triggers are off while loading (session_replication_role = replica, or DISABLE TRIGGER USER
// when not a superuser); `kps_rebuild_tallies` then fills the tallies once.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { stepTimer } from "../common";
import { PLACE_WORDS, rnd, textArray } from "../synthetic-sql";

export const PASSAGES_PER_QUESTION = 10;
/** Paragraphs after the title on every page: passages sit on paragraph 1..4. */
export const CONTENT_PARAGRAPHS = 4;
export const FIRST_WIKIPEDIA_ID = 95_000_000;
const SLOTS = 3;

export interface SeedOptions {
  passages: number;
  judgedShare: number;
  annotators: number;
  batches: number;
  /** Extra annotator accounts with no judgments, for the write load (they must not have judged seeded passages). */
  writers: number;
}

export interface Seeded {
  campaignId: number;
  batchIds: number[];
  passages: number;
  questions: number;
  pages: number;
  judgments: number;
  annotators: number;
  writerIds: { id: number; username: string }[];
  /** Wall seconds per step. */
  steps: [string, number][];
  /** pg_total_relation_size of the big tables, bytes. */
  sizes: Record<string, number>;
}

/** Whether passage `id` is a gold passage (the write load judges gold passages right, like careful annotators). */
export function isGoldPassage(passageId: number): boolean {
  const p = passageId - 1;
  return p % PASSAGES_PER_QUESTION === 0 && Math.floor(p / PASSAGES_PER_QUESTION) % 10 !== 7;
}

const WORDS = [...PLACE_WORDS, "Zürich", "Kraków"];

export async function seedCampaign(db: Db, opts: SeedOptions): Promise<Seeded> {
  const P = opts.passages;
  const A = opts.annotators;
  const B = opts.batches;
  const s = opts.judgedShare;
  if (A < SLOTS) throw new Error(`at least ${SLOTS} annotators are needed`);
  if (P < PASSAGES_PER_QUESTION * B) throw new Error(`at least ${PASSAGES_PER_QUESTION * B} passages are needed for ${B} batches`);
  const Q = Math.ceil(P / PASSAGES_PER_QUESTION);
  const W = Math.max(20, Math.ceil(P / 20));
  const b = 0.3 * Math.min(1, 2 * s, 2 - 2 * s);
  const a = s - b / 2;
  // Thresholds on a hash in [0, 1e6): < full → 3 judgments, < two → 2, < one → 1.
  const full = Math.round(a * 1e6);
  const two = Math.round((a + b / 2) * 1e6);
  const one = Math.round((a + b) * 1e6);
  const stride = Math.floor(A / SLOTS);

  const { steps, step } = stepTimer();

  const [su] = rowsOf<{ s: boolean }>(await db.execute(sql.raw(`select rolsuper as s from pg_roles where rolname = current_user`)));
  const superuser = !!su?.s;
  const tables = ["passages", "judgments"];
  let campaignId = 0;
  const batchIds: number[] = [];
  if (!superuser) for (const table of tables) await db.execute(sql.raw(`alter table ${table} disable trigger user`));
  try {
    await db.transaction(async (tx) => {
      const run = (text: string) => tx.execute(sql.raw(text));
      // Replica role: neither the tally triggers nor the foreign-key checks fire (rows hold by construction).
      if (superuser) await run(`set local session_replication_role = replica`);

      await run(`
        insert into pages (wikipedia_id, title, paragraphs)
        select (${FIRST_WIKIPEDIA_ID} + w)::text, 'Bench page ' || w,
          array['Bench page ' || w || E'\\n',
                'The ' || ${textArray(WORDS)}[1 + w % ${WORDS.length}] || ' of page ' || w || E' was built in ' || (1700 + w % 300) || E'.\\n',
                'The ' || ${textArray(WORDS)}[1 + (w / 3) % ${WORDS.length}] || E' is named after a painter.\\n',
                'The ' || ${textArray(WORDS)}[1 + (w / 7) % ${WORDS.length}] || E' closed during the war.\\n',
                'The ' || ${textArray(WORDS)}[1 + (w / 11) % ${WORDS.length}] || ' has ' || (w % 97) || E' rooms.\\n']
        from generate_series(0, ${W - 1}) w`);
      step("pages");

      await run(`
        insert into users (username, role, pseudonym, created_at)
        select 'bench-annotator-' || lpad(u::text, 4, '0'), 'annotator', 'bd-a' || lpad(u::text, 5, '0'), now() - interval '5 days'
        from generate_series(0, ${A - 1}) u`);
      await run(`
        insert into users (username, role, pseudonym)
        select 'bench-writer-' || lpad(u::text, 3, '0'), 'annotator', 'bd-w' || lpad(u::text, 5, '0')
        from generate_series(0, ${opts.writers - 1}) u`);
      await run(`create temporary table bench_annotators (k int primary key, user_id bigint not null) on commit drop`);
      await run(`
        insert into bench_annotators (k, user_id)
        select (row_number() over (order by username) - 1)::int, id from users where username like 'bench-annotator-%'`);

      const [c] = rowsOf<{ id: number | string }>(
        await run(`
          insert into campaigns (name, judgments_per_passage, endorsement_threshold, created_at)
          values ('Dashboard benchmark', 3, 2, now() - interval '5 days') returning id`),
      );
      campaignId = Number(c!.id);
      for (let k = 0; k < B; k++) {
        const status = k === B - 1 && B > 1 ? "paused" : "launched";
        const [row] = rowsOf<{ id: number | string }>(
          await run(`
            insert into batches (campaign_id, name, status, launched_at, created_at)
            values (${campaignId}, 'bench batch ${k + 1}', '${status}', now() - interval '4 days', now() - interval '5 days') returning id`),
        );
        batchIds.push(Number(row!.id));
      }
      const batchOf = (q: string) => `(array[${batchIds.join(", ")}]::bigint[])[1 + (${q})::bigint * ${B} / ${Q}]`;
      step("users, campaign, batches");

      await run(`
        insert into queries (id, campaign_id, batch_id, kilt_id, input, answers, original_line, line_number, created_at)
        overriding system value
        select q + 1, ${campaignId}, ${batchOf("q")}, 'bench-q-' || q, 'where is the ' || ${textArray(WORDS)}[1 + q % ${WORDS.length}] || ' of question ' || q || '?',
          '{}'::text[], '{"id": "bench-q-' || q || '", "input": "question ' || q || '"}', q + 1, now() - interval '5 days'
        from generate_series(0, ${Q - 1}) q`);
      step("questions");

      // x.h: which judgment count; x.v0..v2: whether slot i is sufficient.
      await run(`
        insert into passages (id, query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins,
                              is_gold, expected_verdict, judgment_count, sufficient_count, claim_count, open_slots, is_decided, created_at)
        overriding system value
        select p + 1, p / ${PASSAGES_PER_QUESTION} + 1, ${campaignId}, ${batchOf(`p / ${PASSAGES_PER_QUESTION}`)},
          (${FIRST_WIKIPEDIA_ID} + p % ${W})::text,
          1 + p % ${CONTENT_PARAGRAPHS}, 1 + p % ${CONTENT_PARAGRAPHS},
          case when x.gold then '[{"kind":"gold"}]'::jsonb
               else jsonb_build_array(jsonb_build_object('kind', 'retriever', 'retriever', 'dpr', 'rank', p % ${PASSAGES_PER_QUESTION})) end,
          x.gold, case when x.gold then 'sufficient'::verdict end,
          y.jc, (case when y.jc > 0 and x.v0 then 1 else 0 end) + (case when y.jc > 1 and x.v1 then 1 else 0 end) + (case when y.jc > 2 and x.v2 then 1 else 0 end),
          0, ${SLOTS} - y.jc, false, now() - interval '5 days'
        from generate_series(0, ${P - 1}) p
        cross join lateral (select
          p % ${PASSAGES_PER_QUESTION} = 0 and (p / ${PASSAGES_PER_QUESTION}) % 10 <> 7 as gold,
          ${rnd("p", 1_000_000)} as h) x0
        cross join lateral (select x0.gold, x0.h,
          ${rnd(`p * 3`, 1000)} < case when x0.gold then 850 else 350 end as v0,
          ${rnd(`p * 3 + 1`, 1000)} < case when x0.gold then 850 else 350 end as v1,
          ${rnd(`p * 3 + 2`, 1000)} < case when x0.gold then 850 else 350 end as v2) x
        cross join lateral (select case when x.h < ${full} then 3 when x.h < ${two} then 2 when x.h < ${one} then 1 else 0 end as jc) y`);
      step("passages");

      // The same hashes as above decide each slot's verdict.
      await run(`
        insert into judgments (passage_id, user_id, campaign_id, batch_id, verdict, unreadable,
                               start_paragraph_id, start_character, end_paragraph_id, end_character, span_text,
                               duration_ms, agrees, idempotency_key, request_hash, created_at)
        select p.id, a.user_id, ${campaignId}, p.batch_id,
          case when v.suff then 'sufficient' else 'insufficient' end::verdict,
          not v.suff and ${rnd("p.id * 3 + i + 7", 100)} = 0,
          case when v.suff then p.start_paragraph_id end, case when v.suff then 0 end,
          case when v.suff then p.start_paragraph_id end, case when v.suff then 3 end,
          case when v.suff then 'The' end,
          d.ms,
          case when p.judgment_count >= ${SLOTS} then v.suff = (p.sufficient_count >= 2) end,
          'seed-' || p.id || '-' || i, 'seed',
          now() - interval '4 days' + interval '4 days' * (${rnd("p.id * 5 + 3", 1_000_000)} / 1e6 * 0.997 + i * 0.001)
        from passages p
        cross join generate_series(0, ${SLOTS - 1}) i
        join bench_annotators a on a.k = ((p.id - 1) * 7 + i * ${stride}) % ${A}
        cross join lateral (select ${rnd("(p.id - 1) * 3 + i", 1000)} < case when p.is_gold then 850 else 350 end as suff) v
        cross join lateral (select
          case when a.k % 25 = 0 then 1200 else 3000 + ${rnd("a.k * 7919 + 1", 15000)} end as pace,
          ${rnd("(p.id - 1) * 3 + i + 11", 1700)} as r) u
        cross join lateral (select (u.pace * (300 + u.r) / 1000
          + case when ${rnd("(p.id - 1) * 3 + i + 13", 50)} = 0 then 60000 + ${rnd("(p.id - 1) * 3 + i + 17", 120000)} else 0 end)::int as ms) d
        where p.campaign_id = ${campaignId} and i < p.judgment_count`);
      step("judgments");

      await run(`
        insert into annotator_standings (campaign_id, user_id, status, gold_judged, gold_correct)
        select ${campaignId}, u.id, 'active', coalesce(g.judged, 0), coalesce(g.correct, 0)
        from users u
        left join (
          select j.user_id, count(*) as judged, count(*) filter (where j.verdict = 'sufficient') as correct
          from passages p join judgments j on j.passage_id = p.id
          where p.campaign_id = ${campaignId} and p.is_gold
          group by j.user_id) g on g.user_id = u.id
        where u.username like 'bench-annotator-%' or u.username like 'bench-writer-%'`);
      step("standings");

      for (const table of ["queries", "passages", "judgments"]) {
        await run(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
      }
    });
  } finally {
    if (!superuser) for (const table of tables) await db.execute(sql.raw(`alter table ${table} enable trigger user`));
  }

  await db.execute(sql.raw(`select kps_rebuild_tallies(${campaignId})`));
  await db.execute(sql.raw(`select kps_rebuild_judgment_hours(${campaignId})`));
  step("kps_rebuild_tallies");
  // Steady state for every reader: hint bits set, visibility map and statistics current.
  await db.execute(
    sql.raw(
      `vacuum analyze pages, users, campaigns, batches, annotator_standings, queries, passages, judgments, ` +
        `passage_tallies, passage_tally_deltas, annotator_tallies, annotator_tally_deltas, judgment_minutes, judgment_minute_deltas, judgment_hours, query_tallies`,
    ),
  );
  step("vacuum analyze");

  const [n] = rowsOf<{ judgments: number; passages: number; questions: number; pages: number }>(
    await db.execute(
      sql.raw(`select
        (select count(*)::int from judgments where campaign_id = ${campaignId}) as judgments,
        (select count(*)::int from passages where campaign_id = ${campaignId}) as passages,
        (select count(*)::int from queries where campaign_id = ${campaignId}) as questions,
        (select count(*)::int from pages) as pages`),
    ),
  );
  const writers = rowsOf<{ id: number | string; username: string }>(
    await db.execute(sql.raw(`select id, username from users where username like 'bench-writer-%' order by username`)),
  ).map((w) => ({ id: Number(w.id), username: w.username }));
  const sizes: Record<string, number> = {};
  for (const r of rowsOf<{ t: string; b: number | string }>(
    await db.execute(
      sql.raw(`select c.relname as t, pg_total_relation_size(c.oid) as b from pg_class c
               where c.relname in ('passages', 'judgments', 'queries', 'pages', 'passage_tallies', 'annotator_tallies', 'judgment_minutes', 'query_tallies') and c.relkind = 'r'`),
    ),
  )) {
    sizes[r.t] = Number(r.b);
  }
  return {
    campaignId,
    batchIds,
    passages: n!.passages,
    questions: n!.questions,
    pages: n!.pages,
    judgments: n!.judgments,
    annotators: A,
    writerIds: writers,
    steps,
    sizes,
  };
}
