import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Db } from "@/db/client";
import { system, type Actor } from "@/lib/auth/actor";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { listUsers } from "@/lib/auth/users";
import { listBatches } from "@/lib/campaign/batches";
import { listCampaigns, listMyCampaigns } from "@/lib/campaign/campaigns";
import { listStandings } from "@/lib/campaign/quality/standings";
import { annotatorRows } from "@/lib/campaign/report/annotator-rows";
import type { AnnotatorRow } from "@/lib/campaign/report/annotators.contract";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { seedLargeCampaign } from "@/test/large-campaign";
import {
  annotatorListQuerySchema,
  batchListQuerySchema,
  campaignListQuerySchema,
  tokenListQuerySchema,
  userListQuerySchema,
  type AnnotatorSort,
  type Page,
} from "./list-options.contract";

const USERS = 10_000;
const CAMPAIGNS = 2_000;
const BATCHES = 300;
const TOKENS = 300;

/** 10,000 annotators and 2,000 campaigns in two statements; the campaigns all-annotator but the last, which has one member. */
async function seed(db: Db, prefix: string) {
  await db.execute(sql`
    insert into users (username, role, pseudonym)
    select ${prefix} || '-user-' || lpad(i::text, 5, '0'), 'annotator', ${prefix} || '-p-' || i from generate_series(1, ${USERS}) i`);
  await db.execute(sql`
    insert into campaigns (name, all_annotators)
    select ${prefix} || '-campaign-' || lpad(i::text, 4, '0'), i < ${CAMPAIGNS} from generate_series(1, ${CAMPAIGNS}) i`);
}

/** Reads every page of a list (`after` the `next` of the page before), checking each is at most `limit` rows. */
async function readPages<T>(read: (after?: number) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const all: T[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await read(after);
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    all.push(...page.rows);
    if (page.next === null) break;
    after = page.next;
  }
  return all;
}

/** Reads every page of a list, checking each is at most `limit` rows and the order strictly newest first. */
async function readAll<T extends { id: number }>(read: (after?: number) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const all = await readPages(read, limit);
  for (let i = 1; i < all.length; i++) expect(all[i]!.id).toBeLessThan(all[i - 1]!.id);
  return all;
}

/**
 * The annotators' order written out in TypeScript, to hold the database's ranking to: `sort` in `dir`
 * order, null ("no data yet") last either way, ties by user id; names by code unit (collate "C").
 */
