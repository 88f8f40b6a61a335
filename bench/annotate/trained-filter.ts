// What the claim statement's `trained` filter (issue 26: no passage of a question a crowd worker
// trained on is ever their work) costs: the statement with and without it, for an annotator (no
// training answers) and for a crowd worker with 50 (their questions first in the walk: the worst
// case), at two campaign sizes. Prints medians; asserts nothing.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/annotate/trained-filter.ts [--database pglite] [--runs 200]
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { preparedRows } from "@/db/cache/prepared";
import { CLAIM_NEXT_SQL } from "@/lib/campaign/annotate/claim-next.internal";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const database = opt("--database", "postgres");
const runs = Number(opt("--runs", "200"));

/** The statement as it was before the filter: the same text without the `trained` CTE and its two tests. */
const WITHOUT = CLAIM_NEXT_SQL.replace(/trained as materialized \([\s\S]*?\n\),\n/, "").replaceAll(
  "    and p.query_id <> all((select ids from trained)::bigint[])\n",
  "",
);
if (WITHOUT === CLAIM_NEXT_SQL || WITHOUT.includes("trained")) throw new Error("could not take the filter out of CLAIM_NEXT_SQL");

async function seed(db: Db, questions: number, trainedQuestions: number) {
  const tag = randomBytes(5).toString("hex");
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q))[0]!;
  const page = `tf-${tag}`;
  await db.execute(
    sql`insert into pages (wikipedia_id, title, paragraphs) values (${page}, ${page}, array[${page}, 'Paragraph 1.', 'Paragraph 2.', 'Paragraph 3.'])`,
  );
  const { id: campaignId } = await one<{ id: number }>(
    sql`insert into campaigns (name) values (${"tf-" + tag}) returning id::float8 as id`,
  );
  const { id: batchId } = await one<{ id: number }>(
    sql`insert into batches (campaign_id, name, status) values (${campaignId}, 'tf', 'launched') returning id::float8 as id`,
  );
  await db.execute(sql`insert into queries (campaign_id, batch_id, kilt_id, input, original_line, line_number)
    select ${campaignId}, ${batchId}, ${tag} || '-' || i, 'question ' || i, '{}', i from generate_series(1, ${questions}) i`);
  await db.execute(sql`insert into passages (query_id, campaign_id, batch_id, wikipedia_id, start_paragraph_id, end_paragraph_id, origins, open_slots, is_gold, expected_verdict)
    select q.id, ${campaignId}, ${batchId}, ${page}, k, k, '[]'::jsonb, 3, k = 1, case when k = 1 then 'sufficient'::verdict end
    from queries q cross join generate_series(1, 3) k where q.campaign_id = ${campaignId}`);
  await db.execute(sql`analyze passages`);
  const user = async (role: string) =>
    (
      await one<{ id: number }>(
        sql`insert into users (username, role, pseudonym) values (${role + "-" + tag}, ${role}::user_role, ${role + "-" + tag}) returning id::float8 as id`,
      )
    ).id;
  const annotator = await user("annotator");
  const crowd = await user("crowd");
  await db.execute(
    sql`insert into crowd_entries (campaign_id, enabled, platform, entry_key, codes) values (${campaignId}, true, 'generic', ${tag}, '{}'::jsonb)`,
  );
  const { id: workerId } = await one<{ id: number }>(
    sql`insert into crowd_workers (campaign_id, platform, platform_worker_id, user_id) values (${campaignId}, 'generic', ${tag}, ${crowd}) returning id::float8 as id`,
  );
  const { id: sessionId } = await one<{
    id: number;
  }>(sql`insert into crowd_sessions (worker_id, campaign_id, user_id, number, stage, deadline_at)
    values (${workerId}, ${campaignId}, ${crowd}, 1, 'working', now() + interval '1 day') returning id::float8 as id`);
  // Trained on the gold passage of the first questions: those the walk (fewest open slots, then question) meets first.
  await db.execute(sql`insert into training_answers (session_id, passage_id, user_id, position, verdict, correct, duration_ms)
    select ${sessionId}, p.id, ${crowd}, row_number() over (order by p.query_id) - 1, 'sufficient', true, 1000
    from passages p where p.campaign_id = ${campaignId} and p.is_gold order by p.query_id limit ${trainedQuestions}`);
  return { campaignId, annotator, crowd };
}

