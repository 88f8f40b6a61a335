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
  it.runIf(url)(
    "from three processes at once on an empty PostgreSQL database: one admin, the demo seeded and printed once, by the lead",
    { timeout: 120_000 },
    async () => {
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
        const alone = await bootstrap(handles[1]!, "follow");
        expect(alone.summary).toBeUndefined();
        expect(alone.notes.join("\n")).not.toMatch(/demo|database:/i);
        expect(await count(sql`select count(*) as n from campaigns`)).toBe(0);
        const reports = await Promise.all(handles.map((h, i) => bootstrap(h, i === 0 ? "lead" : "follow")));
        // What each would print: its notes, then its summary (the lead's only: the "Ready" line's end).
        const outputs = reports.map((r) => [...r.notes, ...(r.summary ? [r.summary] : [])].join("\n"));
        const all = outputs.join("\n");
        const times = (re: RegExp) => all.split("\n").filter((l) => re.test(l)).length;
        expect(reports[0]!.summary).toMatch(
          /^database: postgres \(.*\); demo campaign seeded from db\/demo\/, its demo sign-ins in \S+demo-credentials-postgres\.txt$/,
        );
        expect(reports.slice(1).map((r) => r.summary)).toEqual([undefined, undefined]);
        expect(times(/demo/i)).toBe(1);
        expect(all).not.toMatch(/demo-annotator|demo-coordinator/); // no account, no password on the console
        expect(times(/database:/)).toBe(1);
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
    },
  );
});
