import { and, count, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { signInAttempts } from "@/db/schema";
import { describeEachDatabase, unique } from "@/test/databases";
import { AppError } from "@/lib/errors";
import { anonymous, system } from "./actor";
import { signIn } from "./sessions";
import { pairDelaySeconds, pruneSignInAttempts, recordAttempt, SIGN_IN_LIMITS } from "./sign-in-limits";
import { createUser } from "./users";

const codeOf = (r: PromiseSettledResult<unknown>) =>
  r.status === "fulfilled" ? "ok" : r.reason instanceof AppError ? r.reason.code : String(r.reason);

it("delays a pair by 2^k seconds after its free attempts, at most the window", () => {
  expect(pairDelaySeconds(SIGN_IN_LIMITS.pairFree - 1)).toBe(0);
  expect(pairDelaySeconds(SIGN_IN_LIMITS.pairFree)).toBe(2);
  expect(pairDelaySeconds(SIGN_IN_LIMITS.pairFree + 1)).toBe(4);
  expect(pairDelaySeconds(SIGN_IN_LIMITS.pairFree + 40)).toBe(SIGN_IN_LIMITS.maxDelaySeconds);
});

describeEachDatabase("sign-in limits", ({ db }) => {
  const password = "correct horse battery";

  async function account(): Promise<string> {
    const { user } = await createUser(db(), system, { username: unique("owner"), role: "annotator", password });
    return user.username;
  }

  const attemptsOf = async (username: string, address?: string) => {
    const [row] = await db()
      .select({ n: count() })
      .from(signInAttempts)
      .where(and(eq(signInAttempts.username, username), address ? eq(signInAttempts.address, address) : undefined));
    return row?.n ?? 0;
  };

  /** Rows as if `n` attempts of this pair were made `secondsAgo` seconds ago. */
  const pastAttempts = (username: string, address: string, n: number, secondsAgo: number) =>
    db()
      .insert(signInAttempts)
      .values(Array.from({ length: n }, () => ({ username, address, createdAt: new Date(Date.now() - secondsAgo * 1000) })));

  it("40 parallel wrong guesses: 40 attempts recorded, only the free ones checked, and the owner signs in from elsewhere", async () => {
    const username = await account();
    const attacker = unique("attacker");
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () => signIn(db(), anonymous, { username, password: "wrong guess", address: attacker })),
    );
    const codes = results.map(codeOf);
    expect(codes.filter((c) => c === "unauthorized")).toHaveLength(SIGN_IN_LIMITS.pairFree);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(40 - SIGN_IN_LIMITS.pairFree);
    expect(await attemptsOf(username)).toBe(40);
    // Even the right password from the attacker's address waits now.
    await expect(signIn(db(), anonymous, { username, password, address: attacker })).rejects.toMatchObject({ code: "rate_limited" });
    const owner = await signIn(db(), anonymous, { username, password, address: unique("owner-address") });
    expect(owner.user.username).toBe(username);
    expect(await attemptsOf(username, attacker)).toBe(41); // the owner's success leaves the attacker's rows
  });

  it("lets a pair try again once its delay has passed, and a success clears the pair", async () => {
    const username = await account();
    const address = unique("addr");
    await pastAttempts(username, address, SIGN_IN_LIMITS.pairFree + 1, 3); // needs 4 s: not yet
    await expect(signIn(db(), anonymous, { username, password, address })).rejects.toSatisfy(
      (e: unknown) => e instanceof AppError && e.code === "rate_limited" && /Wait \d+ seconds/.test(e.message),
    );
    const other = unique("addr");
    await pastAttempts(username, other, SIGN_IN_LIMITS.pairFree, 3); // needs 2 s: passed
    expect((await signIn(db(), anonymous, { username, password, address: other })).user.username).toBe(username);
    expect(await attemptsOf(username, other)).toBe(0);
    expect(await attemptsOf(username, address)).toBe(SIGN_IN_LIMITS.pairFree + 2);
  });

  it("limits an account over all addresses, counting each address at most pairFree times", async () => {
    const username = await account();
    await pastAttempts(username, unique("noisy"), 60, 1); // one address hammering counts as pairFree
    expect((await signIn(db(), anonymous, { username, password, address: unique("fresh") })).user.username).toBe(username);

    const target = await account();
    const addresses = SIGN_IN_LIMITS.perAccount / SIGN_IN_LIMITS.pairFree;
    for (let i = 0; i < addresses; i++) await pastAttempts(target, unique(`bot${i}`), SIGN_IN_LIMITS.pairFree, 1);
    await expect(signIn(db(), anonymous, { username: target, password, address: unique("fresh") })).rejects.toMatchObject({
      code: "rate_limited",
    });
  });

  it("limits an address over all accounts, and set-up and invite use count there too", async () => {
    const username = await account();
    const address = unique("addr");
    await db()
      .insert(signInAttempts)
      .values(Array.from({ length: SIGN_IN_LIMITS.perAddress }, (_, i) => ({ username: i % 2 ? ":invite" : unique("u"), address })));
    await expect(signIn(db(), anonymous, { username, password, address })).rejects.toMatchObject({ code: "rate_limited" });
    await expect(recordAttempt(db(), { username: ":setup", address })).rejects.toMatchObject({ code: "rate_limited" });
    expect((await signIn(db(), anonymous, { username, password, address: unique("addr") })).user.username).toBe(username);
  });

  it("ignores attempts older than the window, and prunes rows older than a day", async () => {
    const username = await account();
    const address = unique("addr");
    await pastAttempts(username, address, 30, SIGN_IN_LIMITS.windowMinutes * 60 + 5);
    expect((await signIn(db(), anonymous, { username, password, address })).user.username).toBe(username);

    const old = unique("old");
    await pastAttempts(old, address, 3, SIGN_IN_LIMITS.pruneAfterHours * 3600 + 60);
    await pastAttempts(old, unique("recent"), 2, 3600);
    expect(await pruneSignInAttempts(db())).toBeGreaterThanOrEqual(3);
    expect(await attemptsOf(old)).toBe(2);

    // Opportunistically: within pruneEvery attempts, one prunes.
    await pastAttempts(old, address, 1, SIGN_IN_LIMITS.pruneAfterHours * 3600 + 60);
    for (let i = 0; i < SIGN_IN_LIMITS.pruneEvery; i++) await recordAttempt(db(), { username: unique("p"), address: unique("p") });
    expect(await attemptsOf(old)).toBe(2);
    const [stale] = await db()
      .select({ n: count() })
      .from(signInAttempts)
      .where(sql`${signInAttempts.createdAt} < now() - interval '25 hours'`);
    expect(stale?.n).toBe(0);
  });
});
