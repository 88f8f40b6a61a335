import { getDatabase } from "@/db/client";
import { bootstrap } from "@/lib/bootstrap";
import { compactTallies } from "@/lib/campaign/tallies.internal";
import { endExpiredCrowdSessions } from "@/lib/crowd/reaper";
import { databaseConfig, env } from "@/lib/env";
import { AUTOVACUUM_OFF, keepStatisticsFresh } from "@/db/maintenance/planner-statistics";

/** How often the server folds the dashboard's tally deltas, whether or not anyone reads them. */
const COMPACT_INTERVAL_MS = 10_000;
/** How often crowd sessions past their time (or of a stopped entry) are ended, when their worker does not come back to end them. */
const CROWD_REAP_INTERVAL_MS = 30_000;

/**
 * Set by server/app-server.mjs before Next.js starts: it prints the "Ready" line, with the summary
 * start-up leaves here. Absent (next dev, a cluster's worker), or when "Ready" is already printed
 * (Next.js ran start-up on the first request), start-up prints the summary itself.
 */
type ReadyLine = { summary?: string; printed?: boolean };

/** Migrates, bootstraps and says where the demo sign-ins are; a locked or unreachable database stops the process. */
export async function startUp(): Promise<void> {
  try {
    const handle = await getDatabase(databaseConfig());
    // Unset in a process of its own; the cluster's primary names one lead among its workers.
    const report = await bootstrap(handle, env().KPS_START_UP ?? "lead");
    if (report.notes.length) console.log(report.notes.join("\n"));
    const ready = (globalThis as { __kpsReady?: ReadyLine }).__kpsReady;
    if (ready && !ready.printed) ready.summary = report.summary;
    else if (report.summary) console.log(report.summary);
    // Readers fold deltas too, but with no dashboard open for days they would pile up (a few rows
    // per judgment). One instance at a time does the work (an advisory try-lock); an outage only
    // skips a round.
    setInterval(() => {
      compactTallies(handle.db, { force: true }).catch(() => {});
    }, COMPACT_INTERVAL_MS).unref();
    setInterval(() => {
      endExpiredCrowdSessions(handle.db).catch(() => {});
    }, CROWD_REAP_INTERVAL_MS).unref();
    // PGlite has no autovacuum (and a PostgreSQL server may run with it off): ANALYZE of the hot
    // tables whenever they changed enough (on PGlite also now); a PostgreSQL server without it is named.
    keepStatisticsFresh(handle, undefined, () => console.warn(AUTOVACUUM_OFF));
    // The production server's fast path (server/fast-path.ts) answers only once this is set.
    (globalThis as { __kpsStartedUp?: boolean }).__kpsStartedUp = true;
  } catch (error) {
    console.error(`\nCannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
