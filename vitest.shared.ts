import path from "node:path";
import { defineConfig, type ViteUserConfig } from "vitest/config";

/**
 * What the three vitest configs (vitest.config.ts, vitest.http.config.ts, vitest.soak.config.ts)
 * share: "@" is the repository root, as in tsconfig.json, and tests run in node in forked processes.
 * Each config adds which files it runs, its timeouts and how many of them run at once. They import
 * it as "./vitest.shared.js": Vite's config loader warns about an import without a file ending, and
 * TypeScript resolves ".js" to this file.
 */
export function suiteConfig(test: NonNullable<ViteUserConfig["test"]>) {
  return defineConfig({
    resolve: {
      alias: {
        "@": path.resolve(import.meta.dirname),
        // lib/'s server files import "server-only", which throws unless resolved under React's
        // react-server condition (as Next.js does on the server); tests load them as the server does.
        "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
      },
    },
    test: { environment: "node", pool: "forks", ...test },
  });
}

/** The unit, integration and HTTP suites: one retry in CI (scripts/test.mjs prints a test that passed only on its retry as flaky), and each test's place in its file for the report. */
export const REPORTED = { retry: process.env.CI ? 1 : 0, includeTaskLocation: true };
