import { suiteConfig } from "./vitest.shared.js";

/** The long fault tests (npm run test:soak): one at a time, since they restart servers and PostgreSQL. */
export default suiteConfig({
  include: ["test/soak/**/*.soak.ts"],
  testTimeout: 300_000,
  hookTimeout: 120_000,
  maxWorkers: 1,
  fileParallelism: false,
});
