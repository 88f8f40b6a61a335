import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { testDatabaseUrl } from "@/test/databases";
import { bootstrap } from "./bootstrap";

// What every worker process (and every machine) does at start, several at once on an empty database.
process.env.KPS_DEMO = "1";
process.env.KPS_ADMIN_USERNAME = "race-admin";
process.env.KPS_ADMIN_PASSWORD = "race-admin-password-1";

describe("bootstrap", () => {
  const url = testDatabaseUrl();
  it.runIf(url)("from three processes at once on an empty PostgreSQL database: one admin, the demo seeded once", { timeout: 120_000 }, async () => {
    const name = `kps_bootstrap_${randomBytes(4).toString("hex")}`;
    const admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(url!);
    target.pathname = `/${name}`;
    // The demo passwords' file goes to .data/ under the working directory: a temporary one here.
    const cwd = process.cwd();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kps-bootstrap-"));
    process.chdir(dir);
    const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ url: target.toString() })));
    try {
      await Promise.all(handles.map((h) => migrateDatabase(h)));
      const outputs = (await Promise.all(handles.map((h) => bootstrap(h)))).map((lines) => lines.join("\n"));
      expect(outputs.filter((o) => o.includes("Seeded the demo campaign"))).toHaveLength(1);
      expect(outputs.filter((o) => o.includes("Created coordinator 'race-admin'"))).toHaveLength(1);
      const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await handles[0]!.db.execute(query))[0]!.n);
      expect(await count(sql`select count(*) as n from campaigns`)).toBe(1);
      expect(await count(sql`select count(*) as n from users where lower(username) = 'race-admin'`)).toBe(1);
      // The admin and the four demo accounts, each once; every process prints the same sign-ins.
      expect(await count(sql`select count(*) as n from users`)).toBe(5);
      const passwords = outputs.map((o) => o.split("\n").filter((l) => l.includes("demo-")).sort().join("\n"));
      expect(new Set(passwords).size).toBe(1);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
      await Promise.all(handles.map((h) => h.close()));
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
