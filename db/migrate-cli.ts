// npm run db:migrate — applies the committed migrations to the configured database.
// A program of its own, outside the app: it reads just the database's variables from the
// environment, validated by the app's schema for them (db/config.ts), since db/ imports nothing from lib/.
import { z } from "zod";
import { openDatabase, openOptionsOf } from "./client";
import { databaseConfigOf, databaseEnvShape } from "./config";
import { migrateDatabase } from "./migrate";

function configFromEnvironment() {
  const { DATABASE_URL, KPS_DATA_DIR } = process.env;
  // Empty counts as unset, as in lib/env.ts.
  const parsed = z.object(databaseEnvShape).safeParse({ DATABASE_URL: DATABASE_URL || undefined, KPS_DATA_DIR: KPS_DATA_DIR || undefined });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment variables:\n${problems}`);
  }
  return databaseConfigOf(parsed.data);
}

async function main() {
  const handle = await openDatabase(openOptionsOf(configFromEnvironment()));
  try {
    await migrateDatabase(handle);
    console.log(`Migrations applied to ${handle.kind} (${handle.location}).`);
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
