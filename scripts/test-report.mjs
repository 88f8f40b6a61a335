// Names of failed tests from the vitest and Playwright JSON reports, printed at the end of a run so
// that the tail of a CI log says what failed and where (file:line › title: first line of the error).
import path from "node:path";

const firstLine = (text) =>
  String(text ?? "")
    // eslint-disable-next-line no-control-regex -- the terminal colour codes
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .find((l) => l.trim()) ?? "";

/**
 * Failed tests of a vitest JSON report (and files that failed before any test ran), and flaky ones:
 * passed on a retry, the earlier attempt's error kept in failureMessages.
 */
export function vitestFailures(report, root) {
  const failures = [];
  const flaky = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name);
    const tests = file.assertionResults ?? [];
    for (const t of tests) {
      const line = `${where}${t.location ? `:${t.location.line}` : ""} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`;
      if (t.status === "failed") failures.push(line);
      else if (t.status === "passed" && t.failureMessages?.length) flaky.push(line);
    }
    if (file.status === "failed" && !tests.some((t) => t.status === "failed")) {
      // A describe's beforeAll/afterAll that threw or timed out skips its tests and leaves no message here.
      const why =
        firstLine(file.message) || "no test failed: a beforeAll or afterAll hook did (its tests are skipped); the log above has the error";
      failures.push(`${where}: ${why}`);
    }
  }
  return { failures, flaky };
}

/** Failed and flaky (failed, then passed on a retry) tests of a Playwright JSON report. */
export function playwrightFailures(report) {
  const failures = [];
  const flaky = [];
  const walk = (suite, titles) => {
    const inner = suite.title && !/\.ts$/.test(suite.title) ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} › ${[...inner, spec.title].join(" › ")}`;
        const bad = (t.results ?? []).find((r) => r.status !== "passed" && r.status !== "skipped");
        if (t.status === "unexpected") failures.push(`${name}: ${firstLine(bad?.error?.message)}`);
        else if (t.status === "flaky") flaky.push(`${name}: ${firstLine(bad?.error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, inner);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) failures.push(`playwright: ${firstLine(error.message)}`);
  return { failures, flaky };
}

export function printFailures(failures, flaky = []) {
  for (const f of flaky) console.log(`flaky: ${f}`);
  for (const f of failures) console.log(`failed: ${f}`);
}
