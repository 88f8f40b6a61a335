import { acceptInvite } from "@/lib/auth/invites";
import { acceptInviteSchema } from "@/lib/auth/schemas";
import { clientAddress, json, readJson, requestContext, route } from "@/app/_server/http";

// POST /api/invites/accept — uses an invite link once: sets the password (and username for an open invite); 429 per address
export const POST = route(async (req) => {
  const { db, actor } = await requestContext(req);
  const input = await readJson(req, acceptInviteSchema);
  const user = await acceptInvite(db, actor, { ...input, address: clientAddress(req) });
  return json({ user }, 201);
});
