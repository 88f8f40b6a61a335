import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { startApp, tempDataDir, waitHealthy } from "../../e2e/fixtures";

// Two app processes on one embedded data directory: the second must refuse to start.
test("a second app process on the same .data directory fails with a clear message", { timeout: 90_000 }, async () => {
  const dataDir = tempDataDir();
  const first = startApp(3191, dataDir, { KPS_DEMO: "0" });
  try {
    await waitHealthy(first.url);
    const second = startApp(3192, dataDir, { KPS_DEMO: "0" });
    const code = await Promise.race([second.exited(), new Promise<"running">((r) => setTimeout(() => r("running"), 30_000))]);
    if (code === "running") await second.stop();
    expect(code).toBe(1);
    expect(second.output()).toContain(`The embedded database at ${dataDir} is already in use by another process`);

    // The first process still serves.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  } finally {
    await first.stop();
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  }
});
