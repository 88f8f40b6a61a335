import { REPORTED, suiteConfig } from "./vitest.shared.js";

const CODE = "{lib,db,bin,test,app,components,server}";
/** Integration suites that need a process of their own: they mock a module (vi.mock) or replace a process-wide clock. */
const ISOLATED = ["lib/auth/cheap-checks.int.test.ts", "lib/bootstrap.int.test.ts", "db/cache/hot-cache.int.test.ts"];

/**
 * Unit suites that need a process of their own: they set process.env or replace a global (fetch).
 * The others share their worker's modules (isolate: false), as the integration suites do: the unit
 * run took 21–23 s instead of 45 s here (CPU 43 s instead of 84 s), most of it importing modules again per file.
 */
const UNIT_ISOLATED = ["app/_server/worker-settings.test.ts", "components/api/annotate.test.ts"];

export default suiteConfig({
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Integration suites open PGlite (wasm) per file; two forks fit this 2-core machine. On PostgreSQL
  // alone (KPS_TEST_DATABASES=postgres: CI's first run) the files mostly wait on the server's commits,
  // and four forks took 139 s against 157 s for two (three: 143 s).
  maxWorkers: process.env.KPS_TEST_DATABASES === "postgres" && process.env.DATABASE_URL ? 4 : 2,
  ...REPORTED,
  projects: [
    {
      extends: true,
      test: { name: "unit", include: [`${CODE}/**/*.test.ts`], exclude: ["**/*.int.test.ts", ...UNIT_ISOLATED], isolate: false },
    },
    { extends: true, test: { name: "unit, isolated", include: UNIT_ISOLATED } },
    // The integration suites share their worker's modules (isolate: false): each file still opens
    // its own database, and the process's caches are kept per database object, but the module
    // graph is loaded and PGlite's wasm compiled once per worker instead of once per file (about
    // 3 s a file). The files that mock a module or replace a process-wide clock keep a process of their own.
    { extends: true, test: { name: "integration", include: [`${CODE}/**/*.int.test.ts`], exclude: ISOLATED, isolate: false } },
    { extends: true, test: { name: "integration, isolated", include: ISOLATED } },
  ],
});
