import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import {
  assertJsonContentType,
  assertSameOrigin,
  clientAddress,
  errorResponse,
  isConnectionError,
  MAX_JSON_BYTES,
  publicOrigin,
  readCookie,
  readJson,
  sessionCookie,
} from "./http";

const schema = z.object({ username: z.string().min(2), role: z.enum(["annotator", "coordinator"]) });

function post(body: string, headers: Record<string, string> = {}) {
  return new Request("http://localhost:3000/api/users", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error instanceof AppError ? [error.code, error.status] : ["unexpected", 0];
  }
  return ["ok", 200];
}

describe("readJson", () => {
  it("parses a valid body", async () => {
    expect(await readJson(post('{"username":"ann","role":"annotator"}'), schema)).toEqual({ username: "ann", role: "annotator" });
  });
  it("answers 400 for malformed or empty JSON", async () => {
    expect(await codeOf(readJson(post("{bad"), schema))).toEqual(["bad_request", 400]);
    expect(await codeOf(readJson(post(""), schema))).toEqual(["bad_request", 400]);
  });
  it("answers 422 naming each bad field", async () => {
    try {
      await readJson(post('{"username":"a","role":"boss"}'), schema);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const e = error as AppError;
      expect(e.status).toBe(422);
      expect(e.message).toContain("username");
      expect(e.message).toContain("role");
      expect((e.details as { problems: { field: string }[] }).problems.map((p) => p.field)).toEqual(["username", "role"]);
    }
  });
  it("answers 413 for a body over the limit", async () => {
    const big = JSON.stringify({ username: "x".repeat(MAX_JSON_BYTES), role: "annotator" });
    expect(await codeOf(readJson(post(big), schema))).toEqual(["too_large", 413]);
  });
});

describe("errorResponse", () => {
  it("has the error shape and status of an AppError", async () => {
    const res = errorResponse(new AppError("conflict", "taken", { field: "username" }));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: { code: "conflict", message: "taken", details: { field: "username" } } });
  });
  it("hides unexpected errors behind a generic 500", async () => {
    const original = console.error;
    console.error = () => {};
    try {
      const res = errorResponse(new Error("secret internals"));
      expect(res.status).toBe(500);
      expect(JSON.stringify(await res.json())).not.toContain("secret internals");
    } finally {
      console.error = original;
    }
  });
  it("answers 503 for a lost database, also when drizzle wraps the driver's error", async () => {
    const original = console.error;
    console.error = () => {};
    try {
      const wrapped = (cause: object) => Object.assign(new Error("Failed query: select 1"), { cause });
      for (const error of [
        Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
        wrapped(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })),
        wrapped(Object.assign(new Error("the database system is starting up"), { code: "57P03" })),
        wrapped(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })),
        wrapped(Object.assign(new Error("connection failure"), { code: "08006" })),
      ]) {
        const res = errorResponse(error);
        expect(res.status, error.message).toBe(503);
        expect((await res.json()).error.code).toBe("unavailable");
      }
      expect(isConnectionError(wrapped(Object.assign(new Error("duplicate key"), { code: "23505" })))).toBe(false);
    } finally {
      console.error = original;
    }
  });
});

describe("cross-site protection", () => {
  it("accepts same-origin requests and refuses other origins", () => {
    expect(() => assertSameOrigin(post("{}", { origin: "http://localhost:3000", host: "localhost:3000" }))).not.toThrow();
    expect(() => assertSameOrigin(post("{}", { origin: "https://evil.example", host: "localhost:3000" }))).toThrow(AppError);
    expect(() => assertSameOrigin(post("{}", { "sec-fetch-site": "cross-site" }))).toThrow(AppError);
    expect(() => assertSameOrigin(post("{}", { origin: "null" }))).toThrow(AppError);
    // Behind a proxy that rewrites Host, the configured public origin is this site too.
    expect(() =>
      assertSameOrigin(post("{}", { origin: "https://kps.example.org", host: "127.0.0.1:3000" }), "https://kps.example.org"),
    ).not.toThrow();
    expect(() =>
      assertSameOrigin(post("{}", { origin: "https://evil.example", host: "127.0.0.1:3000" }), "https://kps.example.org"),
    ).toThrow(AppError);
  });
});

