import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { apiTokens, sessions, users } from "@/db/schema";
import { anonymous, system } from "@/lib/auth/actor";
import { createApiToken } from "@/lib/auth/api-tokens";
import { hashPassword } from "@/lib/auth/crypto";
import { resolveActor, signIn } from "@/lib/auth/sessions";
import { useEmptyPglite } from "@/test/databases";
import { DEMO_ACCOUNTS, seedDemo } from "./demo";
import {
  demoCredentialsPath,
  demoSignInsNote,
  ensureDemoPasswords,
  newDemoPasswords,
  PUBLISHED_DEMO_PASSWORD,
  readDemoCredentials,
  writeDemoCredentials,
} from "./demo-credentials";

// A database seeded as on first start, then aged: as if an older version had seeded it.
describe("demo passwords [pglite, empty]", () => {
  const database = useEmptyPglite();
  const db = () => database().db;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-demo-"));
  const file = demoCredentialsPath("pglite", dir);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  let address = 0;
  const trySignIn = (username: string, password: string) => signIn(db(), anonymous, { username, password, address: `a${address++}` });

  it("are random per database, kept in a file only its owner reads, and the published one never works", async () => {
    const first = newDemoPasswords();
    const second = newDemoPasswords();
    for (const a of DEMO_ACCOUNTS) {
      expect(first[a.username]).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(first[a.username]).not.toBe(second[a.username]);
    }
    expect(new Set(Object.values(first)).size).toBe(DEMO_ACCOUNTS.length);
    writeDemoCredentials(file, first);
    expect(file).toBe(path.join(dir, "demo-credentials.txt"));
    expect(demoCredentialsPath("postgres", dir)).toBe(path.resolve(".data", "demo-credentials-postgres.txt"));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readDemoCredentials(file)).toEqual(first);

    await seedDemo(db(), system, first);
    for (const a of DEMO_ACCOUNTS) {
      await expect(trySignIn(a.username, PUBLISHED_DEMO_PASSWORD)).rejects.toMatchObject({ code: "unauthorized" });
      expect((await trySignIn(a.username, first[a.username])).user.role).toBe(a.role);
    }
    const again = await ensureDemoPasswords(db(), system, file);
    expect(again.rotated).toEqual([]);
    expect(again.accounts.map((a) => a.password)).toEqual(DEMO_ACCOUNTS.map((a) => first[a.username]));
    expect(demoSignInsNote(again.accounts, file)).toBe(`demo sign-ins in ${file}`);
  });

  it("replace the published password on start, revoking the sessions and tokens it opened", async () => {
    const coordinator = DEMO_ACCOUNTS[0].username;
    const published = await hashPassword(PUBLISHED_DEMO_PASSWORD);
    await db()
      .update(users)
      .set({ passwordHash: published })
      .where(sql`${users.username} like 'demo-%'`);
    fs.rmSync(file); // as before: no file
    const session = await trySignIn(coordinator, PUBLISHED_DEMO_PASSWORD);
    const token = await createApiToken(db(), await resolveActor(db(), { sessionToken: session.sessionToken }), { name: "left behind" });

    const ensured = await ensureDemoPasswords(db(), system, file);
    expect(ensured.rotated).toEqual(DEMO_ACCOUNTS.map((a) => a.username));
    const filed = readDemoCredentials(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const a of ensured.accounts) expect(filed[a.username]).toBe(a.password);
    await expect(trySignIn(coordinator, PUBLISHED_DEMO_PASSWORD)).rejects.toMatchObject({ code: "unauthorized" });
    expect((await trySignIn(coordinator, filed[coordinator]!)).user.role).toBe("coordinator");
    expect((await resolveActor(db(), { sessionToken: session.sessionToken })).kind).toBe("anonymous");
    await expect(resolveActor(db(), { bearerToken: token.token })).rejects.toMatchObject({ code: "unauthorized" });
    const [revoked] = await db().select().from(sessions).where(eq(sessions.userId, session.user.id)).limit(1);
    expect(revoked?.revokedAt).not.toBeNull();
    expect((await db().select().from(apiTokens).where(eq(apiTokens.id, token.id)))[0]?.revokedAt).not.toBeNull();
  });

  it("show a password changed since as not known, and keep the rest", async () => {
    const [annotator] = DEMO_ACCOUNTS.filter((a) => a.role === "annotator");
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword("chosen by its owner") })
      .where(eq(users.username, annotator!.username));
    const before = readDemoCredentials(file);
    const ensured = await ensureDemoPasswords(db(), system, file);
    expect(ensured.rotated).toEqual([]);
    expect(ensured.accounts.find((a) => a.username === annotator!.username)?.password).toBeNull();
    expect(readDemoCredentials(file)).toEqual(before);
    expect(demoSignInsNote(ensured.accounts, file)).toContain(`${annotator!.username}: password changed since`);
  });
});
