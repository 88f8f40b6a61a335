import "server-only";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { AppError } from "@/lib/errors";
import { likePattern, pageOf, type Page, type TokenListQuery } from "@/lib/list-options.contract";
import { newestFirst } from "@/db/keyset";
import { requireCoordinator, requireUser, type Actor } from "./actor";
import { randomSecret, sha256 } from "./crypto";
import { TOKEN_DEFAULT_DAYS, type CreateTokenInput } from "./schemas";
import { credentialsChanged, TOKEN_PREFIX } from "./sessions";

export interface TokenSummary {
  id: number;
  name: string;
  prefix: string;
  owner: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Null: never expires. */
  expiresAt: Date | null;
}

const summaryColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  prefix: apiTokens.prefix,
  owner: users.username,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
  revokedAt: apiTokens.revokedAt,
  expiresAt: apiTokens.expiresAt,
};

/**
 * Creates an API token acting as the caller, expiring after `expiresInDays` (null: never). The
 * token is returned once; only its hash is kept.
 */
export async function createApiToken(db: Db, actor: Actor, input: CreateTokenInput): Promise<TokenSummary & { token: string }> {
  requireCoordinator(actor);
  const user = requireUser(actor);
  const token = randomSecret(TOKEN_PREFIX);
  const days = input.expiresInDays === undefined ? TOKEN_DEFAULT_DAYS : input.expiresInDays;
  const expiresAt = days === null ? null : new Date(Date.now() + days * 24 * 3600 * 1000);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({ userId: user.id, name: input.name, tokenHash: sha256(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6), expiresAt })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await recordAudit(tx, actor, { action: "token.create", targetType: "token", targetId: row.id, details: { name: row.name, expiresAt } });
    const { id, name, prefix, createdAt, lastUsedAt, revokedAt } = row;
    return { token, id, name, prefix, owner: user.username, createdAt, lastUsedAt, revokedAt, expiresAt: row.expiresAt };
  });
}

/**
 * API tokens newest first (id descending), a page at a time, never their secrets; `q` a part of the
 * name, the prefix or the owner's username (coordinators).
 */
export async function listApiTokens(db: Db, actor: Actor, query: TokenListQuery): Promise<Page<TokenSummary>> {
  requireCoordinator(actor);
  const pattern = query.q ? likePattern(query.q) : undefined;
  const matches =
    pattern === undefined
      ? undefined
      : or(sql`${apiTokens.name} ilike ${pattern}`, sql`${apiTokens.prefix} ilike ${pattern}`, sql`${users.username} ilike ${pattern}`);
  const owned = db.select(summaryColumns).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId));
  return pageOf(await newestFirst(owned.$dynamic(), apiTokens.id, matches, query), query.limit);
}

/** Revokes a token at once: the next request that carries it is refused. */
export async function revokeApiToken(db: Db, actor: Actor, tokenId: number): Promise<void> {
  requireCoordinator(actor);
  const [row] = await db
    .select({ id: apiTokens.id, name: apiTokens.name, owner: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.id, tokenId));
  if (!row) throw new AppError("not_found", `No API token with id ${tokenId}.`);
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    if (revoked.length)
      await recordAudit(tx, actor, {
        action: "token.revoke",
        targetType: "token",
        targetId: tokenId,
        details: { name: row.name, owner: row.owner },
      });
  });
  credentialsChanged(); // this process refuses the token at once; other processes within 1 s (their cache's life)
}
