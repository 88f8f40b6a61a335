// The vitest HTTP suite's servers (vitest.http.config.ts): the production build and the crowd
// receiver, started as playwright.config.ts's webServer starts them (e2e/servers.ts), on the e2e port
// + 1 so that this suite and Playwright never share a server. Then what Playwright's setup project
// makes that these tests need: this run's coordinator and annotator accounts. Tests read the lot with
// inject("baseURL"), inject("crowdReceiver"), inject("accounts").
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { adminApi, createAccount, type Accounts } from "../../e2e/fixtures";
import { e2eServers, type ServerCommand } from "../../e2e/servers";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    crowdReceiver: string;
    accounts: Accounts;
  }
}

const root = path.resolve(import.meta.dirname, "..", "..");

interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function start(server: ServerCommand): Started {
  const [command, ...args] = server.command.split(" ");
  const child = spawn(command === "node" ? process.execPath : command!, args, {
    cwd: root,
    env: { ...process.env, ...server.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => (output = (output + d).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15_000)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

async function waitFor(server: ServerCommand, process: Started, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) break;
    const status = await fetch(server.healthURL)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${server.command} did not answer ${server.healthURL} within ${timeoutMs} ms; its output:\n${process.output()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = Number(process.env.KPS_HTTP_PORT || Number(process.env.KPS_E2E_PORT || 3100) + 1);
  const servers = e2eServers(port);
  const started: Started[] = [];
  const teardown = async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
  try {
    for (const [server, timeoutMs] of [
      [servers.app, 120_000],
      [servers.receiver, 30_000],
    ] as const) {
      const s = start(server);
      started.push(s);
      await waitFor(server, s, timeoutMs);
    }
    const admin = await adminApi(servers.baseURL);
    const accounts = { coordinator: await createAccount(admin, "coordinator"), annotator: await createAccount(admin, "annotator") };
    await admin.dispose();
    project.provide("baseURL", servers.baseURL);
    project.provide("crowdReceiver", servers.crowdReceiver);
    project.provide("accounts", accounts);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
