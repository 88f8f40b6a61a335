import { requireUser } from "@/lib/auth/actor";
import { json, requestContext, route } from "@/app/_server/http";

// GET /api/me — who the caller is
export const GET = route(async (req) => {
  const { actor } = await requestContext(req);
  const user = requireUser(actor);
  return json({ user: { id: user.id, username: user.username, role: user.role }, via: user.via });
});
