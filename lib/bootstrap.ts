import "server-only";
import type { DatabaseHandle } from "@/db/client";
import { system } from "@/lib/auth/actor";
import { passwordSchema } from "@/lib/auth/schemas";
import { countUsers, ensureAdmin } from "@/lib/auth/users";
import { DEMO_ACCOUNTS, isDemoSeeded, seedDemo } from "@/lib/campaign/demo";
import {
  demoCredentialsPath,
  demoSignInsNote,
  ensureDemoPasswords,
  newDemoPasswords,
  PUBLISHED_DEMO_PASSWORD,
  writeDemoCredentials,
  type DemoSignIn,
} from "@/lib/campaign/demo-credentials";
import { dropStaleStagingTables } from "@/lib/knowledge/import-knowledge";
import { dropStaleRunStagingTables } from "@/lib/campaign/runs/upload-run";
import { databaseConfig, env } from "@/lib/env";

/**
 * A worker of the cluster either leads start-up (one per primary: it seeds the demo and says where
 * its sign-ins are) or follows (the admin, migrations and clean-up only, and it prints only what it did).
 */
export type StartUpRole = "lead" | "follow";

/**
 * What start-up tells the person who started the app: `summary` (the lead's only) joins the "Ready"
 * line — the database, and where the demo sign-ins are kept; `notes` are lines of their own, printed
 * only when something out of the ordinary happened (files made private, staging tables dropped, an
 * admin created, published passwords replaced, no user yet).
 */
export interface StartUpReport {
  notes: string[];
  summary?: string;
}

/** Arbitrary, fixed key of the advisory lock that makes instances starting together bootstrap in turn. */
const BOOTSTRAP_LOCK_KEY = 4_711_008_002;

/**
 * Start-up work after migrations: the admin from the environment, and the demo on first start
 * (random passwords, kept in a file only the owner can read; the published one is replaced).
 * On PostgreSQL, instances (worker processes, machines) starting at once take turns under a
 * session-level advisory lock: the first seeds the demo, the next find it seeded.
 */
export async function bootstrap(handle: DatabaseHandle, role: StartUpRole = "lead"): Promise<StartUpReport> {
  const client = handle.postgresClient;
  if (handle.kind !== "postgres" || !client) return bootstrapOnce(handle, role);
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${BOOTSTRAP_LOCK_KEY})`;
    return await bootstrapOnce(handle, role);
  } finally {
    await reserved`select pg_advisory_unlock(${BOOTSTRAP_LOCK_KEY})`.catch(() => {});
    reserved.release();
  }
}

async function bootstrapOnce(handle: DatabaseHandle, role: StartUpRole): Promise<StartUpReport> {
  const { db, kind } = handle;
  const { KPS_ADMIN_USERNAME, KPS_ADMIN_PASSWORD } = env();
  const lines: string[] = [...(handle.notes ?? [])];
  if (KPS_ADMIN_PASSWORD !== undefined) assertAdminPasswordPolicy(KPS_ADMIN_PASSWORD);
  const stale = await dropStaleStagingTables(db);
  if (stale) lines.push(`Dropped ${stale} staging table(s) left by an interrupted knowledge import.`);
  const staleRuns = await dropStaleRunStagingTables(db);
  if (staleRuns) lines.push(`Dropped ${staleRuns} staging table(s) left by an interrupted run upload.`);
  if (KPS_ADMIN_USERNAME && KPS_ADMIN_PASSWORD) {
    const created = await ensureAdmin(db, system, { username: KPS_ADMIN_USERNAME, password: KPS_ADMIN_PASSWORD });
    if (created) lines.push(`Created coordinator '${KPS_ADMIN_USERNAME}' from KPS_ADMIN_USERNAME.`);
  }
  // The lead names the database and the sign-ins' file; N workers printing them said it all N times.
  if (role === "follow") return { notes: [...lines, ...(await rotatePublishedDemoPasswords(handle))] };
  const demo = await demoAndSetUp(handle);
  const summary = [`database: ${kind} (${handle.location})`, ...(demo.signIns ? [demo.signIns] : [])].join("; ");
  return { notes: lines.concat(demo.notes), summary };
}

/**
 * A follower's share of the demo: the published password is replaced before this worker serves,
 * whether or not the lead got there first (it says so only if it was the one to do it).
 */
async function rotatePublishedDemoPasswords({ db, kind }: DatabaseHandle): Promise<string[]> {
  if (!(await isDemoSeeded(db))) return [];
  const ensured = await ensureDemoPasswords(db, system, demoCredentialsPath(kind, databaseConfig().dataDir));
  return ensured.rotated.length ? [rotatedLine(ensured.rotated)] : [];
}

const rotatedLine = (rotated: string[]) =>
  `The demo accounts ${rotated.join(", ")} still had the published password '${PUBLISHED_DEMO_PASSWORD}': ` +
  "they have random ones now, and their sessions and API tokens are revoked.";

/** The demo on a first start (or where its sign-ins are, on a later one), else the set-up hint. */
async function demoAndSetUp({ db, kind }: DatabaseHandle): Promise<{ notes: string[]; signIns?: string }> {
  const { KPS_ADMIN_USERNAME, KPS_DEMO } = env();
  const lines: string[] = [];
  const demoWanted = KPS_DEMO ? KPS_DEMO === "1" : kind === "pglite";
  const file = demoCredentialsPath(kind, databaseConfig().dataDir);
  let accounts: DemoSignIn[] | undefined;
  let seeded = false;
  // The demo comes with a first start only: never into a database that already has people in it.
  if (demoWanted && !(await isDemoSeeded(db)) && (await countUsers(db, system)) <= (KPS_ADMIN_USERNAME ? 1 : 0)) {
    const passwords = newDemoPasswords();
    writeDemoCredentials(file, passwords); // first: a crash after seeding must not lose them
    await seedDemo(db, system, passwords);
    seeded = true;
    accounts = DEMO_ACCOUNTS.map((a) => ({ ...a, password: passwords[a.username] }));
  } else if (await isDemoSeeded(db)) {
    const ensured = await ensureDemoPasswords(db, system, file);
    if (ensured.rotated.length) lines.push(rotatedLine(ensured.rotated));
    accounts = ensured.accounts;
  }
  const note = accounts && demoSignInsNote(accounts, file);
  if (note) return { notes: lines, signIns: seeded ? `demo campaign seeded from db/demo/, its ${note}` : note };
  if ((await countUsers(db, system)) === 0) lines.push("No user yet: open /setup in the browser to create the first coordinator.");
  return { notes: lines };
}

/** KPS_ADMIN_PASSWORD meets the policy of every account, or the app does not start. */
function assertAdminPasswordPolicy(password: string): void {
  const policy = passwordSchema.safeParse(password);
  if (policy.success) return;
  const problems = policy.error.issues.map((i) => i.message).join("; ");
  throw new Error(`KPS_ADMIN_PASSWORD ${problems} (the password policy of every account). Choose another and start again.`);
}
