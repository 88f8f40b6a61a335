import { acceptInviteAndSignIn } from "@/lib/auth/invites";
import { acceptInviteSchema } from "@/lib/auth/schemas";
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

// POST /api/invites/accept — uses an invite link once: sets the password (and username for an open invite) and signs
// the account in (the session cookie, as sign-in sets it); 429 per address. JSON only (415), this site's Origin (403).
export const POST = route(async (req) => {
  assertJsonContentType(req);
  assertSameOrigin(req);
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, acceptInviteSchema);
  const result = await acceptInviteAndSignIn(db, actor, {
    ...input,
    address: clientAddress(req),
    userAgent: req.headers.get("user-agent"),
  });
  return json({ user: result.user, expiresAt: result.expiresAt }, 201, {
    "set-cookie": sessionCookie(result.sessionToken, result.expiresAt),
  });
});
