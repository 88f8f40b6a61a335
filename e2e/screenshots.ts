// Where the e2e specs write their screenshots: test-results/screenshots/ (the README and docs/ take
// some of them from there).
import path from "node:path";

const SCREENSHOT_DIR = path.join(import.meta.dirname, "..", "test-results", "screenshots");

/** The path of screenshot `name` (such as "people.png") in test-results/screenshots/. */
export function screenshotPath(name: string): string {
  return path.join(SCREENSHOT_DIR, name);
}
