import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startApp, tempDataDir, unique, waitHealthy, type AppProcess } from "../../e2e/fixtures";
import { postFrom, type PostAnswer } from "../post-from";

// The demo as `npm start` makes it on a fresh embedded data directory (KPS_DEMO=1 here, so the
// spec means the same on a PostgreSQL e2e run), on its own port: the limits it trips stay there.
const PORT = Number(process.env.KPS_E2E_PORT || 3100) + 57;
const PUBLISHED = "kilt-demo";

/** A JSON POST to `url` from a chosen local address (loopback has 127.0.0.0/8). */
function post(url: string, body: unknown, localAddress: string): Promise<PostAnswer> {
  const target = new URL(url);
  return postFrom(target.port, target.pathname, body, localAddress);
}

function kpsLogin(url: string, username: string, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [path.join(process.cwd(), "bin", "kps.mjs"), "--url", url, "login", "--username", username, "--password-stdin"],
    {
      env: { ...process.env, KPS_TOKEN: "" },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("sign-in security over HTTP", () => {
  let app: AppProcess;
  let dataDir: string;
  let passwords: Record<string, string>;

  beforeAll(async () => {
    dataDir = tempDataDir();
    app = startApp(PORT, dataDir, { KPS_DEMO: "1" });
    await waitHealthy(app.url, 100_000);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  test("a fresh start refuses the published demo password; the one kept in a 0600 file works, and start-up prints the file, never a password", async () => {
    const file = path.join(dataDir, "demo-credentials.txt");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    passwords = Object.fromEntries(
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() && !l.startsWith("#"))
        .map((l) => l.split(" ") as [string, string]),
    );
    expect(Object.keys(passwords).sort()).toEqual(["demo-annotator-1", "demo-annotator-2", "demo-annotator-3", "demo-coordinator"]);
    expect(app.output()).toContain(file);
    for (const password of Object.values(passwords)) {
      expect(app.output()).not.toContain(password);
      expect(password).not.toBe(PUBLISHED);
    }

    const refused = await post(`${app.url}/api/auth/sign-in`, { username: "demo-coordinator", password: PUBLISHED }, "127.0.0.4");
    expect(refused.status).toBe(401);
    const ok = await post(
      `${app.url}/api/auth/sign-in`,
      { username: "demo-coordinator", password: passwords["demo-coordinator"] },
      "127.0.0.4",
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ user: { username: "demo-coordinator", role: "coordinator" } });
    // Set-up is over: refused at once.
    expect((await post(`${app.url}/api/setup`, { username: unique("late"), password: "long enough password" }, "127.0.0.4")).status).toBe(
      409,
    );
  });

  test("40 parallel wrong passwords: 40 attempts recorded, 5 checked, and the owner still signs in from another address", async () => {
    const username = "demo-annotator-1";
    const attacker = "127.0.0.3";
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(`${app.url}/api/auth/sign-in`, { username, password: `wrong-guess-${i}` }, attacker)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    expect(results.find((r) => r.status === 429)?.json.error?.message).toMatch(/from your address\. Wait \d+ seconds/);

    // Exactly 40 rows from the attacker's address: its limit of 50 leaves exactly 10 more attempts.
    for (let i = 0; i < 10; i++) {
      expect((await post(`${app.url}/api/auth/sign-in`, { username: unique("nobody"), password: "wrong-guess" }, attacker)).status).toBe(
        401,
      );
    }
    const eleventh = await post(`${app.url}/api/auth/sign-in`, { username: unique("nobody"), password: "wrong-guess" }, attacker);
    expect(eleventh.status).toBe(429);
    expect(eleventh.json.error?.message).toContain("from your address");

    const owner = await post(`${app.url}/api/auth/sign-in`, { username, password: passwords[username] }, "127.0.0.2");
    expect(owner.status).toBe(200);
  });

  test("kps login reads the password from standard input", async () => {
    const login = await kpsLogin(app.url, "demo-coordinator", `${passwords["demo-coordinator"]}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^export KPS_TOKEN=kps_\S+$/m);
    const wrong = await kpsLogin(app.url, "demo-coordinator", "not-the-password\n");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("Wrong username or password");
  });
});

test("start-up refuses a KPS_ADMIN_PASSWORD that breaks the password policy", { timeout: 90_000 }, async () => {
  const dataDir = tempDataDir();
  const app = startApp(PORT + 1, dataDir, { KPS_DEMO: "0", KPS_ADMIN_USERNAME: "admin", KPS_ADMIN_PASSWORD: "short" });
  try {
    const code = await Promise.race([app.exited(), new Promise<"running">((r) => setTimeout(() => r("running"), 60_000))]);
    expect(code).toBe(1);
    expect(app.output()).toContain("KPS_ADMIN_PASSWORD must be at least 8 characters");
  } finally {
    await app.stop();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});
