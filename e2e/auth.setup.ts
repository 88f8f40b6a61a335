import { test as setup, expect } from "@playwright/test";
import { adminApi, createAccount, PASSWORD, saveAccounts, storageStatePath } from "./fixtures";

// Makes this run's accounts (unique names, so runs on a shared PostgreSQL never collide) and a
// signed-in browser state per role.
setup("accounts and signed-in states", async ({ browser, baseURL }) => {
  const admin = await adminApi(baseURL!);
  const accounts = { coordinator: await createAccount(admin, "coordinator"), annotator: await createAccount(admin, "annotator") };
  saveAccounts(accounts);
  await admin.dispose();

  for (const role of ["coordinator", "annotator"] as const) {
    const context = await browser.newContext();
    const res = await context.request.post("/api/auth/sign-in", { data: { username: accounts[role], password: PASSWORD } });
    expect(res.status()).toBe(200);
    await context.storageState({ path: storageStatePath(role) });
    await context.close();
  }
});
