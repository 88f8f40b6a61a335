import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ADMIN, adminApi, createAccount, signInWithForm, tempDataDir, unique, waitHealthy } from "./fixtures";

// The edge of the production server (server/production-server.mjs, proxy.ts, app/_server/http.ts),
// spoken to over raw sockets where a client would misbehave: bodies streamed past the limit,
// trickled bodies and headers, too many connections; then the headers of every response, the sign-in
// route's CSRF guards, and the judging page under the Content-Security-Policy.

const demoFile = (name: string) => path.join(import.meta.dirname, "..", "db", "demo", name);

/** A server of its own (its pid for memory, short timeouts, a small connection cap), beside the suite's. */
const EDGE_PORT = Number(process.env.KPS_E2E_PORT || 3100) + 50;
const EDGE = {
  KPS_REQUEST_TIMEOUT_MS: "3000",
  KPS_HEADERS_TIMEOUT_MS: "3000",
  KPS_UPLOAD_IDLE_TIMEOUT_MS: "4000",
  KPS_MAX_CONNECTIONS_PER_ADDRESS: "8",
};

interface RawAnswer {
  status: number | undefined;
  text: string;
  sent: number;
  ms: number;
}

/** Opens a socket to the edge server; resolves with what came back once the server closed it. */
function rawExchange(drive: (socket: net.Socket, answered: () => boolean) => void, timeoutMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(EDGE_PORT, "127.0.0.1");
    let text = "";
    const state = { sent: 0 };
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${timeoutMs} ms; got: ${text.slice(0, 200)}`));
    }, timeoutMs);
    socket.on("data", (d) => (text += d));
    socket.on("error", () => {}); // a reset after the answer is expected: the server stops reading
    socket.on("close", () => {
      clearTimeout(guard);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || undefined, text, sent: state.sent, ms: Date.now() - started });
    });
    const originalWrite = socket.write.bind(socket);
    socket.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      state.sent += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
      return originalWrite(chunk, ...rest);
    }) as typeof socket.write;
    socket.on("connect", () => drive(socket, () => text.length > 0));
  });
}

/** A chunked body of `total` bytes of spaces, written as fast as the server takes it, stopped at the first answer. */
function chunkedBody(total: number, contentType = "application/json") {
  return (socket: net.Socket, answered: () => boolean) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    socket.write(
      `POST /api/auth/sign-in HTTP/1.1\r\nHost: localhost:${EDGE_PORT}\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    let written = 0;
    const pump = () => {
      while (written < total && !answered() && !socket.destroyed) {
        written += chunk.length;
        if (!socket.write(framed)) return void socket.once("drain", pump);
      }
      if (written >= total && !answered() && !socket.destroyed) socket.write("0\r\n\r\n");
    };
    pump();
  };
}

