import { getDatabase } from "@/db/client";
import { bootstrap } from "@/lib/bootstrap";

/** Migrates, bootstraps and prints the sign-in details; a locked or unreachable database stops the process. */
export async function startUp(): Promise<void> {
  try {
    const handle = await getDatabase();
    const lines = await bootstrap(handle);
    console.log(lines.join("\n"));
  } catch (error) {
    console.error(`\nCannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
