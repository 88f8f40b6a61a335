// npm run db:migrate — applies the committed migrations to the configured database.
import { openDatabase } from "./client";
import { migrateDatabase } from "./migrate";
import { env } from "@/lib/env";

async function main() {
  const { DATABASE_URL, KPS_DATA_DIR } = env();
  const handle = await openDatabase(DATABASE_URL ? { url: DATABASE_URL } : { dataDir: KPS_DATA_DIR });
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
