import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { accounts, adminApi, createAccount, PASSWORD, signedInApi, unique } from "./fixtures";

type Caller = "anonymous" | "annotator" | "coordinator";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Setup {
  admin: APIRequestContext;
}

interface Case {
  /** The concrete path; `[id]`-style segments are filled by the case. */
  path?: (s: Setup) => Promise<string> | string;
  body?: (s: Setup) => Promise<unknown> | unknown;
  expect: Record<Caller, number>;
}

/**
 * Every API route × {anonymous, annotator, coordinator} with the status each must get.
 * A route added under app/api without an entry here fails the first test below.
 */
const matrix: Record<string, Case> = {
  "GET /api/health": { expect: { anonymous: 200, annotator: 200, coordinator: 200 } },
  "POST /api/auth/sign-in": {
    body: async ({ admin }) => ({ username: await createAccount(admin, "annotator", "signin"), password: PASSWORD }),
    expect: { anonymous: 200, annotator: 200, coordinator: 200 },
  },
  "POST /api/auth/sign-out": { body: () => ({}), expect: { anonymous: 200, annotator: 200, coordinator: 200 } },
  "GET /api/me": { expect: { anonymous: 401, annotator: 200, coordinator: 200 } },
  "POST /api/setup": {
    body: () => ({ username: unique("setup"), password: PASSWORD }),
    expect: { anonymous: 409, annotator: 409, coordinator: 409 },
  },
  "GET /api/users": { expect: { anonymous: 401, annotator: 403, coordinator: 200 } },
  "POST /api/users": {
    body: () => ({ username: unique("matrix"), role: "annotator", password: PASSWORD }),
    expect: { anonymous: 401, annotator: 403, coordinator: 201 },
  },
  "GET /api/tokens": { expect: { anonymous: 401, annotator: 403, coordinator: 200 } },
  "POST /api/tokens": { body: () => ({ name: "matrix" }), expect: { anonymous: 401, annotator: 403, coordinator: 201 } },
  "DELETE /api/tokens/[id]": {
    path: async ({ admin }) => {
      const res = await admin.post("/api/tokens", { data: { name: "to revoke" } });
      return `/api/tokens/${(await res.json()).token.id}`;
    },
    expect: { anonymous: 401, annotator: 403, coordinator: 200 },
  },
  "POST /api/invites": { body: () => ({ role: "annotator" }), expect: { anonymous: 401, annotator: 403, coordinator: 201 } },
  "POST /api/invites/accept": {
    body: async ({ admin }) => {
      const res = await admin.post("/api/invites", { data: { role: "annotator" } });
      const url: string = (await res.json()).invite.url;
      return { token: url.split("/invite/")[1], username: unique("accepted"), password: PASSWORD };
    },
    expect: { anonymous: 201, annotator: 201, coordinator: 201 },
  },
};

/** Every exported handler of every app/api/**\/route.ts, as "METHOD /api/path". */
function discoverRoutes(): string[] {
  const apiDir = path.join(process.cwd(), "app", "api");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        const routePath = "/" + path.relative(path.join(process.cwd(), "app"), dir).split(path.sep).join("/");
        for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) {
          found.push(`${m[1]} ${routePath}`);
        }
      }
    }
  };
  walk(apiDir);
  return found.sort();
}

test("the authorization matrix lists every API route", () => {
  expect(Object.keys(matrix).sort()).toEqual(discoverRoutes());
});

for (const [route, spec] of Object.entries(matrix)) {
  for (const caller of ["anonymous", "annotator", "coordinator"] as const) {
    test(`${route} as ${caller} → ${spec.expect[caller]}`, async ({ baseURL, playwright }) => {
      const admin = await adminApi(baseURL!);
      const setup = { admin };
      const [method, template] = route.split(" ") as [Method, string];
      const target = spec.path ? await spec.path(setup) : template;
      const body = spec.body ? await spec.body(setup) : undefined;
      // Each case signs in afresh, so a sign-out case never ends a session another case uses.
      const api =
        caller === "anonymous" ? await playwright.request.newContext({ baseURL }) : await signedInApi(baseURL!, accounts()[caller]);
      const res = await api.fetch(target, { method, data: body });
      expect(res.status(), `${route} as ${caller}: ${await res.text()}`).toBe(spec.expect[caller]);
      if (res.status() >= 400) {
        const json = await res.json();
        expect(typeof json.error.code).toBe("string");
        expect(typeof json.error.message).toBe("string");
      }
      await api.dispose();
      await admin.dispose();
    });
  }
}

test("a bearer token acts as its coordinator, and a revoked one is refused at once", async ({ baseURL, playwright }) => {
  const admin = await adminApi(baseURL!);
  const created = await (await admin.post("/api/tokens", { data: { name: "bearer test" } })).json();
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${created.token.token}` } });
  expect((await api.get("/api/users")).status()).toBe(200);
  expect((await admin.delete(`/api/tokens/${created.token.id}`)).status()).toBe(200);
  const refused = await api.get("/api/users");
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("unauthorized");
  await api.dispose();
  await admin.dispose();
});

test("a cookie-authenticated POST from another site is refused", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().coordinator);
  const res = await api.post("/api/tokens", { data: { name: "csrf" }, headers: { origin: "https://evil.example" } });
  expect(res.status()).toBe(403);
  await api.dispose();
});

test("malformed JSON is a 400 with the error shape", async ({ baseURL }) => {
  const api = await signedInApi(baseURL!, accounts().coordinator);
  const res = await api.post("/api/users", { data: Buffer.from("{not json"), headers: { "content-type": "application/json" } });
  expect(res.status()).toBe(400);
  expect((await res.json()).error.code).toBe("bad_request");
  await api.dispose();
});
