import { describe, expect, it } from "vitest";
import { anonymous, requireUser } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { readAuthorization, readCookie } from "./credentials";

const withHeaders = (headers: Record<string, string>) => new Request("http://x/", { headers });
const cookie = (value: string) => readCookie(withHeaders({ cookie: value }), "kps_session");

describe("readCookie", () => {
  it("decodes a well-formed value and takes the first of duplicates", () => {
    expect(cookie("a=1; kps_session=tok%3D; b=2")).toBe("tok=");
    expect(cookie("kps_session=first; kps_session=second")).toBe("first");
    expect(cookie("xkps_session=no; kps_sessionx=no")).toBeUndefined();
  });

  it("treats a broken percent-encoding as no cookie instead of throwing", () => {
    for (const bad of ["%E0%A4%A", "%", "%%", "%zz", "%C0%AF", "%ED%A0%80", "a%"]) {
      expect(() => cookie(`kps_session=${bad}`)).not.toThrow();
      expect(cookie(`kps_session=${bad}`)).toBeUndefined();
    }
  });

  it("survives odd headers: no '=', empty names, empty values, 8 KB values, control bytes", () => {
    expect(cookie("kps_session")).toBeUndefined();
    expect(cookie("=x; ;;; kps_session=")).toBe("");
    expect(cookie(`kps_session=${"a".repeat(8192)}`)).toHaveLength(8192);
    expect(cookie("kps_session=\u0001\u007f\u00ff")).toBe("\u0001\u007f\u00ff");
    expect(readCookie(withHeaders({}), "kps_session")).toBeUndefined();
  });
});

describe("readAuthorization", () => {
  const auth = (value: string) => readAuthorization(withHeaders({ authorization: value }));

  it("reads one b64token after Bearer, any letter case, trimmed", () => {
    expect(auth("Bearer kps_abc-DEF_09")).toEqual({ kind: "bearer", token: "kps_abc-DEF_09" });
    expect(auth("  bearer kpsw_x.y~z+/==  ")).toEqual({ kind: "bearer", token: "kpsw_x.y~z+/==" });
    expect(readAuthorization(withHeaders({}))).toEqual({ kind: "none" });
    expect(auth("   ")).toEqual({ kind: "none" });
  });

  it("ignores, with the reason, whatever is not Bearer <token>", () => {
    for (const bad of [
      "Bearer",
      "Bearer ",
      "Bearer  a b",
      "Basic xyz",
      "Basic dXNlcjpwYXNz",
      "Bearer t\u00e9st",
      "Bearer =abc",
      "Token kps_x",
      "Bearerkps_x",
      "Bearer\tkps_x",
      "Bearer a,b",
    ]) {
      const read = auth(bad);
      expect(read.kind, bad).toBe("ignored");
      expect(read.kind === "ignored" && read.reason).toContain("must be 'Bearer <token>'");
    }
  });

  it("an ignored header makes the 401 say why", () => {
    const read = auth("Basic xyz");
    const actor = { ...anonymous, ignored: read.kind === "ignored" ? read.reason : undefined };
    expect(() => requireUser(actor)).toThrow(AppError);
    expect(() => requireUser(actor)).toThrow(/Authorization header was ignored/);
  });
});
