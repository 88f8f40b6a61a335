import { afterAll, describe, expect, it } from "vitest";
import { postFrom } from "../post-from";
import { ADMIN, Client, PASSWORD, startServer, tempDataDir, unique, waitHealthy } from "./harness";

const PORT = Number(process.env.KPS_SOAK_PORT ?? 3700) + 3;

/** A sign-in over node:http from a chosen loopback address, with optional forged address headers. */
function signInFrom(localAddress: string, username: string, password: string, forwardedFor?: string) {
  const forged: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor, "x-kps-client-address": forwardedFor } : {};
  return postFrom(PORT, "/api/auth/sign-in", { username, password }, localAddress, forged);
}

// Its own server and database: the limits it trips last 15 minutes for the addresses it tries from.
describe("sign-in rate limits over HTTP", () => {
  const data = tempDataDir();
  const server = startServer(PORT, { KPS_DATA_DIR: data.dir });
  afterAll(async () => {
    await server.stop();
    await data.remove();
  });

  it("delays a pair after 5 failures, lets the owner in from elsewhere, limits an address after 50; forged X-Forwarded-For does not escape", async () => {
    await waitHealthy(server.url, 120_000);
    const admin = new Client(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const victim = unique("victim");
    const other = unique("other");
    for (const username of [victim, other]) {
      expect((await admin.call("POST", "/api/users", { username, role: "annotator", password: PASSWORD })).status).toBe(201);
    }

    // Per (account, address): 5 failures, then even the right password waits 2 s; forged headers change nothing.
    for (let i = 0; i < 5; i++) expect((await signInFrom("127.0.0.1", victim, "wrong-password", `10.0.0.${i}`)).status).toBe(401);
    const locked = await signInFrom("127.0.0.1", victim, PASSWORD, "192.0.2.1");
    expect(locked.status).toBe(429);
    expect(locked.json.error).toMatchObject({ code: "rate_limited", message: expect.stringMatching(/Wait [12] seconds/) });
    // The owner, from another address, is not locked out.
    expect((await signInFrom("127.0.0.2", victim, PASSWORD)).status).toBe(200);
    // Six attempts from the pair now: the next is refused (wait 4 s) and, an attempt too, makes the wait 8 s.
    expect((await signInFrom("127.0.0.1", victim, PASSWORD)).json.error?.message).toMatch(/Wait [1-4] seconds/);
    await new Promise((r) => setTimeout(r, 8_500));
    expect((await signInFrom("127.0.0.1", victim, PASSWORD)).status).toBe(200);

    // Per address: 50 failures from this address (each claiming another), then everyone here waits.
    for (let i = 0; i < 50; i++)
      expect((await signInFrom("127.0.0.1", unique("nobody"), "wrong-password", `10.0.${i}.1`)).status).toBe(401);
    const blocked = await signInFrom("127.0.0.1", other, PASSWORD, "192.0.2.77");
    expect(blocked.status).toBe(429);
    expect(blocked.json.error?.message).toContain("from your address");
    expect((await signInFrom("127.0.0.5", other, PASSWORD)).status).toBe(200);
  });
});
