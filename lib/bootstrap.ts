import type { DatabaseHandle } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { countUsers, ensureAdmin } from "@/lib/auth/users";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDemoSeeded, seedDemo } from "@/lib/campaign/demo";
import { dropStaleStagingTables } from "@/lib/campaign/import/import-knowledge";
import { env } from "@/lib/env";

/** Start-up work after migrations: the admin from the environment, and the demo on first start. */
export async function bootstrap(handle: DatabaseHandle): Promise<string[]> {
  const { db, kind } = handle;
  const { KPS_ADMIN_USERNAME, KPS_ADMIN_PASSWORD, KPS_DEMO } = env();
  const lines: string[] = [`KILT Provenance Studio — database: ${kind} (${handle.location})`];
  const stale = await dropStaleStagingTables(db);
  if (stale) lines.push(`Dropped ${stale} staging table(s) left by an interrupted knowledge import.`);
  if (KPS_ADMIN_USERNAME && KPS_ADMIN_PASSWORD) {
    const created = await ensureAdmin(db, system, { username: KPS_ADMIN_USERNAME, password: KPS_ADMIN_PASSWORD });
    if (created) lines.push(`Created coordinator '${KPS_ADMIN_USERNAME}' from KPS_ADMIN_USERNAME.`);
  }
  const demoWanted = KPS_DEMO ? KPS_DEMO === "1" : kind === "pglite";
  let seeded = await isDemoSeeded(db);
  // The demo comes with a first start only: never into a database that already has people in it.
  if (demoWanted && !seeded && (await countUsers(db, system)) <= (KPS_ADMIN_USERNAME ? 1 : 0)) {
    await seedDemo(db, system);
    seeded = true;
    lines.push("Seeded the demo campaign (db/demo/).");
  }
  if (seeded) {
    lines.push(`Demo sign-ins (password '${DEMO_PASSWORD}' for each):`);
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.role.padEnd(11)} ${a.username}`);
  } else if ((await countUsers(db, system)) === 0) {
    lines.push("No user yet: open /setup in the browser to create the first coordinator.");
  }
  return lines;
}
