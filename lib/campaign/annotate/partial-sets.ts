// Sets built from partial evidence: in a batch that collects "part of the evidence", two
// single passages of a question that T annotators each marked partial become a candidate set of the
// two, judged together like any set. Made after the partial judgment is stored, by one statement
// that a concurrent one cannot double (the location key takes one set per pair of members).
import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/** At most this many sets are built per question (the first pairs, in page order): n partial passages make n(n − 1)/2 pairs. */
export const PARTIAL_SETS_PER_QUESTION = 15;

/**
 * Builds the sets of passage `passageId`'s question that its partial judgments now call for, when its
 * batch is launched and collects partial evidence: every pair of the question's single, non-gold
 * passages that at least T annotators not paused marked partial, members in page order (numeric
 * page ids by number), each set with R open slots and the origin `partial`. Returns how many it made.
 */
export async function buildPartialSets(db: Db, passageId: number): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      with me as (
        select p.query_id, p.campaign_id, p.batch_id, cp.endorsement_threshold as t, cp.judgments_per_passage as r
        from passages p join batches b on b.id = p.batch_id join campaigns cp on cp.id = p.campaign_id
        where p.id = ${passageId} and b.partial_evidence and b.status = 'launched'
      ), partials as (
        select p.wikipedia_id as w, p.start_paragraph_id as s, p.end_paragraph_id as e,
          case when p.wikipedia_id ~ '^[0-9]{1,18}$' then lpad(p.wikipedia_id, 20, '0') else p.wikipedia_id end as page_order
        from passages p join me on p.query_id = me.query_id
        where p.set_members is null and not p.is_gold
          and (select count(*) from judgments j where j.passage_id = p.id and j.partial and not exists (select 1 from annotator_standings st
            where st.campaign_id = j.campaign_id and st.user_id = j.user_id and st.status = 'paused')) >= me.t
      ), pairs as (
        select a.w as w1, a.s as s1, a.e as e1, b.w as w2, b.s as s2, b.e as e2
        from partials a join partials b on (a.page_order, a.s, a.e) < (b.page_order, b.s, b.e)
        order by a.page_order, a.s, a.e, b.page_order, b.s, b.e
        limit ${PARTIAL_SETS_PER_QUESTION}
      ), made as (
        insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins, set_members, set_key, open_slots)
        select me.query_id, me.campaign_id, me.batch_id, x.w1, x.s1, x.e1, '[{"kind":"partial"}]'::jsonb,
          jsonb_build_array(jsonb_build_object('wikipediaId', x.w1, 'startParagraphId', x.s1, 'endParagraphId', x.e1),
            jsonb_build_object('wikipediaId', x.w2, 'startParagraphId', x.s2, 'endParagraphId', x.e2)),
          x.w2 || ':' || x.s2 || '-' || x.e2, me.r
        from pairs x cross join me
        on conflict (query_id, wikipedia_id, start_paragraph_id, end_paragraph_id, set_key) do nothing
        returning id::float8 as id, batch_id
      ), counted as (
        update batches b set passage_count = b.passage_count + (select count(*) from made) where b.id = (select batch_id from me)
          and exists (select 1 from made)
      )
      select id from made`),
  );
  return rows.length;
}
