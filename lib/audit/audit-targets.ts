import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, batches, campaigns, passages, queries, runs, users } from "@/db/schema";
import { requireCoordinator, type Actor } from "@/lib/auth/actor";
import type { AuditEntryView } from "./audit";

/** An entry's target as people name it: what it is called now, and the campaign it belongs to. */
export interface AuditTargetView {
  kind: string;
  id: string | null;
  /** The target's name (a batch's, a campaign's, an account's username…); when it is gone, the name the entry recorded. */
  name: string | null;
  /** The target no longer exists (a deleted run, a deleted account). */
  gone: boolean;
  /** The campaign of a batch, a run, a passage, or of an entry whose details name one. */
  campaign: { id: number; name: string } | null;
  /** A passage's question (its page is /campaigns/:id/questions/:queryId). */
  question: { id: number; kiltId: string } | null;
}

const NUMBERED = new Set(["user", "token", "campaign", "batch", "run", "passage"]);

const numberOf = (v: unknown): number | null => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null);
const textOf = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const detailsOf = (e: AuditEntryView): Record<string, unknown> =>
  e.details !== null && typeof e.details === "object" && !Array.isArray(e.details) ? (e.details as Record<string, unknown>) : {};

const idOf = (e: AuditEntryView): number | null => (e.targetId !== null && /^\d{1,15}$/.test(e.targetId) ? Number(e.targetId) : null);

type Found = Awaited<ReturnType<typeof readTargets>>;

/** The rows the entries' targets name: one query per kind of target on the page, then their campaigns. */
async function readTargets(db: Db, entries: AuditEntryView[]) {
  const ids = new Map<string, Set<number>>();
  const campaignIds = new Set<number>();
  for (const e of entries) {
    const id = idOf(e);
    if (id !== null && NUMBERED.has(e.targetType)) {
      if (!ids.has(e.targetType)) ids.set(e.targetType, new Set());
      ids.get(e.targetType)!.add(id);
    }
    const fromDetails = numberOf(detailsOf(e).campaignId);
    if (fromDetails !== null) campaignIds.add(fromDetails);
  }
  const list = (kind: string) => [...(ids.get(kind) ?? [])];
  const some = <T>(kind: string, read: (ids: number[]) => Promise<T[]>) => (list(kind).length ? read(list(kind)) : Promise.resolve([]));

  const [userRows, tokenRows, batchRows, runRows, passageRows] = await Promise.all([
    some("user", (i) => db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, i))),
    some("token", (i) => db.select({ id: apiTokens.id, name: apiTokens.name }).from(apiTokens).where(inArray(apiTokens.id, i))),
    some("batch", (i) =>
      db.select({ id: batches.id, name: batches.name, campaignId: batches.campaignId }).from(batches).where(inArray(batches.id, i)),
    ),
    some("run", (i) => db.select({ id: runs.id, name: runs.name, campaignId: runs.campaignId }).from(runs).where(inArray(runs.id, i))),
    some("passage", (i) =>
      db
        .select({ id: passages.id, campaignId: passages.campaignId, queryId: queries.id, kiltId: queries.kiltId })
        .from(passages)
        .innerJoin(queries, eq(queries.id, passages.queryId))
        .where(inArray(passages.id, i)),
    ),
  ]);
  for (const r of [...batchRows, ...runRows, ...passageRows]) campaignIds.add(r.campaignId);
  for (const id of list("campaign")) campaignIds.add(id);
  const campaignRows = campaignIds.size
    ? await db
        .select({ id: campaigns.id, name: campaigns.name })
        .from(campaigns)
        .where(inArray(campaigns.id, [...campaignIds]))
    : [];
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
  return {
    user: byId(userRows),
    token: byId(tokenRows),
    batch: byId(batchRows),
    run: byId(runRows),
    passage: byId(passageRows),
    campaign: byId(campaignRows),
  };
}

/** One entry's target, from the rows read. */
function targetView(e: AuditEntryView, found: Found): AuditTargetView {
  const campaignNamed = (id: number | null | undefined) => {
    const c = id == null ? undefined : found.campaign.get(id);
    return c ? { id: c.id, name: c.name } : null;
  };
  const details = detailsOf(e);
  const id = idOf(e);
  const view: AuditTargetView = {
    kind: e.targetType,
    id: e.targetId,
    name: null,
    gone: false,
    campaign: campaignNamed(numberOf(details.campaignId)),
    question: null,
  };
  const recorded = textOf(details.name) ?? textOf(details.username);
  switch (e.targetType) {
    case "user":
    case "token":
    case "run":
    case "batch": {
      const row: { name: string; campaignId?: number } | undefined = id === null ? undefined : found[e.targetType].get(id);
      view.name = row?.name ?? recorded;
      view.gone = row === undefined;
      if (row?.campaignId !== undefined) view.campaign = campaignNamed(row.campaignId);
      break;
    }
    case "campaign":
      view.campaign = campaignNamed(id);
      view.name = view.campaign?.name ?? recorded;
      view.gone = view.campaign === null;
      break;
    case "passage": {
      const row = id === null ? undefined : found.passage.get(id);
      view.gone = row === undefined;
      if (row) {
        view.campaign = campaignNamed(row.campaignId);
        view.question = { id: row.queryId, kiltId: row.kiltId };
        view.name = `passage ${row.id} of question ${row.kiltId}`;
      }
      break;
    }
    case "invite": {
      const role = textOf(details.role);
      view.name = textOf(details.username) ? `for ${String(details.username)}` : role ? `an open ${role} invite` : null;
      break;
    }
    case "knowledge":
      view.name = e.targetId ?? "the text index";
      break;
  }
  return view;
}

/**
 * Names the targets of a page of entries (coordinators): one query per kind of target on the page,
 * so a page of 50 costs at most seven small reads. Keyed by entry id.
 */
export async function describeAuditTargets(db: Db, actor: Actor, entries: AuditEntryView[]): Promise<Map<number, AuditTargetView>> {
  requireCoordinator(actor);
  const found = await readTargets(db, entries);
  return new Map(entries.map((e) => [e.id, targetView(e, found)]));
}
