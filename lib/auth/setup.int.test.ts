import { describe, expect, it } from "vitest";
import { useEmptyPglite } from "@/test/databases";
import { AppError } from "@/lib/errors";
import { anonymous } from "./actor";
import { signIn } from "./sessions";
import { countUsers, createFirstCoordinator } from "./users";

// Set-up needs an empty database: a fresh embedded one.
describe("first coordinator [pglite, empty]", () => {
  const database = useEmptyPglite();
  const db = () => database().db;

  it("is created once; concurrent and later attempts get a conflict", async () => {
    expect(await countUsers(db(), anonymous)).toBe(0);
    const results = await Promise.allSettled([
      createFirstCoordinator(db(), anonymous, { username: "first", password: "password-one", address: "t1" }),
      createFirstCoordinator(db(), anonymous, { username: "rival", password: "password-two", address: "t2" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AppError);
    expect((rejected.reason as AppError).code).toBe("conflict");
    expect(await countUsers(db(), anonymous)).toBe(1);
    const winner = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ username: string; role: string }>).value;
    expect(winner.role).toBe("coordinator");
    const password = winner.username === "first" ? "password-one" : "password-two";
    expect((await signIn(db(), anonymous, { username: winner.username, password, address: "t" })).user.role).toBe("coordinator");
  });
});
