import { eq } from "drizzle-orm";
import { beforeEach, expect, it, vi } from "vitest";
import { invites, signInAttempts } from "@/db/schema";
import { describeEachDatabase, unique } from "@/test/databases";
import { system } from "./actor";
import { hashPassword } from "./crypto";
import { acceptInvite, createInvite } from "./invites";
import { SIGN_IN_LIMITS } from "./sign-in-limits";
import { createFirstCoordinator, createUser } from "./users";

// The real hash, wrapped to count its calls: a refusal must come before any password is hashed.
vi.mock(import("./crypto"), async (importOriginal) => {
  const real = await importOriginal();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});
const hashes = vi.mocked(hashPassword);

describeEachDatabase("set-up and invites refuse before hashing", ({ db }) => {
  const password = "correct horse battery";
  beforeEach(() => {
    hashes.mockClear();
  });

  it("set-up once a user exists: 409, no hash", async () => {
    await createUser(db(), system, { username: unique("someone"), role: "annotator", password });
    hashes.mockClear();
    await expect(createFirstCoordinator(db(), system, { username: unique("late"), password, address: unique("a") })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(hashes).not.toHaveBeenCalled();
  });

  it("an unknown, used or expired invite, a missing or taken username: refused, no hash; a good one hashes once", async () => {
    const coordinator = await createUser(db(), system, { username: unique("coord"), role: "coordinator", password });
    const actor = {
      kind: "user",
      id: coordinator.user.id,
      username: coordinator.user.username,
      role: "coordinator",
      via: "session",
    } as const;
    const open = await createInvite(db(), actor, { role: "annotator", expiresInHours: 1 });
    const stale = await createInvite(db(), actor, { role: "annotator", expiresInHours: 1 });
    await db()
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.id, stale.id));
    const taken = coordinator.user.username.toUpperCase();
    hashes.mockClear();
    const tries = [
      [{ token: "made-up-token-0123456789", username: unique("x"), password }, "not_found"],
      [{ token: stale.token, username: unique("x"), password }, "not_found"],
      [{ token: open.token, password }, "invalid"],
      [{ token: open.token, username: taken, password }, "conflict"],
    ] as const;
    for (const [input, code] of tries) {
      await expect(acceptInvite(db(), system, { ...input, address: unique("a") })).rejects.toMatchObject({ code });
    }
    expect(hashes).not.toHaveBeenCalled();

    await acceptInvite(db(), system, { token: open.token, username: unique("joined"), password, address: unique("a") });
    expect(hashes).toHaveBeenCalledTimes(1);
    await expect(
      acceptInvite(db(), system, { token: open.token, username: unique("again"), password, address: unique("a") }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect(hashes).toHaveBeenCalledTimes(1);
  });

  it("both are rate-limited per address, before anything else", async () => {
    const address = unique("addr");
    await db()
      .insert(signInAttempts)
      .values(Array.from({ length: SIGN_IN_LIMITS.perAddress }, () => ({ username: ":invite", address })));
    await expect(acceptInvite(db(), system, { token: "made-up-token-0123456789", password, address })).rejects.toMatchObject({
      code: "rate_limited",
    });
    await expect(createFirstCoordinator(db(), system, { username: unique("x"), password, address })).rejects.toMatchObject({
      code: "rate_limited",
    });
    expect(hashes).not.toHaveBeenCalled();
  });
});
