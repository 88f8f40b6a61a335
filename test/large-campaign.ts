import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";

/**
 * A campaign named `<prefix>-members` whose members are every user named `<prefix>-user-…`, seeded in
 * a few statements (generate_series) for the large-list tests: a standing each (every 7th paused by a
 * coordinator, gold figures varied), judgment tallies for every third (user i of them, in id order:
 * 1 + i % 4 judgments in the half-second bucket i % 20, so a third have a median and the rest none);
 * `batches` batches `<prefix>-batch-001…` on it, and `tokens` API tokens `<prefix>-token-001…` of
 * `<prefix>-user-00001`. Returns the campaign's id.
 */
export async function seedLargeCampaign(db: Db, prefix: string, sizes: { batches: number; tokens: number }): Promise<number> {
  const [campaign] = rowsOf<{ id: number | string }>(
    await db.execute(sql`insert into campaigns (name) values (${prefix} || '-members') returning id`),
  );
  const campaignId = Number(campaign!.id);
  const seeded = sql`(select id, row_number() over (order by id) as i from users where username like ${prefix} || '-user-%')`;
  await db.execute(sql`
    insert into annotator_standings (campaign_id, user_id, status, pause_reason, gold_judged, gold_correct)
    select ${campaignId}, u.id, case when u.i % 7 = 0 then 'paused' else 'active' end::standing_status,
           case when u.i % 7 = 0 then 'coordinator' end::pause_reason, (u.i % 5)::int, least(u.i % 3, u.i % 5)::int
    from ${seeded} u`);
  await db.execute(sql`
    insert into annotator_tallies (campaign_id, user_id, duration_bucket, judgments, compared, agreed)
    select ${campaignId}, u.id, (u.i % 20)::smallint, (1 + u.i % 4)::int, (u.i % 3)::int, (u.i % 2)::int
    from ${seeded} u where u.i % 3 = 0`);
  await db.execute(sql`
    insert into batches (campaign_id, name) select ${campaignId}, ${prefix} || '-batch-' || lpad(i::text, 3, '0') from generate_series(1, ${sizes.batches}) i`);
  await db.execute(sql`
    insert into api_tokens (user_id, name, token_hash, prefix)
    select (select id from users where username = ${prefix} || '-user-00001'), ${prefix} || '-token-' || lpad(i::text, 3, '0'),
           md5(${prefix} || '-token-' || i), 'kps_' || substr(md5(${prefix} || '-token-' || i), 1, 6)
    from generate_series(1, ${sizes.tokens}) i`);
  return campaignId;
}
