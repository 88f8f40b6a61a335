import "server-only";
import { createHash, randomBytes } from "node:crypto";
import argon2 from "argon2";

/** A random secret for cookies, tokens and invite links (256 bits, URL-safe). */
export function randomSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

/** Secrets are stored as their SHA-256 only: they are random, so no slow hash is needed. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

// argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane).
const argonOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, argonOptions);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of a real verification, so unknown usernames are not told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomSecret());
  await verifyPassword(await dummyHash, password);
  return false;
}

/** A stable, meaningless user id for exports ("a-3f9c…"), so usernames never leave the app. */
export function newPseudonym(): string {
  return `a-${randomBytes(6).toString("hex")}`;
}
