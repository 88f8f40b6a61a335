import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { rowsOf, type Db, type Tx } from "@/db/client";
import { signInAttempts } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * The sign-in limits. Every attempt is a row in sign_in_attempts, written *before* the password is
 * hashed or checked (so parallel guesses cannot slip past the count); a success deletes the rows of
 * its (account, address) pair. Rows refused by a limit are attempts too and count like failures.
 */
export const SIGN_IN_LIMITS = {
  /** Rows older than this count for nothing. */
  windowMinutes: 15,
  /** Attempts one address may make for one account before each further one must wait. */
  pairFree: 5,
  /** After `pairFree`, the k-th further attempt of a pair waits 2^k seconds after the pair's last one, at most this. */
  maxDelaySeconds: 15 * 60,
  /** Per account over all addresses, each address counting at most `pairFree`: about 20 addresses' worth of guesses. */
  perAccount: 100,
  /** Per address over all accounts (and set-up and invite use). */
  perAddress: 50,
  /** Rows older than this are deleted, now and then (every `pruneEvery`-th attempt). */
  pruneAfterHours: 24,
  pruneEvery: 32,
} as const;

/** Keys of attempts that are not a sign-in: they are limited per address only. */
export type AttemptScope = ":setup" | ":invite";

const LOCK_ACCOUNT = 7301;
const LOCK_ADDRESS = 7302;

interface Counts {
  address: number;
  pair: number;
  pair_age: number | null;
  account: number;
}

/**
 * Records one attempt and decides, in one short transaction holding an advisory lock per account
 * and per address, whether it may go on to the password check. Throws `rate_limited` (the row stays:
 * a refused attempt is an attempt). Returns the row id, for `attemptSucceeded`.
 */
export async function recordAttempt(db: Db, key: { username: string | AttemptScope; address: string }): Promise<number> {
  const perAddressOnly = key.username.startsWith(":");
  const { id, refusal } = await db.transaction(async (tx) => {
    // Lock order is always account, then address: no two attempts wait on each other in a cycle.
    // Times are clock_timestamp(), not now(): the transaction may have begun before the lock was free.
    if (!perAddressOnly) await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ACCOUNT}, hashtext(lower(${key.username})))`);
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ADDRESS}, hashtext(${key.address}))`);
    const counts = await countRecent(tx, key.username, key.address, perAddressOnly);
    const [row] = await tx
      .insert(signInAttempts)
      .values({ username: key.username, address: key.address, createdAt: sql`clock_timestamp()` })
      .returning({ id: signInAttempts.id });
    if (!row) throw new Error("insert returned no row");
    return { id: row.id, refusal: refusalFor(counts) };
  });
  if (id % SIGN_IN_LIMITS.pruneEvery === 0) await pruneSignInAttempts(db);
  if (refusal) throw new AppError("rate_limited", refusal);
  return id;
}

async function countRecent(tx: Tx, username: string, address: string, perAddressOnly: boolean): Promise<Counts> {
  const since = sql`clock_timestamp() - make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;
  const sameAccount = sql`lower(${signInAttempts.username}) = lower(${username})`;
  const [counts] = rowsOf<Counts>(
    await tx.execute(sql`
      select
        count(*) filter (where ${signInAttempts.address} = ${address})::int as address,
        count(*) filter (where ${sameAccount} and ${signInAttempts.address} = ${address})::int as pair,
        extract(epoch from clock_timestamp() - max(${signInAttempts.createdAt}) filter (where ${sameAccount} and ${signInAttempts.address} = ${address}))::float8 as pair_age,
        (select coalesce(sum(least(n, ${SIGN_IN_LIMITS.pairFree})), 0)::int from (
          select count(*) as n from ${signInAttempts}
          where ${sameAccount} and ${signInAttempts.createdAt} > ${since} group by ${signInAttempts.address}
        ) per_address) as account
      from ${signInAttempts}
      where ${signInAttempts.createdAt} > ${since} and (${signInAttempts.address} = ${address} or ${sameAccount})`),
  );
  const c = counts ?? { address: 0, pair: 0, pair_age: null, account: 0 };
  return perAddressOnly ? { ...c, pair: 0, account: 0 } : { ...c, pair_age: c.pair_age === null ? null : Number(c.pair_age) };
}

/** The seconds a pair with `pair` recent attempts must leave after its last one (0 while under `pairFree`). */
export function pairDelaySeconds(pair: number): number {
  if (pair < SIGN_IN_LIMITS.pairFree) return 0;
  return Math.min(2 ** (pair - SIGN_IN_LIMITS.pairFree + 1), SIGN_IN_LIMITS.maxDelaySeconds);
}

function refusalFor(c: Counts): string | null {
  const window = SIGN_IN_LIMITS.windowMinutes;
  if (c.address >= SIGN_IN_LIMITS.perAddress) {
    return `Too many failed attempts from your address. Wait ${window} minutes and try again.`;
  }
  if (c.account >= SIGN_IN_LIMITS.perAccount) {
    return `Too many failed sign-in attempts for this account from many addresses. Wait ${window} minutes and try again.`;
  }
  const delay = pairDelaySeconds(c.pair);
  const wait = delay - (c.pair_age ?? Infinity);
  if (delay > 0 && wait > 0) {
    return `Too many failed sign-in attempts for this account from your address. Wait ${Math.ceil(wait)} seconds and try again.`;
  }
  return null;
}

/** A success: the attempt and the earlier failures of its (account, address) pair are forgotten. */
export async function attemptSucceeded(db: Db, id: number, key: { username: string; address: string }): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.id, id));
  if (key.username.startsWith(":")) return;
  await db
    .delete(signInAttempts)
    .where(and(sql`lower(${signInAttempts.username}) = lower(${key.username})`, eq(signInAttempts.address, key.address)));
}

/** Deletes attempt rows older than `pruneAfterHours`; returns how many. */
export async function pruneSignInAttempts(db: Db): Promise<number> {
  const cutoff = new Date(Date.now() - SIGN_IN_LIMITS.pruneAfterHours * 3600_000);
  const deleted = await db.delete(signInAttempts).where(lt(signInAttempts.createdAt, cutoff)).returning({ id: signInAttempts.id });
  return deleted.length;
}
