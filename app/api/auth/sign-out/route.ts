import { signOut } from "@/lib/auth/sessions";
import { json, readEmptyBody, requestContext, route, sessionCookie } from "@/app/_server/http";

// POST /api/auth/sign-out — revokes the current session and clears the cookie
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  await signOut(db, actor);
  return json({ signedOut: true }, 200, { "set-cookie": sessionCookie("", null) });
});
