#!/usr/bin/env node
// npm test — every suite: unit and integration (vitest; PGlite, plus PostgreSQL when DATABASE_URL
// is set), then end-to-end against the production build: over HTTP without a browser (vitest,
// vitest.http.config.ts), then in Chromium (Playwright).
// Ends with one summary line: "tests: N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import { buildCli } from "./build-cli.mjs";
import { buildIsCurrent } from "./ensure-build.mjs";
import { playwrightFailures, printFailures, vitestFailures } from "./test-report.mjs";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, "test-results");
fs.mkdirSync(resultsDir, { recursive: true });

process.env.NEXT_TELEMETRY_DISABLED ??= "1";

function run(title, command, args, env = process.env) {
  console.log(`\n━━ ${title} ━━`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The production build; one newer than every source is used as it is (CI's second run, on the
 * embedded database, reuses the first's). Then the kps bundle (well under a second), which the CLI
 * specs spawn on plain node.
 */
async function build() {
  if (!buildIsCurrent()) {
    const status = run("production build (next build)", bin("next"), ["build"]);
    if (status !== 0) return status;
  } else console.log("\n━━ production build: .next is newer than every source, not rebuilt ━━");
  console.log(`kps bundled into dist/cli.mjs in ${await buildCli()} ms`);
  return 0;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];
/** "file › title: first line of the error" for each failed test (and each flaky one), printed last. */
const failures = [];
const flaky = [];

const vitestJson = path.join(resultsDir, "vitest.json");
fs.rmSync(vitestJson, { force: true });
// --integration-only: only the suites that open a database (*.int.test.ts): CI's embedded run, whose
// PostgreSQL run before it ran the unit tests already (they do not depend on the database).
const integrationOnly = process.argv.includes("--integration-only");
const vitestArgs = [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
  ...(integrationOnly ? [".int.test.ts"] : []),
];
if (
  run(integrationOnly ? "integration tests (vitest, *.int.test.ts)" : "unit and integration tests (vitest)", bin("vitest"), vitestArgs) !==
  0
) {
  failedSteps.push("vitest");
}
addVitestReport(readJson(vitestJson));

/** Adds a vitest JSON report's counts, failures and flaky tests to the run's; false when there is no report. */
function addVitestReport(report) {
  if (!report) {
    totals.failed += 1;
    return false;
  }
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  const vt = vitestFailures(report, root);
  failures.push(...vt.failures);
  flaky.push(...vt.flaky);
  return true;
}

/**
 * The browser-free end-to-end tests (vitest.http.config.ts: HTTP against the production build, which
 * its global setup starts). `smoke`: only the files and tests tagged @smoke, so that the tests left
 * out are not counted as skipped.
 */
function runHttpSuite(smoke) {
  const httpJson = path.join(resultsDir, "vitest-http.json");
  fs.rmSync(httpJson, { force: true });
  const dir = path.join(root, "test", "http");
  const hasSmoke = (f) => fs.readFileSync(path.join(dir, f), "utf8").includes("@smoke");
  const smokeFiles = fs.readdirSync(dir).filter((f) => f.endsWith(".http.ts") && hasSmoke(f));
  if (smoke && !smokeFiles.length) return true;
  const args = ["run", "--config", "vitest.http.config.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${httpJson}`];
  if (smoke) args.push(...smokeFiles.map((f) => `test/http/${f}`), "--testNamePattern", "@smoke");
  const title = smoke ? "end-to-end tests over HTTP (vitest, no browser, @smoke only)" : "end-to-end tests over HTTP (vitest, no browser)";
  const status = run(title, bin("vitest"), args);
  return addVitestReport(readJson(httpJson)) && status === 0;
}

const extra = process.argv.slice(2);
const skipE2e = extra.includes("--unit-only");
if (!skipE2e) {
  if (run("browser for end-to-end tests", process.execPath, [path.join(root, "scripts", "ensure-browser.mjs")]) !== 0)
    failedSteps.push("browser");
  else if ((await build()) !== 0) failedSteps.push("build");
  else {
    // --e2e-smoke: only the @smoke tests (on the desktop in playwright.config.ts); CI's embedded run.
    const smoke = extra.includes("--e2e-smoke");
    if (!runHttpSuite(smoke || integrationOnly)) failedSteps.push("http");
    const pwJson = path.join(resultsDir, "playwright.json");
    fs.rmSync(pwJson, { force: true });
    const title = smoke ? "end-to-end smoke tests (Playwright, Chromium, @smoke only)" : "end-to-end tests (Playwright, Chromium)";
    if (run(title, bin("playwright"), ["test"], smoke ? { ...process.env, KPS_E2E_SMOKE: "1" } : process.env) !== 0)
      failedSteps.push("playwright");
    const p = readJson(pwJson);
    if (p?.stats) {
      totals.passed += p.stats.expected + p.stats.flaky;
      totals.failed += p.stats.unexpected;
      totals.skipped += p.stats.skipped;
      const pw = playwrightFailures(p);
      failures.push(...pw.failures);
      flaky.push(...pw.flaky);
    } else totals.failed += 1;
  }
  if (failedSteps.some((s) => s === "browser" || s === "build")) totals.failed += 1;
}

// Last, so that the tail of a CI log names what failed.
printFailures(failures, flaky);
const database = !process.env.DATABASE_URL
  ? "PGlite"
  : process.env.KPS_TEST_DATABASES === "postgres"
    ? "PostgreSQL"
    : "PostgreSQL and PGlite";
console.log(`\nDatabases: ${database}${failedSteps.length ? ` · failed steps: ${failedSteps.join(", ")}` : ""}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
