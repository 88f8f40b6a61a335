import { expect, it } from "vitest";
import { system, type Actor, anonymous } from "@/lib/auth/actor";
import { createUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { describeEachDatabase, unique } from "@/test/databases";
import { getShortcuts, updateShortcuts } from "./user-shortcuts";

describeEachDatabase("judging shortcuts", ({ db }) => {
  async function annotator(): Promise<Actor> {
    const { user } = await createUser(db(), system, { username: unique("keys"), role: "annotator", password: "correct horse battery" });
    return { kind: "user", id: user.id, username: user.username, role: "annotator", via: "session" };
  }

  it("starts at the defaults, stores a user's own prefs and leaves everyone else's alone", async () => {
    const me = await annotator();
    const other = await annotator();
    expect(await getShortcuts(db(), me)).toMatchObject({ shortcuts: { enabled: true, keys: {} }, keys: { sufficient: "1" } });
    const saved = await updateShortcuts(db(), me, { enabled: false, keys: { sufficient: "y" } });
    expect(saved).toMatchObject({ shortcuts: { enabled: false, keys: { sufficient: "y" } }, keys: { sufficient: "y", insufficient: "2" } });
    expect(await getShortcuts(db(), me)).toEqual(saved);
    expect((await getShortcuts(db(), other)).shortcuts).toEqual({ enabled: true, keys: {} });
    await expect(getShortcuts(db(), anonymous)).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === "unauthorized");
  });
});
