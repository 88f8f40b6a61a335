import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { checkInvariants } from "./invariants";
import { Client, ADMIN, freshPostgresDatabase, makeAnnotators, makeCampaign, runLoad, startServer, tempDataDir, waitHealthy } from "./harness";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PORT = Number(process.env.KPS_SOAK_PORT ?? 3700);

/** Drains the campaign after a restart, waiting out the killed requests' leases (1 minute). */
async function drainAfterLeases(url: string, campaignId: number, annotators: Awaited<ReturnType<typeof makeAnnotators>>, admin: Client) {
  const started = Date.now();
  const acked = [];
  for (;;) {
    const load = runLoad(campaignId, annotators, { untilDrained: true });
    await load.done;
    acked.push(...load.result.acked);
    const d = (await admin.call("GET", `/api/campaigns/${campaignId}/dashboard`)).json.dashboard;
    if (d.totals.filled === d.totals.slots) return { acked, refillMs: Date.now() - started };
    if (Date.now() - started > 150_000) throw new Error(`not refilled after 150 s: ${d.totals.filled} of ${d.totals.slots}`);
    await sleep(3_000);
  }
}

describe("kill -9 of the app under concurrent submissions", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {}); // last made, first undone
  });

  // Both databases at once (their own servers, ports and data): the minute of lease each waits out overlaps.
  it.concurrent.each(["postgres", "pglite"] as const)("[%s] keeps every acknowledged judgment, never exceeds R, and refills the killed requests' slots after their lease", async (kind) => {
    let env: Record<string, string>;
    let open: () => ReturnType<typeof openDatabase>;
    if (kind === "postgres") {
      const db = await freshPostgresDatabase();
      cleanups.push(db.drop);
      env = { DATABASE_URL: db.url };
      open = () => openDatabase({ url: db.url });
    } else {
      const { dir, remove } = tempDataDir();
      cleanups.push(remove);
      env = { KPS_DATA_DIR: dir };
      open = () => openDatabase({ dataDir: dir });
    }
    const port = PORT + (kind === "postgres" ? 0 : 1);
    let server = startServer(port, env);
    cleanups.push(() => server.stop());
    await waitHealthy(server.url, 120_000);
    const admin = new Client(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const { campaignId, passages } = await makeCampaign(admin, 40);
    const annotators = await makeAnnotators(admin, server.url, 12);

    const load = runLoad(campaignId, annotators);
    const started = Date.now();
    while (load.result.acked.length < 90 && Date.now() - started < 30_000) await sleep(50);
    await server.kill(); // SIGKILL in the middle of the load
    await load.stop();
    const beforeKill = load.result.acked;
    expect(beforeKill.length).toBeGreaterThan(0);

    server = startServer(port, env);
    const restartMs = await waitHealthy(server.url, 120_000);
    // The killed requests' claims still hold their slots (until their lease ends), and never twice.
    const after = (await admin.call("GET", `/api/campaigns/${campaignId}/dashboard`)).json.dashboard;
    expect(after.totals.claimed).toBeGreaterThan(0);
    expect(after.totals.filled + after.totals.claimed + after.totals.open).toBe(after.totals.slots);
    // Other annotators finish the batch: the last slots come free only when those leases expire.
    // (The killed annotators would get their own live claim back at once; they stay away.)
    const others = await makeAnnotators(admin, server.url, 12);
    const drained = await drainAfterLeases(server.url, campaignId, others, admin);
    expect(drained.refillMs).toBeGreaterThan(20_000);
    await server.stop();

    const handle = await open();
    try {
      const report = await checkInvariants(handle.db, campaignId, [...beforeKill, ...drained.acked]);
      console.log(
        `[soak] kill -9 (${kind}): ${beforeKill.length} judgments acknowledged before the kill (${load.result.errors} requests cut off), ` +
          `restart ${restartMs} ms, ${after.totals.claimed} slots held by the killed requests' claims, all slots filled ${Math.round(drained.refillMs / 1000)} s after the restart (lease 60 s); ` +
          `${report.judgments} judgments on ${report.passages} passages, missing ${report.ackedMissing}, over R ${report.overR}, counter mismatches ${report.counterMismatches}`,
      );
      expect(report).toMatchObject({ ackedMissing: 0, overR: 0, counterMismatches: 0, incomplete: 0, passages, judgments: 3 * passages });
    } finally {
      await handle.close();
    }
  });
});
