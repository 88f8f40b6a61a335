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
  it.runIf(url)("from three processes at once on an empty PostgreSQL database: one admin, the demo seeded and printed once, by the lead", { timeout: 120_000 }, async () => {
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
    const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await handles[0]!.db.execute(query))[0]!.n);
    try {
      await Promise.all(handles.map((h) => migrateDatabase(h)));
      // A follower alone never seeds: the demo waits for the lead (the primary's first worker).
      expect((await bootstrap(handles[1]!, "follow")).join("\n")).not.toMatch(/demo|KILT Provenance Studio/i);
      expect(await count(sql`select count(*) as n from campaigns`)).toBe(0);
      const outputs = (await Promise.all(handles.map((h, i) => bootstrap(h, i === 0 ? "lead" : "follow")))).map((lines) => lines.join("\n"));
      const all = outputs.join("\n");
      const times = (re: RegExp) => all.split("\n").filter((l) => re.test(l)).length;
      expect(times(/Seeded the demo campaign/)).toBe(1);
      expect(outputs[0]).toContain("Seeded the demo campaign");
      expect(times(/^Demo sign-ins/)).toBe(1);
      expect(times(/^ {2}\w+ +demo-/)).toBe(4);
      expect(times(/^KILT Provenance Studio — database/)).toBe(1);
      expect(times(/Created coordinator 'race-admin'/)).toBe(0); // the follower alone made it, before
      expect(await count(sql`select count(*) as n from campaigns`)).toBe(1);
      expect(await count(sql`select count(*) as n from users where lower(username) = 'race-admin'`)).toBe(1);
      // The admin and the four demo accounts, each once.
      expect(await count(sql`select count(*) as n from users`)).toBe(5);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
      await Promise.all(handles.map((h) => h.close()));
      await admin.unsafe(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
