import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { system, type Actor } from "@/lib/auth/actor";
import { listUsers } from "@/lib/auth/users";
import { listCampaigns, listMyCampaigns } from "@/lib/campaign/campaigns";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { campaignListQuerySchema, userListQuerySchema, type Page } from "./list-options";

const USERS = 10_000;
const CAMPAIGNS = 2_000;

/** 10,000 annotators and 2,000 campaigns in two statements; the campaigns all-annotator but the last, which has one member. */
async function seed(db: Db, prefix: string) {
  await db.execute(sql`
    insert into users (username, role, pseudonym)
    select ${prefix} || '-user-' || lpad(i::text, 5, '0'), 'annotator', ${prefix} || '-p-' || i from generate_series(1, ${USERS}) i`);
  await db.execute(sql`
    insert into campaigns (name, all_annotators)
    select ${prefix} || '-campaign-' || lpad(i::text, 4, '0'), i < ${CAMPAIGNS} from generate_series(1, ${CAMPAIGNS}) i`);
}

/** Reads every page of a list, checking each is at most `limit` rows and the order strictly newest first. */
async function readAll<T extends { id: number }>(read: (after?: number) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const all: T[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await read(after);
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    all.push(...page.rows);
    if (page.next === null) break;
    after = page.next;
  }
  for (let i = 1; i < all.length; i++) expect(all[i]!.id).toBeLessThan(all[i - 1]!.id);
  return all;
}

async function timed<T>(label: string, kind: string, f: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await f();
  console.log(`${label} [${kind}]: ${(performance.now() - start).toFixed(1)} ms`);
  return result;
}

describeEachDatabase("lists with 10,000 users and 2,000 campaigns", ({ db, kind }) => {
  const prefix = unique("big");
  const coordinator: Actor = system;

  it("pages, searches and filters accounts", { timeout: 120_000 }, async () => {
    await seed(db(), prefix);
    const first = await timed("first page of users", kind, () => listUsers(db(), coordinator, { limit: 50 }));
    expect(first.rows).toHaveLength(50);
    expect(first.next).not.toBeNull();

    const all = await readAll((after) => listUsers(db(), coordinator, { q: `${prefix}-user-`, after, limit: 500 }), 500);
    expect(all).toHaveLength(USERS);
    expect(new Set(all.map((u) => u.id)).size).toBe(USERS);
    // Newest first: the first user made is on the last page, and a search finds it at once.
    expect(all.at(-1)!.username).toBe(`${prefix}-user-00001`);
    const found = await timed("search for the oldest user", kind, () => listUsers(db(), coordinator, { q: `${prefix}-user-00001`, limit: 50 }));
    expect(found.rows.map((u) => u.username)).toEqual([`${prefix}-user-00001`]);
    expect(found.next).toBeNull();

    // Filters: role, membership; `%` and `_` are plain characters.
    expect((await listUsers(db(), coordinator, { q: prefix, role: "coordinator", limit: 50 })).rows).toEqual([]);
    const [lastCampaign] = (await listCampaigns(db(), coordinator, { q: `${prefix}-campaign-${CAMPAIGNS}`, limit: 1 })).rows;
    const member = all[1234]!;
    await db().execute(sql`insert into campaign_members (campaign_id, user_id) values (${lastCampaign!.id}, ${member.id})`);
    expect((await listUsers(db(), coordinator, { memberOf: lastCampaign!.id, limit: 50 })).rows.map((u) => u.id)).toEqual([member.id]);
    expect((await listUsers(db(), coordinator, { q: `${prefix}%user`, limit: 50 })).rows).toEqual([]);
    expect((await listUsers(db(), coordinator, { q: `${prefix}_user`, limit: 50 })).rows).toEqual([]);
  });

  it("pages and searches campaigns, the coordinator's and an annotator's", { timeout: 120_000 }, async () => {
    const first = await timed("first page of campaigns", kind, () => listCampaigns(db(), coordinator, { limit: 50 }));
    expect(first.rows).toHaveLength(50);
    expect(first.next).not.toBeNull();
    const all = await readAll((after) => listCampaigns(db(), coordinator, { q: `${prefix}-campaign-`, after, limit: 500 }), 500);
    expect(all).toHaveLength(CAMPAIGNS);
    expect(all.at(-1)).toMatchObject({ name: `${prefix}-campaign-0001`, status: "empty", batches: 0, queries: 0, passages: 0 });
    const found = await listCampaigns(db(), coordinator, { q: `${prefix}-campaign-0001`, limit: 50 });
    expect(found.rows.map((c) => c.name)).toEqual([`${prefix}-campaign-0001`]);

    const [user] = (await listUsers(db(), coordinator, { q: `${prefix}-user-00002`, limit: 1 })).rows;
    const annotator: Actor = { kind: "user", id: user!.id, username: user!.username, role: "annotator", via: "session" };
    const mine = await timed("first page of an annotator's campaigns", kind, () => listMyCampaigns(db(), annotator, { limit: 50 }));
    expect(mine.rows).toHaveLength(50);
    const allMine = await readAll((after) => listMyCampaigns(db(), annotator, { q: `${prefix}-campaign-`, after, limit: 500 }), 500);
    // Every all-annotator campaign; not the last one, which has one other member.
    expect(allMine).toHaveLength(CAMPAIGNS - 1);
    expect(allMine.some((c) => c.name === `${prefix}-campaign-${CAMPAIGNS}`)).toBe(false);
    await expect(listCampaigns(db(), annotator, { limit: 1 })).rejects.toBeInstanceOf(AppError);
    await expect(listUsers(db(), annotator, { limit: 1 })).rejects.toBeInstanceOf(AppError);
  });
});

it("refuses hostile list options, naming the field", () => {
  const problems = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path.join("."));
  expect(problems(userListQuerySchema.safeParse({ limit: "0" }))).toEqual(["limit"]);
  expect(problems(userListQuerySchema.safeParse({ limit: "501" }))).toEqual(["limit"]);
  expect(problems(userListQuerySchema.safeParse({ after: "-1" }))).toEqual(["after"]);
  expect(problems(userListQuerySchema.safeParse({ after: "1 or 1=1" }))).toEqual(["after"]);
  expect(problems(userListQuerySchema.safeParse({ role: "admin" }))).toEqual(["role"]);
  expect(problems(userListQuerySchema.safeParse({ memberOf: "x" }))).toEqual(["memberOf"]);
  expect(problems(campaignListQuerySchema.safeParse({ q: "x".repeat(201) }))).toEqual(["q"]);
  expect(campaignListQuerySchema.parse({ q: "  '); drop table users; --  " })).toEqual({ q: "'); drop table users; --", limit: 50 });
});
