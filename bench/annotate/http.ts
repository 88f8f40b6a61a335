// A minimal HTTP client on node:http with keep-alive sockets: the load generator must cost as little
// CPU as possible (it shares the 2 cores with the server and PostgreSQL) and must control every
// header (no Origin header: cookie-authenticated POSTs from another origin are refused).
import http from "node:http";

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Client {
  request(method: string, path: string, options?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<HttpResponse>;
  json<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; data: T; headers: http.IncomingHttpHeaders }>;
  close(): void;
}

export function createClient(baseUrl: string, maxSockets: number): Client {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "lifo" });
  // A keep-alive socket idle past the server's keepAliveTimeout (5 s) may be closed by the server
  // just as a request goes out on it: Node's documented remedy is to send again once, on a new
  // socket, when the error came from a reused socket (every request of the load is idempotent:
  // judgments carry their idempotency key, next and renew answer the same twice).
  const request: Client["request"] = (method, path, options = {}) =>
    send(method, path, options).catch((error: NodeJS.ErrnoException & { reused?: boolean }) => {
      if (error.reused && error.code === "ECONNRESET") return send(method, path, options);
      throw error;
    });
  const send: Client["request"] = (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const body = options.body === undefined ? undefined : typeof options.body === "string" ? Buffer.from(options.body) : options.body;
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { ...(body ? { "content-length": String(body.length) } : {}), ...options.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", (error) => reject(Object.assign(error, { reused: req.reusedSocket })));
      req.end(body);
    });
  return {
    request,
    async json(method, path, body, headers) {
      const res = await request(method, path, {
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = res.body.toString("utf8");
      let data: unknown = undefined;
      if (text) {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      return { status: res.status, data: data as never, headers: res.headers };
    },
    close: () => agent.destroy(),
  };
}

/** The value of one cookie from a response's Set-Cookie headers. */
export function cookieFrom(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  for (const line of headers["set-cookie"] ?? []) {
    const first = line.split(";")[0]!;
    const eq = first.indexOf("=");
    if (eq > 0 && first.slice(0, eq).trim() === name) return first.slice(eq + 1).trim();
  }
  return undefined;
}

/** A multipart/form-data body (files and fields), built in memory: the seed files are a few MB. */
export function multipart(
  parts: ({ name: string; value: string } | { name: string; fileName: string; content: string | Buffer; type?: string })[],
): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----kps-bench-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ("value" in p) {
      chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\ncontent-type: ${p.type ?? "application/x-ndjson"}\r\n\r\n`,
        ),
        typeof p.content === "string" ? Buffer.from(p.content) : p.content,
        Buffer.from("\r\n"),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Imports a batch into campaign `campaignId` (POST …/batches, multipart `parts`): its JSON answer, or an error when it is not 201. */
export async function importBatch<T>(
  client: Client,
  auth: Record<string, string>,
  campaignId: number,
  parts: Parameters<typeof multipart>[0],
): Promise<T> {
  const form = multipart(parts);
  const batch = await client.request("POST", `/api/campaigns/${campaignId}/batches`, {
    headers: { ...auth, "content-type": form.contentType },
    body: form.body,
  });
  if (batch.status !== 201) throw new Error(`batch import: ${describe(batch)}`);
  return JSON.parse(batch.body.toString("utf8")) as T;
}

export function describe(res: { status: number; data?: unknown; body?: Buffer }): string {
  const text =
    res.data !== undefined ? (typeof res.data === "string" ? res.data : JSON.stringify(res.data)) : (res.body?.toString("utf8") ?? "");
  return `${res.status} ${text.slice(0, 500)}`;
}
