import { createInvite } from "@/lib/auth/invites";
import { createInviteSchema } from "@/lib/auth/schemas";
import { env } from "@/lib/env";
import { json, publicOrigin, readJson, requestContext, route } from "@/app/_server/http";

// POST /api/invites — creates a single-use, expiring invite link for a new account (coordinators)
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, createInviteSchema);
  // The link's origin first: a refused Host (production without KPS_PUBLIC_URL) creates no invite.
  const origin = publicOrigin(req, env().KPS_PUBLIC_URL);
  const invite = await createInvite(db, actor, input);
  const url = `${origin}/invite/${invite.token}`;
  return json({ invite: { url, role: invite.role, expiresAt: invite.expiresAt } }, 201);
});
