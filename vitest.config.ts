import { REPORTED, suiteConfig } from "./vitest.shared.js";

const CODE = "{lib,db,bin,test,app,components,server}";
/** Integration suites that need a process of their own: they mock a module (vi.mock) or replace a process-wide clock. */
const ISOLATED = ["lib/auth/cheap-checks.int.test.ts", "lib/bootstrap.int.test.ts", "db/cache/hot-cache.int.test.ts"];

export default suiteConfig({
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Integration suites open PGlite (wasm) per file; two forks fit this 2-core machine.
  maxWorkers: 2,
  ...REPORTED,
  projects: [
    { extends: true, test: { name: "unit", include: [`${CODE}/**/*.test.ts`], exclude: ["**/*.int.test.ts"] } },
    // The integration suites share their worker's modules (isolate: false): each file still opens
    // its own database, and the process's caches are kept per database object, but the module
    // graph is loaded and PGlite's wasm compiled once per worker instead of once per file (about
    // 3 s a file). The files that mock a module or replace a process-wide clock keep a process of their own.
    { extends: true, test: { name: "integration", include: [`${CODE}/**/*.int.test.ts`], exclude: ISOLATED, isolate: false } },
    { extends: true, test: { name: "integration, isolated", include: ISOLATED } },
  ],
});
