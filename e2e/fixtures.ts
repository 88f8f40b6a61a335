import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { request, type APIRequestContext } from "@playwright/test";

export const ADMIN = { username: "e2e-admin", password: "e2e-admin-password" } as const;
export const PASSWORD = "e2e-password-123";
const accountsFile = path.join(import.meta.dirname, ".auth", "accounts.json");

export type Role = "coordinator" | "annotator";
export interface Accounts {
  coordinator: string;
  annotator: string;
}

export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

export function saveAccounts(accounts: Accounts): void {
  fs.mkdirSync(path.dirname(accountsFile), { recursive: true });
  fs.writeFileSync(accountsFile, JSON.stringify(accounts));
}

/** The accounts the setup project made for this run (unique names, shared password). */
export function accounts(): Accounts {
  return JSON.parse(fs.readFileSync(accountsFile, "utf8")) as Accounts;
}

export function storageStatePath(role: Role): string {
  return path.join(path.dirname(accountsFile), `${role}.json`);
}

/** A fresh API context signed in as `username` (its own session). */
export async function signedInApi(baseURL: string, username: string, password = PASSWORD): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const res = await api.post("/api/auth/sign-in", { data: { username, password } });
  if (!res.ok()) throw new Error(`sign-in of ${username} failed: ${res.status()} ${await res.text()}`);
  return api;
}

export function adminApi(baseURL: string): Promise<APIRequestContext> {
  return signedInApi(baseURL, ADMIN.username, ADMIN.password);
}

/** Creates an account with a password through the API, as the admin. */
export async function createAccount(admin: APIRequestContext, role: Role, prefix: string = role): Promise<string> {
  const username = unique(`e2e-${prefix}`);
  const res = await admin.post("/api/users", { data: { username, role, password: PASSWORD } });
  if (res.status() !== 201) throw new Error(`creating ${username} failed: ${res.status()} ${await res.text()}`);
  return username;
}
