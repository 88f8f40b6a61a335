import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiTokens, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { requireCoordinator, requireUser, type Actor } from "./actor";
import { randomSecret, sha256 } from "./crypto";
import { TOKEN_PREFIX } from "./sessions";

export interface TokenSummary {
  id: number;
  name: string;
  prefix: string;
  owner: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Creates an API token acting as the caller. The token is returned once; only its hash is kept. */
export async function createApiToken(db: Db, actor: Actor, input: { name: string }): Promise<TokenSummary & { token: string }> {
  requireCoordinator(actor);
  const user = requireUser(actor);
  const token = randomSecret(TOKEN_PREFIX);
  const [row] = await db
    .insert(apiTokens)
    .values({ userId: user.id, name: input.name, tokenHash: sha256(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6) })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return {
    token,
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    owner: user.username,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export async function listApiTokens(db: Db, actor: Actor): Promise<TokenSummary[]> {
  requireCoordinator(actor);
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      owner: users.username,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .orderBy(desc(apiTokens.createdAt));
}

/** Revokes a token at once: the next request that carries it is refused. */
export async function revokeApiToken(db: Db, actor: Actor, tokenId: number): Promise<void> {
  requireCoordinator(actor);
  const [row] = await db.select({ id: apiTokens.id, revokedAt: apiTokens.revokedAt }).from(apiTokens).where(eq(apiTokens.id, tokenId));
  if (!row) throw new AppError("not_found", `No API token with id ${tokenId}.`);
  await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, tokenId), isNull(apiTokens.revokedAt)));
}
