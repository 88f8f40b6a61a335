import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { DatabaseKind, Db } from "@/db/client";
import { apiTokens, sessions, users } from "@/db/schema";
import { requireSystem, type Actor } from "@/lib/auth/actor";
import { hashPassword, verifyPassword } from "@/lib/auth/crypto";
import { credentialsChanged } from "@/lib/auth/sessions";
import { DEMO_ACCOUNTS } from "./demo";

export type DemoUsername = (typeof DEMO_ACCOUNTS)[number]["username"];
export type DemoPasswords = Record<DemoUsername, string>;

/** The password the demo accounts once had. It was published (README, logs), so it never works again. */
export const PUBLISHED_DEMO_PASSWORD = "kilt-demo";

/**
 * Where the demo passwords are kept: in the embedded database's data directory (so a new data
 * directory gets new passwords); on PostgreSQL (KPS_DEMO=1), in .data/ under the working directory.
 */
export function demoCredentialsPath(kind: DatabaseKind, dataDir: string): string {
  return kind === "pglite" ? path.resolve(dataDir, "demo-credentials.txt") : path.resolve(".data", "demo-credentials-postgres.txt");
}

/** A random password for each demo account (96 bits each). */
export function newDemoPasswords(): DemoPasswords {
  return Object.fromEntries(DEMO_ACCOUNTS.map((a) => [a.username, randomBytes(12).toString("base64url")])) as DemoPasswords;
}

/** The passwords in the file (`username password` per line); none when it is missing. */
export function readDemoCredentials(file: string): Partial<DemoPasswords> {
  if (!fs.existsSync(file)) return {};
  const known: Partial<DemoPasswords> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const [username, password] = line.trim().split(/\s+/);
    const account = DEMO_ACCOUNTS.find((a) => a.username === username);
    if (account && password && !line.trimStart().startsWith("#")) known[account.username] = password;
  }
  return known;
}

/** Writes the file readable by its owner only (mode 0600), replacing it whole. */
export function writeDemoCredentials(file: string, passwords: Partial<DemoPasswords>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lines = [
    "# KILT Provenance Studio: the demo sign-ins of this database (random, made on its first start).",
    "# username password",
    ...DEMO_ACCOUNTS.filter((a) => passwords[a.username]).map((a) => `${a.username} ${passwords[a.username]}`),
  ];
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, lines.join("\n") + "\n", { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

export interface DemoSignIn {
  username: DemoUsername;
  role: "coordinator" | "annotator";
  /** Null when the account's password was changed since: it is not known here. */
  password: string | null;
}

/**
 * Start-up (the system only), for a database seeded with the demo: each demo account with the
 * password the file holds for it. An account that still has the published password gets the file's
 * (or a new random) one, written to the file first; its sessions and API tokens are revoked.
 */
export async function ensureDemoPasswords(
  db: Db,
  actor: Actor,
  file: string,
): Promise<{ accounts: DemoSignIn[]; rotated: DemoUsername[] }> {
  requireSystem(actor);
  const known = readDemoCredentials(file);
  const accounts: DemoSignIn[] = [];
  const toRotate: { id: number; username: DemoUsername }[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const [row] = await db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(sql`lower(${users.username}) = ${account.username}`);
    if (!row?.passwordHash) continue;
    const filed = known[account.username];
    if (filed && (await verifyPassword(row.passwordHash, filed))) {
      accounts.push({ ...account, password: filed });
    } else if (await verifyPassword(row.passwordHash, PUBLISHED_DEMO_PASSWORD)) {
      known[account.username] = filed ?? newDemoPasswords()[account.username];
      toRotate.push({ id: row.id, username: account.username });
      accounts.push({ ...account, password: known[account.username]! });
    } else {
      accounts.push({ ...account, password: null });
    }
  }
  if (toRotate.length) writeDemoCredentials(file, known);
  for (const { id, username } of toRotate) {
    const passwordHash = await hashPassword(known[username]!);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
      await tx
        .update(apiTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiTokens.userId, id), isNull(apiTokens.revokedAt)));
    });
  }
  if (toRotate.length) credentialsChanged(); // this process's cached sessions and tokens go at once
  return { accounts, rotated: toRotate.map((r) => r.username) };
}

/** The start line's note on the demo sign-ins: where they are kept (never the passwords themselves). */
export function demoSignInsNote(accounts: DemoSignIn[], file: string): string | undefined {
  if (!accounts.length) return undefined;
  const changed = accounts.filter((a) => a.password === null).map((a) => a.username);
  return `demo sign-ins in ${file}` + (changed.length ? ` (${changed.join(", ")}: password changed since)` : "");
}
