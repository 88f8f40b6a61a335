import { afterEach, describe, expect, it } from "vitest";
import { rawClientOf, type Db } from "@/db/client";
import { makeAnnotator, makeCampaign } from "@/test/campaign-factory";
import { openPrivateDatabase, testDatabaseKinds, unique } from "@/test/databases";
import { CLAIM_NEXT_SQL } from "./claim-next.internal";
import { analyzeTables, staleTables } from "@/db/maintenance/planner-statistics";

/** A session of `db` of its own (PGlite has one): a statement prepared there keeps its plan as the app's do. */
async function session(db: Db): Promise<{ run: (text: string) => Promise<unknown[]>; end: () => Promise<void> }> {
  const raw = rawClientOf(db);
  if (raw.kind === "postgres") {
    const one = await raw.client.reserve();
    return { run: async (text) => [...(await one.unsafe(text))], end: async () => one.release() };
  }
  return { run: async (text) => (await raw.client.query(text)).rows, end: async () => {} };
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  Plans?: PlanNode[];
}

/** Rows each scan of claims or judgments read (returned + removed by its filter), by relation and index. */
function scans(node: PlanNode, out: string[] = []): string[] {
  if ((node["Relation Name"] === "claims" || node["Relation Name"] === "judgments") && node["Node Type"].includes("Scan")) {
    const read = (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1) + (node["Rows Removed by Filter"] ?? 0);
    out.push(`${read} ${node["Relation Name"]} ${node["Node Type"]} ${node["Index Name"] ?? ""}`);
  }
  for (const child of node.Plans ?? []) scans(child, out);
  return out;
}

// The statements of the judging path are prepared once per connection (db/cache/prepared.ts), and
// their plans are made again only when a table they read is analyzed. Made while `claims` and
// `judgments` were empty, the claim statement's plan reads all of an annotator's claims and
// judgments for each task handed out: PGlite runs no autovacuum, nor does a PostgreSQL server with
// it off. The statistics keeper (db/maintenance/planner-statistics.ts) analyzes them as they grow,
// and the plan follows. The probe is the claim statement prepared in a session of its own, its
// generic plan made at once (`force_generic_plan`, as the app's is from the sixth run), on the
// tables as a campaign starts.
for (const kind of testDatabaseKinds()) {
  describe(`the claim statement's cached plan as claims and judgments grow [${kind}]`, () => {
    // A database of the test's own, made inside it: the plan must be made on empty tables, so a
    // retry (CI's one) needs new ones, not the tables the failed try filled.
    let handle: Awaited<ReturnType<typeof openPrivateDatabase>> | undefined;
    afterEach(async () => {
      await handle?.drop();
      handle = undefined;
    });

    it(
      "reads only what the task needs of the annotator's claims and judgments once the keeper has analyzed them",
      { timeout: 120_000 },
      async () => {
        await handle?.drop(); // a try's own, should its hook not have run
        handle = await openPrivateDatabase(kind);
        const db = handle.handle.db;
        const c = await makeCampaign(db, { queries: 90, candidates: 2 });
        const other = await makeCampaign(db, { queries: 400, candidates: 2 });
        const [a, b] = [await makeAnnotator(db), await makeAnnotator(db)];
        const others = await Promise.all(Array.from({ length: 8 }, () => makeAnnotator(db)));
        const s = await session(db);
        const name = `probe_${unique("s").replace("-", "_")}`;
        const rowsRead = async (): Promise<string[]> => {
          await s.run("begin"); // the statement claims a passage: rolled back
          try {
            const [row] = (await s.run(
              `explain (analyze, format json) execute ${name}(${a.id}, ${c.campaignId}, null, '${unique("h")}', 600)`,
            )) as {
              "QUERY PLAN": unknown;
            }[];
            const plan = row!["QUERY PLAN"];
            return scans(((typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: PlanNode }[])[0]!.Plan);
          } finally {
            await s.run("rollback");
          }
        };
        const most = (read: string[]) => Math.max(...read.map((r) => Number(r.split(" ")[0])));
        try {
          await s.run("set plan_cache_mode = force_generic_plan");
          await s.run(`prepare ${name} as ${CLAIM_NEXT_SQL}`);
          await rowsRead(); // the plan, made now: no claim, no judgment yet

          // The history, written at once from this session: a and b each judged 150 of the campaign's
          // passages, each through its claim, all but 10 of a's before today, and a holds the next one
          // (the task on screen, which the statement gives back); 8 others judged the other campaign's
          // 1,200 passages. (Not through the app: while this session waited seconds for it,
          // a server busy with other databases' schema changes could drop its cached plans, and the
          // plan of empty tables would be gone before it could be read.)
          await s.run(
            `with picked as (
               select p.id, p.campaign_id, p.batch_id, u.id as user_id, row_number() over (partition by u.id order by p.id) as n
               from passages p cross join unnest(array[${a.id}, ${b.id}]::bigint[]) u(id) where p.campaign_id = ${c.campaignId}
             ), claimed as (
               insert into claims (handle, passage_id, user_id, campaign_id, expires_at, ended_at)
               select 'history-' || user_id || '-' || id, id, user_id, campaign_id, now() + interval '10 minutes', case when n <= 150 then now() end
               from picked where n <= 150 or (n = 151 and user_id = ${a.id})
               returning id, passage_id, user_id, ended_at
             )
             insert into judgments (passage_id, user_id, claim_id, campaign_id, batch_id, verdict, duration_ms, idempotency_key, request_hash)
             select k.passage_id, k.user_id, k.id, p.campaign_id, p.batch_id, 'insufficient', 1000, 'history-' || k.id, 'history'
             from claimed k join passages p on p.id = k.passage_id where k.ended_at is not null`,
          );
          await s.run(
            `update judgments set created_at = created_at - interval '1 day' where user_id = ${a.id} and id not in (select id from judgments where user_id = ${a.id} order by id desc limit 10)`,
          );
          await s.run(
            `insert into judgments (passage_id, user_id, campaign_id, batch_id, verdict, duration_ms, idempotency_key, request_hash)
             select p.id, u.id, p.campaign_id, p.batch_id, 'insufficient', 1000, 'filler-' || p.id || '-' || u.id, 'filler'
             from passages p cross join unnest(array[${others.map((o) => o.id).join(",")}]::bigint[]) u(id) where p.campaign_id = ${other.campaignId}`,
          );
          await s.run("select pg_stat_force_next_flush()");

          const stale = await rowsRead();
          console.log(`the plan made for empty tables, rows read per scan:\n  ${stale.join("\n  ")}`);
          // If this fails, the planner no longer keeps such a plan, and the rest proves nothing.
          expect(most(stale)).toBeGreaterThanOrEqual(150);

          expect(await staleTables(db)).toEqual(expect.arrayContaining(["claims", "judgments"]));
          await analyzeTables(db, await staleTables(db)); // the keeper's round
          const fresh = await rowsRead();
          console.log(`after the keeper's round:\n  ${fresh.join("\n  ")}`);
          // One live claim, a question's 3 passages and a's judgments on them (today's count is one row of annotator_days).
          expect(most(fresh)).toBeLessThanOrEqual(10);
        } finally {
          await s.run("reset plan_cache_mode").catch(() => {});
          await s.run(`deallocate ${name}`).catch(() => {});
          await s.end();
        }
      },
    );
  });
}
