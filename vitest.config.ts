import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // lib/'s server files import "server-only", which throws unless resolved under React's
      // react-server condition (as Next.js does on the server); tests load them as the server does.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["{lib,db,bin,test,app,components,server}/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites open PGlite (wasm) per file; two forks fit this 2-core machine.
    pool: "forks",
    maxWorkers: 2,
    // In CI one retry; scripts/test.mjs prints a test that passed only on its retry as flaky.
    retry: process.env.CI ? 1 : 0,
    includeTaskLocation: true,
  },
});
