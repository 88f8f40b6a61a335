import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { accounts, PASSWORD, unique } from "./fixtures";

const run = promisify(execFile);
const kps = path.join(process.cwd(), "bin", "kps.mjs");

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [kps, ...args], { env: { ...process.env, KPS_TOKEN: "", ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

test("kps login prints a token that later commands use; user create prints an invite link", async ({ baseURL }) => {
  const login = await cli(["--url", baseURL!, "login", "--username", accounts().coordinator, "--password", PASSWORD]);
  expect(login.code, login.stderr).toBe(0);
  const token = /^export KPS_TOKEN=(kps_\S+)$/m.exec(login.stdout)?.[1];
  expect(token).toBeTruthy();

  const env = { KPS_URL: baseURL!, KPS_TOKEN: token! };
  const who = await cli(["whoami"], env);
  expect(who.stdout.trim()).toBe(`${accounts().coordinator} (coordinator)`);

  const invited = await cli(["user", "create", "--username", unique("cli-ann"), "--role", "annotator"], env);
  expect(invited.code, invited.stderr).toBe(0);
  expect(invited.stdout.trim()).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{20,}$`));

  const withPassword = await cli(["user", "create", "--username", unique("cli-coord"), "--role", "coordinator", "--password", PASSWORD], env);
  expect(withPassword.code, withPassword.stderr).toBe(0);
  expect(withPassword.stdout.trim()).toMatch(/^\d+$/);
});

test("kps explains bad input, wrong passwords and missing tokens", async ({ baseURL }) => {
  const wrong = await cli(["--url", baseURL!, "login", "--username", accounts().coordinator, "--password", "nope-nope-nope"]);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain("Wrong username or password.");

  const noToken = await cli(["--url", baseURL!, "user", "create", "--username", "x1", "--role", "annotator"]);
  expect(noToken.code).toBe(1);
  expect(noToken.stderr).toContain("needs an API token");

  const badRole = await cli(["--url", baseURL!, "user", "create", "--username", "x1", "--role", "boss"]);
  expect(badRole.code).not.toBe(0);
  expect(badRole.stderr).toContain("must be 'annotator' or 'coordinator'");

  const annotator = await cli(["--url", baseURL!, "login", "--username", accounts().annotator, "--password", PASSWORD]);
  expect(annotator.code).toBe(1);
  expect(annotator.stderr).toContain("Only coordinators");

  const down = await cli(["--url", "http://127.0.0.1:9", "health"]);
  expect(down.code).toBe(1);
  expect(down.stderr).toContain("Cannot reach the app");
});

test("every kps command has --help", async () => {
  for (const command of [[], ["login"], ["whoami"], ["user"], ["user", "create"], ["user", "list"], ["token"], ["token", "create"], ["token", "list"], ["token", "revoke"], ["health"]]) {
    const res = await cli([...command, "--help"]);
    expect(res.code, command.join(" ")).toBe(0);
    expect(res.stdout).toContain("Usage: kps");
  }
});
