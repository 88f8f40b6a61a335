import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { checkInvariants } from "./invariants";
import { Client, ADMIN, freshPostgresDatabase, makeAnnotators, makeCampaign, runLoad, startServer, waitHealthy } from "./harness";
import { createPrivatePostgres, hasPostgresBinaries } from "./private-postgres";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PORT = Number(process.env.KPS_SOAK_PORT ?? 3700) + 2;

/** The private cluster's port (not the machine's 5432: other test runs use that one meanwhile). */
const PG_PORT = Number(process.env.KPS_SOAK_PG_PORT ?? 5499);

async function untilReady(timeoutMs: number) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      execFileSync("pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(PG_PORT)]);
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error("PostgreSQL did not come back");
}

describe.runIf(hasPostgresBinaries())("PostgreSQL restarted under load (a private cluster, two app workers)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {}); // last made, first undone
  });

  it("answers 503 during the outage, writes nothing half, and recovers by itself", async () => {
    const pg = createPrivatePostgres(PG_PORT);
    cleanups.push(async () => pg.remove());
    const db = await freshPostgresDatabase(pg.base);
    const server = startServer(PORT, { DATABASE_URL: db.url, KPS_WORKERS: "2" });
    cleanups.push(() => server.stop());
    await waitHealthy(server.url, 120_000);
    const admin = new Client(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const { campaignId } = await makeCampaign(admin, 40);
    const annotators = await makeAnnotators(admin, server.url, 10);

    const load = runLoad(campaignId, annotators);
    while (load.result.acked.length < 60) await sleep(50);
    const beforeOutage = load.result.acked.length;
    pg.stop();
    const outageStarted = Date.now();
    await sleep(3_000); // requests keep coming during the outage
    const during = new Map(load.result.statuses);
    pg.start();
    await untilReady(30_000);
    const outageMs = Date.now() - outageStarted;
    // The app reconnects by itself: judgments are acknowledged again within a few seconds.
    const ackedAtRestart = load.result.acked.length;
    const recoverStarted = Date.now();
    while (load.result.acked.length < ackedAtRestart + 30) {
      if (Date.now() - recoverStarted > 30_000)
        throw new Error(`no recovery: ${JSON.stringify([...load.result.statuses])}\n${server.output().slice(-3000)}`);
      await sleep(50);
    }
    const recoveryMs = Date.now() - recoverStarted;
    await load.stop();
    // Both workers reconnected (round robin: consecutive requests go to both).
    for (let i = 0; i < 4; i++) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(server.output()).toContain("(2 workers)");
    expect(server.output()).not.toMatch(/Worker \d+ died/);

    const statuses = Object.fromEntries(load.result.statuses);
    console.log(
      `[soak] PostgreSQL restart: outage ${outageMs} ms; ${beforeOutage} judgments before, ${load.result.acked.length} acknowledged in all; ` +
        `answers ${JSON.stringify(statuses)}; judgments acknowledged again ${recoveryMs} ms after PostgreSQL was back`,
    );
    expect(during.get(503) ?? 0).toBeGreaterThan(0); // the outage was seen, as 503s
    expect(statuses["500"]).toBeUndefined(); // never an unexplained error

    const handle = await openDatabase({ url: db.url });
    try {
      const report = await checkInvariants(handle.db, campaignId, load.result.acked);
      expect(report).toMatchObject({ ackedMissing: 0, overR: 0, counterMismatches: 0 });
    } finally {
      await handle.close();
    }
  });
});
