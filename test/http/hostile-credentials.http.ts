import net from "node:net";
import { expect, inject, test } from "vitest";
import { adminApi } from "../../e2e/fixtures";

const baseURL = inject("baseURL");

// Hostile input, continued (e2e/hostile-input.spec.ts holds the rest): cookies and Authorization
// headers anyone can send. A value that does not parse is no credential — 401 where one is needed,
// the anonymous answer elsewhere — never a 500 or a stack trace. Raw sockets, so that every byte
// goes out as written (Playwright's client would refuse some of them).

interface Answer {
  status: number;
  body: string;
}

/** One request over a fresh connection, with these header lines as bytes (latin1: 0x80–0xFF as they are). */
function raw(baseURL: string, method: string, path: string, headerLines: string[]): Promise<Answer> {
  const { hostname, port } = new URL(baseURL);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    ...headerLines,
    method === "POST" ? "Content-Length: 2" : "",
    "",
  ];
  const bytes = Buffer.from(
    head.filter((l, i) => l !== "" || i === head.length - 1).join("\r\n") + "\r\n" + (method === "POST" ? "{}" : ""),
    "latin1",
  );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const body = text.slice(split + 4);
      const chunked = /^transfer-encoding: *chunked/im.test(text.slice(0, split));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: chunked ? dechunk(body) : body });
    });
  });
}

/** A chunked body's data (`size CRLF data CRLF`… `0 CRLF CRLF`). */
function dechunk(body: string): string {
  let out = "";
  for (let at = 0; ;) {
    const eol = body.indexOf("\r\n", at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

const KB8 = (unit: string) => unit.repeat(Math.ceil(8192 / unit.length)).slice(0, 8192);

/** Cookie headers that parse as HTTP but hold no usable session. */
const COOKIES = [
  "kps_session=%E0%A4%A",
  "kps_session=%",
  "kps_session=%zz%",
  "kps_session=%C0%AF",
  "kps_session=%ED%A0%80",
  `kps_session=${KB8("%")}`,
  `kps_session=${KB8("%E0")}`,
  `kps_session=${KB8("a")}`,
  'kps_session="quoted"',
  "kps_session",
  "kps_session=",
  "=; ;;;=;",
  "kps_session=%E0%A4%A; kps_session=%E0%A4%A",
  "kps_session=\xff\xfe\x80",
  "a=%E0%A4%A; kps_session=nope",
];
/** Authorization headers that are not `Bearer <token>`: ignored. */
const IGNORED_AUTHORIZATION = [
  "Bearer",
  "Bearer ",
  "Bearer    ",
  "Bearer a b",
  "Basic xyz",
  "Basic dXNlcjpwYXNz",
  "Negotiate",
  ",",
  "Bearer \xff\xfe",
  "Bearer kps_%E0%A4%A",
  `Bearer ${KB8("a ")}`,
];
/** Well-formed bearer credentials that are nobody's: 401 even where no credential is needed (a wrong key, not no key). */
const UNKNOWN_BEARER = ["Bearer kps_unknown", `Bearer ${KB8("A")}`, "bearer kpsw_nobody"];
/** Bytes Node's HTTP parser refuses before the app sees them: 400. */
const UNPARSABLE = [
  "Cookie: kps_session=a\x00b",
  "Cookie: kps_session=\x01\x02",
  "Authorization: Bearer \x00",
  "Authorization: Bearer a\x7fb",
];

function expectNoTrace(answer: Answer, what: string) {
  expect(answer.status, what).not.toBe(500);
  expect(answer.body, what).not.toMatch(/\n\s+at |URIError|TypeError/);
}

test(
  "malformed cookies and Authorization headers count as no credential: 401 where one is needed, the anonymous answer elsewhere, never a 500",
  { timeout: 60_000 },
  async () => {
    const missingEntry = "/api/crowd/AAAAAAAAAAAAAAAAAAAAAA"; // public: 404 for a key nobody has
    const needs = [
      ["GET", "/api/me"],
      ["POST", "/api/knowledge/index"],
    ] as const;
    for (const header of [...COOKIES.map((c) => `Cookie: ${c}`), ...IGNORED_AUTHORIZATION.map((a) => `Authorization: ${a}`)]) {
      for (const [method, path] of needs) {
        const answer = await raw(baseURL, method, path, [header, "Content-Type: application/json"]);
        expectNoTrace(answer, `${method} ${path} with ${header}`);
        expect(answer.status, `${method} ${path} with ${JSON.stringify(header)}`).toBe(401);
        expect(JSON.parse(answer.body).error.code).toBe("unauthorized");
      }
      const open = await raw(baseURL, "GET", missingEntry, [header]);
      expect(open.status, `the public entry with ${JSON.stringify(header)}`).toBe(404);
      const page = await raw(baseURL, "GET", "/", [header]);
      expectNoTrace(page, `the sign-in page with ${header}`);
      expect(page.status, `the sign-in page with ${JSON.stringify(header)}`).toBe(200);
    }
    const ignored = await raw(baseURL, "GET", "/api/me", ["Authorization: Basic xyz"]);
    expect(JSON.parse(ignored.body).error.message).toContain("The Authorization header was ignored: it must be 'Bearer <token>'");
    for (const header of UNKNOWN_BEARER) {
      const answer = await raw(baseURL, "GET", missingEntry, [`Authorization: ${header}`]);
      expectNoTrace(answer, header);
      expect(answer.status, header).toBe(401);
    }
    for (const header of UNPARSABLE) {
      const answer = await raw(baseURL, "GET", "/api/me", [header]);
      expect(answer.status, JSON.stringify(header)).toBe(400);
    }
  },
);

test("a real session cookie still works beside an ignored Authorization header or a broken other cookie; a real token beside a broken cookie", async () => {
  const admin = await adminApi(baseURL);
  const session = (await admin.storageState()).cookies.find((c) => c.name === "kps_session")!.value;
  const me = async (headers: string[]) => {
    const answer = await raw(baseURL, "GET", "/api/me", headers);
    return [answer.status, answer.status === 200 ? JSON.parse(answer.body).via : answer.body] as const;
  };
  // A proxy's Basic credentials (nginx auth_basic in front) no longer lock every cookie out.
  expect(await me([`Cookie: kps_session=${session}`, "Authorization: Basic dXNlcjpwYXNz"])).toEqual([200, "session"]);
  expect(await me([`Cookie: a=%E0%A4%A; kps_session=${session}; b=%`])).toEqual([200, "session"]);
  expect(await me([`Cookie: kps_session=${session}`, "Authorization: Bearer"])).toEqual([200, "session"]);
  // The first of duplicate cookies counts: a broken one first is no session.
  expect((await me([`Cookie: kps_session=%E0%A4%A; kps_session=${session}`]))[0]).toBe(401);
  const token = ((await (await admin.post("/api/tokens", { data: { name: "fuzz" } })).json()) as { token: { token: string } }).token.token;
  expect(await me([`Authorization: Bearer ${token}`, "Cookie: kps_session=%E0%A4%A"])).toEqual([200, "token"]);
  await admin.dispose();
});
