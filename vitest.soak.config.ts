import path from "node:path";
import { defineConfig } from "vitest/config";

/** The long fault tests (npm run test:soak): one at a time, since they restart servers and PostgreSQL. */
export default defineConfig({
  // server-only: an empty module, as in vitest.config.ts.
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["test/soak/**/*.soak.ts"],
    environment: "node",
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