/** Claims once with `text` (then undoes it, so every run walks the same rows); microseconds and the question claimed. */
async function claimOnce(db: Db, text: string, userId: number, campaignId: number): Promise<{ us: number; kilt: string }> {
  const handle = randomBytes(16).toString("base64url");
  const t = process.hrtime.bigint();
  const [row] = await preparedRows<{ kilt_id: string }>(db, text, [userId, campaignId, null, handle, 600]);
  const us = Number(process.hrtime.bigint() - t) / 1000;
  if (!row) throw new Error("nothing claimed");
  await db.execute(sql`with c as (delete from claims where handle = ${handle} returning passage_id)
    update passages p set claim_count = claim_count - 1, open_slots = open_slots + 1 from c where p.id = c.passage_id`);
  return { us, kilt: row.kilt_id };
}

const stats = (took: number[]) => {
  const s = [...took].sort((a, b) => a - b);
  return `${s[Math.floor(s.length / 2)]!.toFixed(0)} / ${s[Math.floor(s.length * 0.9)]!.toFixed(0)}`;
};

/** Both statements in turn, run after run (so load on the machine falls on both alike), after 10 runs of warm-up each. */
async function compare(db: Db, userId: number, campaignId: number): Promise<{ without: string; with: string; kilt: string }> {
  const without: number[] = [];
  const withFilter: number[] = [];
  let kilt = "";
  for (let i = 0; i < runs + 10; i++) {
    const a = await claimOnce(db, WITHOUT, userId, campaignId);
    const b = await claimOnce(db, CLAIM_NEXT_SQL, userId, campaignId);
    kilt = b.kilt;
    if (i >= 10) {
      without.push(a.us);
      withFilter.push(b.us);
    }
  }
  return { without: stats(without), with: stats(withFilter), kilt };
}

/** Buffers (shared hit + read blocks) the statement touches when it claims: a figure load on the machine does not change. */
async function buffers(db: Db, text: string, userId: number, campaignId: number): Promise<number> {
  const handle = randomBytes(16).toString("base64url");
  const literal = text
    .replaceAll("$1::bigint", `${userId}::bigint`)
    .replaceAll("$2::bigint", `${campaignId}::bigint`)
    .replaceAll("$3::text", "null::text")
    .replaceAll("$4::text", `'${handle}'::text`)
    .replaceAll("$5::int", "600::int");
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`explain (analyze, buffers, format json) ${literal}`)));
  const plan = Object.values(row!)[0];
  const top = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: Record<string, number> }[];
  await db.execute(sql`with c as (delete from claims where handle = ${handle} returning passage_id)
    update passages p set claim_count = claim_count - 1, open_slots = open_slots + 1 from c where p.id = c.passage_id`);
  return (top[0]!.Plan["Shared Hit Blocks"] ?? 0) + (top[0]!.Plan["Shared Read Blocks"] ?? 0);
}

async function main() {
  const url = process.env.DATABASE_URL;
  const handle = database === "postgres" && url ? await openDatabase({ url }) : await openDatabase({ memory: true });
  await migrateDatabase(handle);
  const db = handle.db;
  console.log(`claim statement, ${database === "postgres" && url ? "PostgreSQL" : "PGlite"}, ${runs} runs each, µs (median / p90)`);
  console.log("passages\twho\twithout filter\twith filter\tbuffers without\tbuffers with\tclaimed question (with)");
  for (const questions of [1_000, 20_000]) {
    const s = await seed(db, questions, 50);
    for (const [who, userId] of [
      ["annotator", s.annotator],
      ["crowd, 50 trained", s.crowd],
    ] as const) {
      const r = await compare(db, userId, s.campaignId);
      const [bWithout, bWith] = [await buffers(db, WITHOUT, userId, s.campaignId), await buffers(db, CLAIM_NEXT_SQL, userId, s.campaignId)];
      console.log(`${questions * 3}\t${who}\t${r.without}\t${r.with}\t${bWithout}\t${bWith}\t${r.kilt.split("-").at(-1)}`);
    }
  }
  await handle.close();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
