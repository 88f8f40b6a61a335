import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { databaseConfig } from "@/lib/env";
import { json, route } from "@/app/_server/http";

export const dynamic = "force-dynamic";

// GET /api/health — liveness and database reachability (no sign-in needed)
export const GET = route(async () => {
  const { db, kind } = await getDatabase(databaseConfig());
  await db.execute(sql`select 1`);
  return json({ status: "ok", database: kind });
});
