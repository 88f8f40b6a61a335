import { REPORTED, suiteConfig } from "./vitest.shared.js";

/**
 * The browser-free end-to-end tests, test/http/*.http.ts (named apart from *.test.ts, so that the
 * unit and integration run never picks them up): HTTP against the production build (`npm run build`
 * first), no browser. test/http/global-setup.ts starts the app and the crowd receiver as Playwright's
 * webServer does; scripts/test.mjs runs this suite after the build, before Playwright.
 * One file: `npx vitest run -c vitest.http.config.ts test/http/cli.http.ts`.
 */
export default suiteConfig({
  include: ["test/http/**/*.http.ts"],
  globalSetup: ["test/http/global-setup.ts"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // One app process serves every file; two forks fit this 2-core machine.
  maxWorkers: 2,
  ...REPORTED,
});
