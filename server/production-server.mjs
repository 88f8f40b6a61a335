#!/usr/bin/env node
// The production server: Next.js's request handler on Node's http server, like `next start`, but
// without Node's 5-minute request timeout, so a 35 GB knowledge-source upload is not cut off.
// Usage: node server/production-server.mjs [--port N]   (PORT and HOSTNAME are read too)
import http from "node:http";
import path from "node:path";

process.env.NODE_ENV = "production";
const { default: next } = await import("next");

const root = path.resolve(import.meta.dirname, "..");
const portArg = process.argv.indexOf("--port");
const port = Number(portArg > -1 ? process.argv[portArg + 1] : process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || "0.0.0.0";

const app = next({ dev: false, dir: root, port, hostname: "localhost" });
await app.prepare();
const handle = app.getRequestHandler();

// The caller's address for per-address limits (sign-in), set here from the socket so that a client
// cannot choose it: any incoming x-kps-client-address is overwritten. Behind a reverse proxy,
// KPS_TRUST_PROXY=1 takes the first X-Forwarded-For entry instead (only then is that header believed).
const trustProxy = process.env.KPS_TRUST_PROXY === "1";

const server = http.createServer({ requestTimeout: 0 }, (req, res) => {
  const forwarded = trustProxy ? String(req.headers["x-forwarded-for"] ?? "").split(",")[0].trim() : "";
  req.headers["x-kps-client-address"] = forwarded || req.socket.remoteAddress || "unknown";
  handle(req, res).catch((error) => {
    console.error("request failed:", error);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
server.on("error", (error) => {
  console.error(`Cannot listen on port ${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  console.log(`Ready: http://localhost:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
