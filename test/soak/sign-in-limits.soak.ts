import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, Client, PASSWORD, startServer, tempDataDir, unique, waitHealthy } from "./harness";

const PORT = Number(process.env.KPS_SOAK_PORT ?? 3700) + 3;

// Its own server and database: the limits it trips last 15 minutes for the address it tries from.
describe("sign-in rate limits over HTTP", () => {
  const data = tempDataDir();
  const server = startServer(PORT, { KPS_DATA_DIR: data.dir });
  afterAll(async () => {
    await server.stop();
    await data.remove();
  });

  const signIn = (username: string, password: string, forwardedFor?: string) =>
    fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor, "x-kps-client-address": forwardedFor } : {}) },
      body: JSON.stringify({ username, password }),
    });

  it("limits failures per account, then per address, and a forged X-Forwarded-For does not escape", async () => {
    await waitHealthy(server.url, 120_000);
    const admin = new Client(server.url);
    await admin.signIn(ADMIN.username, ADMIN.password);
    const victim = unique("victim");
    const other = unique("other");
    for (const username of [victim, other]) {
      expect((await admin.call("POST", "/api/users", { username, role: "annotator", password: PASSWORD })).status).toBe(201);
    }

    // Per account: 10 failures, then even the right password is refused for a while; another account is not.
    for (let i = 0; i < 10; i++) expect((await signIn(victim, "wrong-password", `10.0.0.${i}`)).status).toBe(401);
    const locked = await signIn(victim, PASSWORD);
    expect(locked.status).toBe(429);
    expect((await locked.json()).error).toMatchObject({ code: "rate_limited", message: expect.stringContaining("15 minutes") });
    expect((await signIn(other, PASSWORD)).status).toBe(200);

    // Per address: 50 failures from this address, each claiming another address, then everyone here waits.
    for (let i = 10; i < 50; i++) expect((await signIn(unique("nobody"), "wrong-password", `10.0.${i}.1`)).status).toBe(401);
    const blocked = await signIn(other, PASSWORD, "192.0.2.77");
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).error.code).toBe("rate_limited");
  });
});