describe("session cookie", () => {
  it("is httpOnly and SameSite=Lax, Secure when asked, and clears with Max-Age=0", () => {
    const c = sessionCookie("abc", new Date("2030-01-01T00:00:00Z"), true);
    expect(c).toContain("kps_session=abc");
    expect(c).toContain("HttpOnly");
    expect(c).toContain("SameSite=Lax");
    expect(c).toContain("Secure");
    expect(sessionCookie("", null, false)).toContain("Max-Age=0");
    expect(sessionCookie("", null, false)).not.toContain("Secure");
  });
  it("is read back from a Cookie header", () => {
    expect(readCookie(new Request("http://x/", { headers: { cookie: "a=1; kps_session=tok%3D; b=2" } }), "kps_session")).toBe("tok=");
  });
});

describe("clientAddress", () => {
  it("is the address the server read from the socket, never a forwarded header the client chose", () => {
    expect(clientAddress(post("{}", { "x-kps-client-address": "203.0.113.9", "x-forwarded-for": "10.0.0.1" }))).toBe("203.0.113.9");
    expect(clientAddress(post("{}", { "x-forwarded-for": "10.0.0.1", "x-real-ip": "10.0.0.2" }))).toBe("unknown");
  });
});

describe("a streamed body", () => {
  /** A chunked body (no Content-Length) of `chunks` × 64 KiB that counts how many chunks were pulled. */
  function chunked(chunks: number) {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const req = new Request("http://localhost:3000/api/auth/sign-in", {
      method: "POST",
      body,
      duplex: "half",
      headers: { "content-type": "application/json" },
    } as RequestInit);
    return { req, pulled: () => pulled };
  }

  it("is cut off at the limit with 413, not read whole", async () => {
    const { req, pulled } = chunked(800); // 50 MiB
    expect(req.headers.get("content-length")).toBeNull();
    expect(await codeOf(readJson(req, schema))).toEqual(["too_large", 413]);
    // The limit is crossed in the 16th chunk; the stream's queue may hold one more.
    expect(pulled()).toBeLessThanOrEqual(Math.ceil(MAX_JSON_BYTES / 65536) + 2);
  });

  it("under the limit is read and parsed", async () => {
    const { req } = chunked(2); // whitespace only: empty
    expect(await codeOf(readJson(req, schema))).toEqual(["bad_request", 400]);
  });
});

describe("assertJsonContentType", () => {
  it("accepts application/json (with parameters), refuses anything else with 415", () => {
    expect(() => assertJsonContentType(post("{}", { "content-type": "application/json; charset=utf-8" }))).not.toThrow();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const req = post("{}", { "content-type": type });
      try {
        assertJsonContentType(req);
        expect.unreachable();
      } catch (error) {
        expect((error as AppError).status).toBe(415);
      }
    }
  });
});

describe("publicOrigin", () => {
  const at = (host: string) => new Request("http://localhost:3000/api/invites", { headers: { host } });
  it("is KPS_PUBLIC_URL when set, whatever the Host", () => {
    expect(publicOrigin(at("evil.example"), "https://kps.example.org/", true)).toBe("https://kps.example.org");
  });
  it("in production without KPS_PUBLIC_URL is built only from a loopback Host", () => {
    expect(publicOrigin(at("localhost:3100"), undefined, true)).toBe("http://localhost:3100");
    expect(publicOrigin(at("127.0.0.1:3000"), undefined, true)).toBe("http://127.0.0.1:3000");
    expect(() => publicOrigin(at("evil.example"), undefined, true)).toThrow(/set KPS_PUBLIC_URL/);
    expect(() => publicOrigin(at("localhost.evil.example"), undefined, true)).toThrow(AppError);
  });
  it("outside production follows the Host", () => {
    expect(publicOrigin(at("lan-box:3000"), undefined, false)).toBe("http://lan-box:3000");
  });
});
