import { signOutEverywhere } from "@/lib/auth/sessions";
import { json, readEmptyBody, requestContext, route, sessionCookie } from "@/app/_server/http";

// POST /api/auth/sign-out-everywhere — ends every session of the caller, this one included, and clears the cookie
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  await readEmptyBody(req);
  const result = await signOutEverywhere(db, actor);
  return json({ signedOut: true, ...result }, 200, { "set-cookie": sessionCookie("", null) });
});