function compareAnnotators(a: AnnotatorRow, b: AnnotatorRow, sort: AnnotatorSort, dir: "asc" | "desc"): number {
  const x = a[sort];
  const y = b[sort];
  const sign = dir === "asc" ? 1 : -1;
  let order = 0;
  if (x === null || y === null) order = x === y ? 0 : x === null ? 1 : -1;
  else if (typeof x === "number" && typeof y === "number") order = (x - y) * sign;
  else order = (x < y ? -1 : x > y ? 1 : 0) * sign;
  return order || a.userId - b.userId;
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
    const found = await timed("search for the oldest user", kind, () =>
      listUsers(db(), coordinator, { q: `${prefix}-user-00001`, limit: 50 }),
    );
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

describeEachDatabase("the annotators table at 10,000 members, 300 batches and 300 tokens", ({ db, kind }) => {
  const prefix = unique("members");
  const coordinator: Actor = system;
  let campaignId = 0;

  it("pages the annotators by any column, ties by user id, and finds one by name", { timeout: 180_000 }, async () => {
    await db().execute(sql`
      insert into users (username, role, pseudonym)
      select ${prefix} || '-user-' || lpad(i::text, 5, '0'), 'annotator', ${prefix} || '-p-' || i from generate_series(1, ${USERS}) i`);
    campaignId = await seedLargeCampaign(db(), prefix, { batches: BATCHES, tokens: TOKENS });
    const first = await timed("first page of annotators", kind, () =>
      listStandings(db(), coordinator, campaignId, annotatorListQuerySchema.parse({})),
    );
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.username).toBe(`${prefix}-user-00001`);
    const reference = await annotatorRows(db(), campaignId);
    expect(reference.filter((a) => a.medianSeconds !== null)).toHaveLength(Math.floor(USERS / 3));
    for (const [sort, dir] of [
      ["username", "desc"],
      ["medianSeconds", "desc"],
      ["medianSeconds", "asc"],
      ["status", "desc"],
    ] as [AnnotatorSort, "asc" | "desc"][]) {
      const all = await timed(`every annotator by ${sort} ${dir}`, kind, () =>
        readPages<AnnotatorRow>((after) => listStandings(db(), coordinator, campaignId, { sort, dir, after, limit: 500 }), 500),
      );
      expect(all).toHaveLength(USERS);
      expect(new Set(all.map((a) => a.userId)).size).toBe(USERS);
      for (let i = 1; i < all.length; i++)
        expect(compareAnnotators(all[i - 1]!, all[i]!, sort, dir), `${sort} ${dir} at ${i}`).toBeLessThan(0);
      // The figures computed in SQL are those of the TypeScript rules (annotatorRowsOf over the tallies).
      expect(all).toEqual(reference.toSorted((a, b) => compareAnnotators(a, b, sort, dir)));
      if (sort === "medianSeconds") {
        // "No data yet" last either way: a third have judged.
        expect(all.findIndex((a) => a.medianSeconds === null)).toBe(Math.floor(USERS / 3));
        expect(all.at(-1)!.medianSeconds).toBeNull();
      }
    }
    // Pages of the default size follow each other; the same page asked twice (the 5 s refresh) is the same page.
    const byJudgments = (after?: number) =>
      listStandings(db(), coordinator, campaignId, { sort: "judgments", dir: "desc", after, limit: 50 });
    const one = await byJudgments();
    const two = await byJudgments(one.next!);
    const three = await byJudgments(two.next!);
    const pages = [...one.rows, ...two.rows, ...three.rows];
    expect(pages).toHaveLength(150);
    expect(new Set(pages.map((a) => a.userId)).size).toBe(150);
    for (let i = 1; i < pages.length; i++) expect(compareAnnotators(pages[i - 1]!, pages[i]!, "judgments", "desc")).toBeLessThan(0);
    expect((await byJudgments(one.next!)).rows).toEqual(two.rows);

    const found = await timed("search for one annotator", kind, () =>
      listStandings(db(), coordinator, campaignId, annotatorListQuerySchema.parse({ q: `${prefix}-user-09999` })),
    );
    expect(found.rows.map((a) => a.username)).toEqual([`${prefix}-user-09999`]);
    expect(found.next).toBeNull();
    expect((await listStandings(db(), coordinator, campaignId, annotatorListQuerySchema.parse({ q: `${prefix}%user` }))).rows).toEqual([]);
  });

  it("pages a campaign's batches and the API tokens, newest first, and finds the oldest", { timeout: 120_000 }, async () => {
    const batches = await readAll((after) => listBatches(db(), coordinator, campaignId, { after, limit: 50 }), 50);
    expect(batches).toHaveLength(BATCHES);
    expect(batches.at(-1)!.name).toBe(`${prefix}-batch-001`);
    const oldBatch = await timed("search for the oldest batch", kind, () =>
      listBatches(db(), coordinator, campaignId, { q: `${prefix}-batch-001`, limit: 50 }),
    );
    expect(oldBatch.rows.map((b) => b.name)).toEqual([`${prefix}-batch-001`]);

    const tokens = await readAll((after) => listApiTokens(db(), coordinator, { q: `${prefix}-token-`, after, limit: 50 }), 50);
    expect(tokens).toHaveLength(TOKENS);
    expect(tokens.at(-1)!.name).toBe(`${prefix}-token-001`);
    const oldToken = await timed("search for the oldest token", kind, () =>
      listApiTokens(db(), coordinator, { q: `${prefix}-token-001`, limit: 50 }),
    );
    expect(oldToken.rows.map((t) => t.name)).toEqual([`${prefix}-token-001`]);
    // By owner: every token of the first user.
    expect((await readAll((after) => listApiTokens(db(), coordinator, { q: `${prefix}-user-00001`, after, limit: 500 }), 500)).length).toBe(
      TOKENS,
    );
    expect(JSON.stringify(tokens)).not.toContain("token_hash");

    const [user] = (await listUsers(db(), coordinator, { q: `${prefix}-user-00002`, limit: 1 })).rows;
    const annotator: Actor = { kind: "user", id: user!.id, username: user!.username, role: "annotator", via: "session" };
    await expect(listStandings(db(), annotator, campaignId, annotatorListQuerySchema.parse({}))).rejects.toBeInstanceOf(AppError);
    await expect(listBatches(db(), annotator, campaignId, { limit: 1 })).rejects.toBeInstanceOf(AppError);
    await expect(listApiTokens(db(), annotator, { limit: 1 })).rejects.toBeInstanceOf(AppError);
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
  for (const schema of [tokenListQuerySchema, batchListQuerySchema, annotatorListQuerySchema]) {
    expect(problems(schema.safeParse({ limit: "-1" }))).toEqual(["limit"]);
    expect(problems(schema.safeParse({ limit: "100000" }))).toEqual(["limit"]);
    expect(problems(schema.safeParse({ after: "1 or 1=1" }))).toEqual(["after"]);
    expect(problems(schema.safeParse({ after: "0" }))).toEqual(["after"]);
    expect(problems(schema.safeParse({ q: "x".repeat(201) }))).toEqual(["q"]);
  }
  expect(problems(annotatorListQuerySchema.safeParse({ sort: "password_hash" }))).toEqual(["sort"]);
  expect(problems(annotatorListQuerySchema.safeParse({ dir: "sideways" }))).toEqual(["dir"]);
  expect(annotatorListQuerySchema.parse({})).toEqual({ sort: "username", dir: "asc", limit: 50 });
});
