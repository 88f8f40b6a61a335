#!/usr/bin/env node
// Makes sure Playwright has a Chromium: KPS_CHROMIUM / CHROMIUM_PATH, Debian's headless shell
// (/usr/bin/chromium-headless-shell) or full /usr/bin/chromium, or Playwright's managed build —
// installing that one when none is present (needs internet access). playwright.config.ts picks the same.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";

const configured = process.env.KPS_CHROMIUM || process.env.CHROMIUM_PATH;
if (configured) {
  if (!fs.existsSync(configured)) {
    console.error(`KPS_CHROMIUM points to ${configured}, which does not exist.`);
    process.exit(1);
  }
  process.exit(0);
}
if (["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].some((p) => fs.existsSync(p))) process.exit(0);

let managed;
try {
  managed = chromium.executablePath();
} catch {
  managed = undefined;
}
if (managed && fs.existsSync(managed)) process.exit(0);

console.log("No Chromium found: installing Playwright's Chromium (npx playwright install chromium)…");
const result = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
if (result.status !== 0) {
  console.error(
    "Could not install Chromium. Install Debian's 'chromium-headless-shell' (or 'chromium') package or set KPS_CHROMIUM to a Chromium binary.",
  );
  process.exit(result.status ?? 1);
}
