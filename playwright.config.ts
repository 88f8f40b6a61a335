import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { e2eServers } from "./e2e/servers";

/**
 * Chromium: KPS_CHROMIUM (or CHROMIUM_PATH); else Debian's headless shell
 * (/usr/bin/chromium-headless-shell, package chromium-headless-shell), the headless-only build that
 * Playwright itself prefers for headless runs: the judging spec took 30% less CPU in it than in
 * Debian's full /usr/bin/chromium (29.6 s against 42.4 s), which is used when the shell is absent;
 * else Playwright's own.
 */
function chromiumPath(): string | undefined {
  const fromEnv = process.env.KPS_CHROMIUM || process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p));
}

export const E2E_PORT = Number(process.env.KPS_E2E_PORT || 3100);
const servers = e2eServers(E2E_PORT);
const baseURL = servers.baseURL;
/** The crowd platforms' stand-in (e2e/crowd-receiver.ts): Prolific's completion URL, MTurk's submit and frame; another site than the app's. */
export const CROWD_RECEIVER = servers.crowdReceiver;

/**
 * KPS_E2E_SMOKE=1: only the tests tagged @smoke (judging, import, export, start-up), on the desktop:
 * CI runs the whole suite on PostgreSQL and this subset on the embedded database.
 * KPS_TOUR=1: the screenshot tour (`npm run tour`), which is not a test and stays out of CI.
 */
const SMOKE = process.env.KPS_E2E_SMOKE === "1";
const TOUR = process.env.KPS_TOUR === "1";

export default defineConfig({
  testDir: "e2e",
  testIgnore: TOUR ? [] : ["**/tour.spec.ts"],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files in parallel, each file's tests in order: with fullyParallel the suite took 13.6 min on a
  // fresh clone (450 tests) against 9.1 min file by file (474 tests); not yet profiled (a guess: the
  // files' beforeAll set-up then runs once per worker that takes one of their tests).
  fullyParallel: false,
  // Two workers: the suite keeps both cores busy (three took as long: 802 s against 782 s).
  workers: 2,
  // In CI one retry: a test that fails, then passes, is printed as flaky at the end of the run.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL,
    // In CI a trace is recorded only on the retry of a failed test: recording one for every test
    // (retain-on-failure) cost 18% of the axe spec's time, for traces that were thrown away.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      // This machine has no network but the registries: keep Chromium from calling home.
      args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    // Tests tagged @touch run on the phone and tablet only, @desktop ones on the desktop only (none is skipped).
    {
      name: "chromium",
      grep: SMOKE ? /@smoke/ : undefined,
      grepInvert: /@touch/,
      use: { ...devices["Desktop Chrome"], channel: undefined },
      dependencies: ["setup"],
    },
    // Phone and tablet (Chromium's mobile emulation: touch, isMobile, their viewports) run the judging spec only;
    // the phone also runs propose-explain's one @touch test (the Ask screen by touch) and the evidence sets spec (one member at a time).
    ...(SMOKE
      ? []
      : [
          {
            name: "phone",
            testMatch: /(judging-devices|propose-explain|evidence-sets)\.spec\.ts/,
            grepInvert: /@desktop/,
            use: { ...devices["Pixel 7"], channel: undefined },
            dependencies: ["setup"],
          },
          {
            name: "tablet",
            testMatch: /judging-devices\.spec\.ts/,
            grepInvert: /@desktop/,
            use: { ...devices["Galaxy Tab S4"], channel: undefined },
            dependencies: ["setup"],
          },
        ]),
  ],
  webServer: [
    {
      command: servers.app.command,
      url: servers.app.healthURL,
      env: servers.app.env,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      command: servers.receiver.command,
      url: servers.receiver.healthURL,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