/** Writes `pieces` one every `everyMs` (stops when the server answers or closes). */
function trickle(pieces: (string | Buffer)[], everyMs: number) {
  return (socket: net.Socket, answered: () => boolean) => {
    let i = 0;
    const timer = setInterval(() => {
      if (answered() || socket.destroyed || i >= pieces.length) return clearInterval(timer);
      socket.write(pieces[i++]!);
    }, everyMs);
    socket.on("close", () => clearInterval(timer));
  };
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

test.describe("the production server's limits", () => {
  // One server of their own on a fixed port (beforeAll): these run in order, in one worker.
  test.describe.configure({ mode: "serial" });
  let child: ChildProcess;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    dataDir = tempDataDir();
    child = spawn(process.execPath, [path.join(process.cwd(), "server", "production-server.mjs"), "--port", String(EDGE_PORT)], {
      env: {
        ...process.env,
        DATABASE_URL: "",
        KPS_DATA_DIR: dataDir,
        KPS_DEMO: "0",
        KPS_ADMIN_USERNAME: ADMIN.username,
        KPS_ADMIN_PASSWORD: ADMIN.password,
        ...EDGE,
      },
      stdio: "ignore",
    });
    await waitHealthy(`http://localhost:${EDGE_PORT}`);
  });

  test.afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  test("a 50 MB chunked JSON body to sign-in gets 413 at the limit, and the server's memory does not grow", async () => {
    test.setTimeout(60_000);
    // Warm the route up (its modules load once), then measure.
    const warm = await rawExchange(chunkedBody(2 * 1024 * 1024));
    expect(warm.status).toBe(413);
    const before = rssKb(child.pid!);
    const answer = await rawExchange(chunkedBody(50 * 1024 * 1024));
    const grown = rssKb(child.pid!) - before;
    expect(answer.status, answer.text.slice(0, 300)).toBe(413);
    expect(answer.text).toContain('"code":"too_large"');
    // Cut off: the server stopped reading long before 50 MB (what was sent sits in socket buffers).
    expect(answer.sent).toBeLessThan(16 * 1024 * 1024);
    expect(grown, `RSS grew by ${grown} kB`).toBeLessThan(4 * 1024);
  });

  test("a trickled body is cut off by the request timeout with 408", async () => {
    const bytes = Array.from({ length: 40 }, () => " ");
    const head = `POST /api/auth/sign-in HTTP/1.1\r\nHost: localhost:${EDGE_PORT}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const answer = await rawExchange(trickle([head, ...bytes], 250));
    expect(answer.status, answer.text).toBe(408);
    expect(answer.ms).toBeGreaterThanOrEqual(2_900);
    expect(answer.ms).toBeLessThan(8_000);
  });

  test("trickled headers are cut off by the headers timeout", async () => {
    const pieces = ["GET /api/health HTTP/1.1\r\n", ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
    const answer = await rawExchange(trickle(pieces, 250));
    expect([408, undefined]).toContain(answer.status);
    expect(answer.ms).toBeLessThan(8_000);
  });

  test("an upload may take longer than the request timeout, but not stall longer than the idle timeout", async () => {
    test.setTimeout(60_000);
    const signIn = await fetch(`http://localhost:${EDGE_PORT}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const body = fs.readFileSync(demoFile("knowledge.jsonl"));
    const head = `POST /api/knowledge HTTP/1.1\r\nHost: localhost:${EDGE_PORT}\r\nCookie: ${cookie}\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    // Ten pieces, one every 600 ms: 6 s in all, twice the 3 s request timeout.
    const step = Math.ceil(body.length / 10);
    const pieces = Array.from({ length: 10 }, (_, i) => body.subarray(i * step, (i + 1) * step));
    const slow = await rawExchange(trickle([head, ...pieces], 600));
    expect(slow.status, slow.text.slice(0, 400)).toBe(201);
    expect(slow.ms).toBeGreaterThan(5_000);

    // Half the body, then nothing: closed after the 4 s idle timeout, without an answer.
    const stalled = await rawExchange(trickle([head, body.subarray(0, step)], 100));
    expect(stalled.status).toBeUndefined();
    expect(stalled.ms).toBeGreaterThanOrEqual(3_900);
    expect(stalled.ms).toBeLessThan(10_000);
  });

  test("connections beyond the per-address cap are refused at once, and a closed one frees its place", async () => {
    const open: net.Socket[] = [];
    const connect = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(EDGE_PORT, "127.0.0.1", () => resolve(s));
        s.on("error", reject);
      });
    try {
      for (let i = 0; i < 8; i++) open.push(await connect());
      const refused = await rawExchange((s) => s.write(`GET /api/health HTTP/1.1\r\nHost: localhost:${EDGE_PORT}\r\n\r\n`));
      expect(refused.status).toBe(503);
      expect(refused.text).toContain("Too many connections");
      expect(refused.ms).toBeLessThan(1_000);
      // The cap counts open connections, not requests: one closed, one more may come.
      const closed = new Promise((r) => open[0]!.once("close", r));
      open.shift()!.destroy();
      await closed;
      await expect
        .poll(
          async () =>
            (await rawExchange((s) => s.write(`GET /api/health HTTP/1.1\r\nHost: localhost:${EDGE_PORT}\r\nConnection: close\r\n\r\n`)))
              .status,
        )
        .toBe(200);
    } finally {
      for (const s of open) s.destroy();
    }
  });
});

test.describe("headers and the sign-in route on the suite's server", () => {
  test("every response carries the security headers; pages a nonce-based CSP with a fresh nonce each time", async ({ request }) => {
    const nonces = new Set<string>();
    for (const url of ["/", "/setup", "/annotate"]) {
      const res = await request.get(url, { maxRedirects: 0 });
      const csp = res.headers()["content-security-policy"] ?? "";
      const script = /script-src ([^;]+)/.exec(csp)?.[1] ?? "";
      expect(script, `${url}: ${csp}`).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
      expect(script).not.toContain("unsafe-inline");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      nonces.add(/'nonce-([^']+)'/.exec(script)![1]!);
      if (res.status() === 200) {
        // Next.js's own scripts carry the nonce, and no script goes without it.
        const html = await res.text();
        const scripts = html.match(/<script[^>]*>/g) ?? [];
        expect(scripts.length).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag).toContain(`nonce="${/'nonce-([^']+)'/.exec(script)![1]}"`);
      }
    }
    expect(nonces.size).toBe(3);
    for (const url of ["/", "/api/health", "/api/me", "/api/no-such-route", "/icon.svg"]) {
      const res = await request.get(url, { maxRedirects: 0 });
      const h = res.headers();
      expect(h["content-security-policy"], url).toContain("frame-ancestors 'none'");
      expect(h["x-content-type-options"], url).toBe("nosniff");
      expect(h["referrer-policy"], url).toBe("same-origin");
      // The suite's server runs in production with Secure cookies (KPS_SECURE_COOKIES unset): HSTS on.
      expect(h["strict-transport-security"], url).toMatch(/max-age=\d{7,}/);
    }
    expect((await request.get("/api/health")).headers()["content-security-policy"]).toContain("default-src 'none'");
  });

  test("sign-in accepts only a JSON body, and only from this site when an Origin is named", async ({ request, baseURL }) => {
    const credentials = JSON.stringify({ username: ADMIN.username, password: ADMIN.password });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await request.post("/api/auth/sign-in", { headers: { "content-type": type }, data: credentials });
      expect(res.status(), type).toBe(415);
      expect((await res.json()).error.code).toBe("unsupported_media_type");
    }
    const foreign = await request.post("/api/auth/sign-in", {
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      data: credentials,
    });
    expect(foreign.status()).toBe(403);
    const crossSite = await request.post("/api/auth/sign-in", {
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      data: credentials,
    });
    expect(crossSite.status()).toBe(403);
    const same = await request.post("/api/auth/sign-in", {
      headers: { "content-type": "application/json", origin: baseURL! },
      data: credentials,
    });
    expect(same.status(), await same.text()).toBe(200);
  });

  test("an invite link is built from a loopback Host only; a forged Host is refused in production", async ({ baseURL }) => {
    const admin = await adminApi(baseURL!);
    const ok = await admin.post("/api/invites", { data: { role: "annotator" } });
    expect(ok.status(), await ok.text()).toBe(201);
    expect((await ok.json()).invite.url).toMatch(new RegExp(`^${baseURL}/invite/`));
    const forged = await admin.post("/api/invites", { headers: { host: "evil.example" }, data: { role: "annotator" } });
    expect(forged.status(), await forged.text()).toBe(409);
    expect((await forged.json()).error.message).toContain("KPS_PUBLIC_URL");
    // X-Forwarded-Host from a client that is not a trusted proxy is dropped by the server.
    const forwarded = await admin.post("/api/invites", { headers: { "x-forwarded-host": "evil.example" }, data: { role: "annotator" } });
    expect(forwarded.status(), await forwarded.text()).toBe(201);
    expect((await forwarded.json()).invite.url).not.toContain("evil.example");
    await admin.dispose();
  });
});

/** Records CSP violations: the browser's console reports and the `securitypolicyviolation` events. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

test.describe("pages under the Content-Security-Policy", () => {
  test("the judging page works (one judgment saved) and the coordinator's pages render, with no CSP violation", async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const admin = await adminApi(baseURL!);
    const created = await admin.post("/api/campaigns", { data: { name: unique("e2e-csp"), goldAccuracyThreshold: 0 } });
    expect(created.status(), await created.text()).toBe(201);
    const campaignId: number = (await created.json()).campaign.id;
    const upload = (name: string) => ({ name, mimeType: "application/x-ndjson", buffer: fs.readFileSync(demoFile(name)) });
    expect((await admin.post("/api/knowledge", { multipart: { file: upload("knowledge.jsonl") } })).status()).toBe(201);
    const batch = await admin.post(`/api/campaigns/${campaignId}/batches`, {
      multipart: { queries: upload("queries.jsonl"), candidates: upload("candidates.jsonl"), topK: "1", name: "csp e2e" },
    });
    expect(batch.status(), await batch.text()).toBe(201);
    const launched = await admin.post(`/api/batches/${(await batch.json()).batch.id}/launch`);
    expect(launched.status(), await launched.text()).toBe(200);
    const username = await createAccount(admin, "annotator", "csp");

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const violations = await watchCsp(page);
    await signInWithForm(page, username);
    await page.goto(`/annotate/${campaignId}`);
    await expect(page.locator("article.passage")).toBeVisible();
    const saved = page.waitForResponse(
      (r) => /\/api\/claims\/[A-Za-z0-9_-]+\/judgment$/.test(new URL(r.url()).pathname) && r.request().method() === "POST",
    );
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    expect((await saved).status()).toBe(201);
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    expect(await violations()).toEqual([]);
    await context.close();

    // The coordinator's pages (charts and progress bars use style attributes: style-src allows them).
    const coordinator = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const cpage = await coordinator.newPage();
    const cviolations = await watchCsp(cpage);
    await cpage.goto("/");
    await cpage.getByLabel("Username").fill(ADMIN.username);
    await cpage.getByLabel("Password").fill(ADMIN.password);
    await cpage.keyboard.press("Enter");
    await expect(cpage).toHaveURL(/\/campaigns$/);
    for (const url of [
      `/campaigns/${campaignId}`,
      `/campaigns/${campaignId}/questions`,
      `/campaigns/${campaignId}/settings`,
      "/people",
      "/campaigns/new",
    ]) {
      await cpage.goto(url);
      await expect(cpage.locator("h1").first()).toBeVisible();
    }
    expect(await cviolations()).toEqual([]);
    await coordinator.close();
    await admin.dispose();
  });
});
