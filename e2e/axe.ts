// axe as the e2e specs run it: the serious and critical violations of the page as it is, one line
// each (the rule, its help and the elements), so a failing test names what to fix.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The serious and critical axe violations on the page (or only in the part `include` selects), one line each. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  return (await (include === undefined ? axe : axe.include(include)).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/**
 * No serious or critical axe violation on the page as it is, at 1280 and at 390 px wide (800 px
 * high), then back at 1280; `atWidth` runs after the check at each width (a screenshot, say).
 */
export async function expectAccessible(page: Page, what: string, atWidth?: (width: number) => Promise<unknown>): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const violations = (await new AxeBuilder({ page }).analyze()).violations.filter(
      (v) => v.impact === "serious" || v.impact === "critical",
    );
    expect(violations.map((v) => `${what} at ${width} px: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await atWidth?.(width);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
