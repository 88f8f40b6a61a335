import http from "node:http";

/** A JSON POST's status and parsed body (with the error's code and message when it is refused). */
export type PostAnswer = { status: number; json: { error?: { code: string; message: string } } };

/**
 * A JSON POST to the app on 127.0.0.1:`port` over node:http from a chosen local address (loopback
 * has 127.0.0.0/8), for the tests of limits kept per client address. No agent, so no connection is
 * reused from another address; `headers` adds to the JSON ones (a test forges address headers so).
 */
export function postFrom(
  port: number | string,
  path: string,
  body: unknown,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<PostAnswer> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(data),
          origin: `http://127.0.0.1:${port}`,
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : {} }));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}
