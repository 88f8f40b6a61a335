/**
 * Reading a request's credentials: the session cookie and the `Authorization` header. Both are
 * bytes anyone can send, so a value that does not parse is no credential (the caller is anonymous:
 * 401 on a route that needs one, the anonymous answer elsewhere), never an error of the server.
 */

/**
 * The value of cookie `name` (the first, when the header repeats it), percent-decoded; undefined
 * when absent or when its percent-encoding is broken (`%E0%A4%A`), which no cookie we set has.
 */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeCookieValue(part.slice(eq + 1).trim());
  }
  return undefined;
}

function decodeCookieValue(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined; // URIError: malformed percent-encoding
  }
}

/** RFC 6750's b64token: the only shape a bearer credential has (ours are `kps_`/`kpsw_` + base64url). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export type AuthorizationHeader =
  | { kind: "none" }
  | { kind: "bearer"; token: string }
  /** Present but not `Bearer <token>` (e.g. `Basic …` from a proxy, `Bearer` alone): ignored, and said why. */
  | { kind: "ignored"; reason: string };

export function readAuthorization(req: Request): AuthorizationHeader {
  const header = req.headers.get("authorization");
  if (!header?.trim()) return { kind: "none" };
  const match = BEARER.exec(header.trim());
  if (match) return { kind: "bearer", token: match[1]! };
  return {
    kind: "ignored",
    reason: "The Authorization header was ignored: it must be 'Bearer <token>' (one token of letters, digits and -._~+/).",
  };
}
