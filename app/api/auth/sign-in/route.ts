import { signInSchema } from "@/lib/auth/schemas";
import { signIn } from "@/lib/auth/sessions";
import {
  assertJsonContentType,
  assertSameOrigin,
  clientAddress,
  json,
  readJson,
  requestContext,
  route,
  sessionCookie,
} from "@/app/_server/http";

// POST /api/auth/sign-in — checks {username, password} and sets the session cookie.
// JSON only (415) and, when the browser names an Origin, this site's (403): no login CSRF via a form.
export const POST = route(async (req) => {
  assertJsonContentType(req);
  assertSameOrigin(req);
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, signInSchema);
  const result = await signIn(db, actor, { ...input, address: clientAddress(req), userAgent: req.headers.get("user-agent") });
  return json({ user: result.user, expiresAt: result.expiresAt }, 200, {
    "set-cookie": sessionCookie(result.sessionToken, result.expiresAt),
  });
});
