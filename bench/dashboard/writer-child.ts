// The write load in its own process (PostgreSQL), so that its JavaScript does not share the event
// loop with the dashboard calls being timed. Reads "mark" and "stop" lines on stdin; prints
// "ready" once writing, and "KPS_BENCH_RESULT {json}" after stop.
//
//   tsx bench/dashboard/writer-child.ts --url postgres://… --campaign 1 --writers 12:bench-writer-000,13:bench-writer-001
import readline from "node:readline";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { startWriters } from "./writers";

async function main() {
  const { values } = parseArgs({ options: { url: { type: "string" }, campaign: { type: "string" }, writers: { type: "string" } } });
  if (!values.url || !values.campaign || !values.writers)
    throw new Error("usage: writer-child.ts --url URL --campaign ID --writers id:username,…");
  const writers = values.writers.split(",").map((w) => {
    const [id, username] = w.split(":");
    return { id: Number(id), username: username! };
  });
  const handle = await openDatabase({ url: values.url });
  const load = startWriters(handle.db, Number(values.campaign), writers);
  console.log("ready");
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === "mark") load.mark();
    if (line === "stop") break;
  }
  const stats = await load.stop();
  await handle.close();
  console.log(`KPS_BENCH_RESULT ${JSON.stringify({ ...stats, maxRssKiB: process.resourceUsage().maxRSS })}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
