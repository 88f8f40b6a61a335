// The crowd platforms as the e2e tests see them: a small HTTP server on its own port, standing in
// for Prolific's completion URL and Mechanical Turk's worker site.
//   GET  /submissions/complete?cc=CODE   Prolific's completion redirect (recorded)
//   POST /mturk/externalSubmit           MTurk's ExternalQuestion submit, a form body (recorded)
//   GET  /frame.html?src=URL             a page framing URL in an <iframe>, as MTurk's worker site does
//   GET  /received?kind=…&…              what was recorded, as JSON (tests filter by a field's value)
//   GET  /health
// playwright.config.ts starts it beside the app (`tsx e2e/crowd-receiver.ts`) and gives the app its
// origin in KPS_CROWD_FRAME_ORIGINS. The app is reached as http://localhost:PORT and the receiver as
// http://127.0.0.1:RPORT: two sites, so the frame is cross-site like MTurk's.
import http from "node:http";
import { fileURLToPath } from "node:url";

/** The receiver's port: KPS_CROWD_RECEIVER_PORT, else the e2e port + 20000 (3100 → 23100), so worktrees on other e2e ports never collide. */
export function receiverPort(e2ePort: number): number {
  return Number(process.env.KPS_CROWD_RECEIVER_PORT || e2ePort + 20_000);
}

export function receiverOrigin(e2ePort: number): string {
  return `http://127.0.0.1:${receiverPort(e2ePort)}`;
}

export interface Received {
  kind: "prolific" | "mturk";
  /** The query (Prolific) or the form fields (MTurk). */
  fields: Record<string, string>;
  at: string;
  /** The page that sent the worker here (the Referer header), if any. */
  referer: string | null;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A line of a receiver's page showing what the worker brought (`value`, escaped) in the element `id`. */
const shown = (label: string, id: string, value: string | undefined) =>
  `<p>${label} <code id="${id}">${escapeHtml(value ?? "")}</code></p>`;

async function readBody(req: http.IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 100_000) throw new Error("body too large");
  }
  return body;
}

export function startCrowdReceiver(port: number, host = "127.0.0.1"): Promise<http.Server> {
  const received: Received[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}:${port}`);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    /** Records what a platform was sent, and answers with the page the worker then sees (`title`, then `body`). */
    const receive = (kind: Received["kind"], fields: Record<string, string>, title: string, body: string) => {
      received.push({ kind, fields, at: new Date().toISOString(), referer: req.headers.referer ?? null });
      send(200, "text/html; charset=utf-8", page(title, `<h1>${title}</h1>${body}`));
    };
    try {
      if (req.method === "GET" && url.pathname === "/health") return send(200, "text/plain", "ok");
      if (req.method === "GET" && url.pathname === "/submissions/complete") {
        const fields = Object.fromEntries(url.searchParams);
        return receive("prolific", fields, "Submission complete", shown("Completion code", "cc", fields.cc));
      }
      if (req.method === "POST" && url.pathname === "/mturk/externalSubmit") {
        const fields = Object.fromEntries(new URLSearchParams(await readBody(req)));
        return receive("mturk", fields, "HIT submitted", shown("Assignment", "assignment", fields.assignmentId));
      }
      if (req.method === "GET" && url.pathname === "/frame.html") {
        const src = url.searchParams.get("src") ?? "about:blank";
        const frame = `<iframe id="hit" title="HIT" src="${escapeHtml(src)}" style="width:100%;height:90vh;border:1px solid #888"></iframe>`;
        return send(200, "text/html; charset=utf-8", page("Mechanical Turk (test)", `<h1>Worker site (test)</h1>${frame}`));
      }
      if (req.method === "GET" && url.pathname === "/received") {
        const wanted = [...url.searchParams].filter(([k]) => k !== "kind");
        const kind = url.searchParams.get("kind");
        const rows = received.filter((r) => (!kind || r.kind === kind) && wanted.every(([k, v]) => r.fields[k] === v));
        return send(200, "application/json", JSON.stringify({ received: rows }));
      }
      send(404, "text/plain", "not found");
    } catch (error) {
      send(500, "text/plain", String(error));
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** What the receiver recorded of `kind` whose fields equal `match` (read over HTTP: the receiver runs in its own process). */
export async function receivedAt(origin: string, kind: Received["kind"], match: Record<string, string> = {}): Promise<Received[]> {
  const res = await fetch(`${origin}/received?${new URLSearchParams({ kind, ...match })}`);
  if (!res.ok) throw new Error(`the crowd receiver answered ${res.status}`);
  return ((await res.json()) as { received: Received[] }).received;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf("--port");
  const port = i > 0 ? Number(process.argv[i + 1]) : receiverPort(Number(process.env.KPS_E2E_PORT || 3100));
  await startCrowdReceiver(port);
  console.log(`crowd receiver on http://127.0.0.1:${port}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(0));
}
