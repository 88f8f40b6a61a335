import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { checkInvariants } from "./invariants";
import {
  Client,
  ADMIN,
  alive,
  childPids,
  freshPostgresDatabase,
  makeAnnotators,
  makeCampaign,
  runLoad,
  startServer,
  tempDataDir,
  waitHealthy,
} from "./harness";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PORT = Number(process.env.KPS_SOAK_PORT ?? 3700);

/**
 * Drains the campaign after a restart, waiting out the killed requests' leases (30 s). `refillMs`
 * counts from the kill (`killedAt`), not from the restart: the leases began before the kill, and a
 * restart slowed by a loaded machine must not make the wait look short.
 */
async function drainAfterLeases(
  campaignId: number,
  annotators: Awaited<ReturnType<typeof makeAnnotators>>,
  admin: Client,
  killedAt: number,
) {
  const started = Date.now();
  const acked = [];
  for (;;) {
    const load = runLoad(campaignId, annotators, { untilDrained: true });
    await load.done;
    acked.push(...load.result.acked);
    const d = (await admin.call("GET", `/api/campaigns/${campaignId}/dashboard`)).json.dashboard;
    if (d.totals.filled === d.totals.slots) return { acked, refillMs: Date.now() - killedAt };
    if (Date.now() - started > 150_000) throw new Error(`not refilled after 150 s: ${d.totals.filled} of ${d.totals.slots}`);
    await sleep(3_000);
  }
}

/** Waits until `check` holds, at most `timeoutMs`. */
async function until(what: string, check: () => boolean, timeoutMs: number) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

/**
 * The three cases: on PostgreSQL with two worker processes (KPS_WORKERS=2), kill -9 of the primary
 * (the workers must go with it, freeing the port) and kill -9 of one worker (the primary starts
 * another, the other worker serves meanwhile); on PGlite, kill -9 of its one process (KPS_WORKERS=2
 * is asked and ignored there).
 */
type Case = "postgres, primary killed" | "postgres, worker killed" | "pglite";

describe("kill -9 of the app under concurrent submissions", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {}); // last made, first undone
  });

  // One after the other: three servers (two of them three processes each) at once overload a
  // two-core machine past the test's time limit.
  it.each(["postgres, primary killed", "postgres, worker killed", "pglite"] as Case[])(
    "[%s] keeps every acknowledged judgment, never exceeds R, and refills the killed requests' slots after their lease",
    async (kind) => {
      let env: Record<string, string>;
      let open: () => ReturnType<typeof openDatabase>;
      if (kind !== "pglite") {
        const db = await freshPostgresDatabase();
        cleanups.push(db.drop);
        env = { DATABASE_URL: db.url, KPS_WORKERS: "2" };
        open = () => openDatabase({ url: db.url });
      } else {
        const { dir, remove } = tempDataDir();
        cleanups.push(remove);
        env = { KPS_DATA_DIR: dir, KPS_WORKERS: "2" };
        open = () => openDatabase({ dataDir: dir });
      }
      const port = PORT + { "postgres, primary killed": 0, pglite: 1, "postgres, worker killed": 4 }[kind];
      let server = startServer(port, env);
      cleanups.push(() => server.stop());
      await waitHealthy(server.url, 120_000);
      if (kind === "pglite") expect(server.output()).toContain("KPS_WORKERS=2 is for PostgreSQL");
      else {
        expect(server.output()).toContain("(2 workers)");
        expect(childPids(server.pid)).toHaveLength(2);
      }
      const admin = new Client(server.url);
      await admin.signIn(ADMIN.username, ADMIN.password);
      const { campaignId, passages } = await makeCampaign(admin, 40);
      const annotators = await makeAnnotators(admin, server.url, 12);

      const load = runLoad(campaignId, annotators);
      const started = Date.now();
      while (load.result.acked.length < 90 && Date.now() - started < 30_000) await sleep(50);
      let restartMs: number;
      let killedAt: number;
      let killedClaims = 0;
      if (kind === "postgres, worker killed") {
        const [victim, survivor] = childPids(server.pid);
        process.kill(victim!, "SIGKILL"); // in the middle of the load
        const ackedAtKill = load.result.acked.length;
        killedAt = Date.now();
        // The other worker goes on serving while the primary starts a new one (after its back-off).
        await until("30 more judgments acknowledged after the kill", () => load.result.acked.length >= ackedAtKill + 30, 30_000);
        await until("a new worker serving", () => /Worker \d+ serves again/.test(server.output()), 60_000);
        restartMs = Date.now() - killedAt;
        expect(childPids(server.pid)).toHaveLength(2);
        expect(childPids(server.pid)).toContain(survivor);
        expect(childPids(server.pid)).not.toContain(victim);
        expect(server.output()).toMatch(new RegExp(`Worker ${victim} died \\(signal SIGKILL\\); a new worker starts in \\d+ ms`));
        await load.stop();
      } else {
        const workers = childPids(server.pid);
        killedAt = Date.now();
        await server.kill(); // SIGKILL in the middle of the load
        await load.stop();
        // No orphan: the workers end with their primary, and the port and the data are free again.
        await until("the workers gone with their primary", () => workers.every((pid) => !alive(pid)), 10_000);
        server = startServer(port, env);
        restartMs = await waitHealthy(server.url, 120_000);
        // The killed requests' claims still hold their slots (until their lease ends), and never twice.
        const after = (await admin.call("GET", `/api/campaigns/${campaignId}/dashboard`)).json.dashboard;
        killedClaims = after.totals.claimed;
        expect(after.totals.claimed).toBeGreaterThan(0);
        expect(after.totals.filled + after.totals.claimed + after.totals.open).toBe(after.totals.slots);
      }
      const beforeKill = load.result.acked;
      expect(beforeKill.length).toBeGreaterThan(0);
      // Other annotators finish the batch: the last slots come free only when those leases expire.
      // (The killed annotators would get their own live claim back at once; they stay away.)
      const others = await makeAnnotators(admin, server.url, 12);
      const drained = await drainAfterLeases(campaignId, others, admin, killedAt);
      // The killed requests' claims were made at most a few seconds before the kill, so their
      // 30 s leases end more than 20 s after it: no slot of theirs is handed out before.
      if (killedClaims) expect(drained.refillMs).toBeGreaterThan(20_000);
      await server.stop();

      const handle = await open();
      try {
        const report = await checkInvariants(handle.db, campaignId, [...beforeKill, ...drained.acked]);
        console.log(
          `[soak] kill -9 (${kind}): ${beforeKill.length} judgments acknowledged around the kill (${load.result.errors} requests cut off), ` +
            `${kind === "postgres, worker killed" ? "new worker" : "restart"} ${restartMs} ms, ${killedClaims} slots held by the killed requests' claims, all slots filled ${Math.round(drained.refillMs / 1000)} s after the kill; ` +
            `${report.judgments} judgments on ${report.passages} passages, missing ${report.ackedMissing}, over R ${report.overR}, counter mismatches ${report.counterMismatches}`,
        );
        expect(report).toMatchObject({ ackedMissing: 0, overR: 0, counterMismatches: 0, incomplete: 0, passages, judgments: 3 * passages });
      } finally {
        await handle.close();
      }
    },
  );
});
