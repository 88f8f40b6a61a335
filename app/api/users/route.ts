import { createUserSchema } from "@/lib/auth/schemas";
import { createUser, listUsers } from "@/lib/auth/users";
import { env } from "@/lib/env";
import { userListQuerySchema } from "@/lib/list-options.contract";
import { json, publicOrigin, readJson, requestContext, route } from "@/app/_server/http";
import { pagedListRoute } from "@/app/_server/paged-list";

// GET /api/users — accounts newest first, a page at a time (?q=, ?role=, ?memberOf=, ?after=, ?limit=) (coordinators)
export const GET = pagedListRoute("users", userListQuerySchema, listUsers);

// POST /api/users — creates an account; without a password the answer carries an invite link
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createUserSchema);
  // The link's origin before the account: a refused Host (production without KPS_PUBLIC_URL) creates nothing.
  const origin = input.password === undefined ? publicOrigin(req, env().KPS_PUBLIC_URL) : "";
  const { user, invite } = await createUser(db, actor, input);
  const inviteUrl = invite ? `${origin}/invite/${invite.token}` : undefined;
  return json({ user, ...(invite ? { invite: { url: inviteUrl, expiresAt: invite.expiresAt } } : {}) }, 201);
});
