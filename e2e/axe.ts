// axe as the e2e specs run it: the serious and critical violations of the page as it is, one line
// each (the rule, its help and the elements), so a failing test names what to fix.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe on the page, as every spec runs it: every rule, and every node of a violation listed.
 * - Only the violations are worked out in full (axe's `resultTypes`): no spec reads the passes or
 *   the incomplete ones.
 * - Legacy mode: axe.run in the page itself. The default runs axe in each frame, then opens a blank
 *   page to merge the frames' results, for cross-origin frames, which no page of the app has. That
 *   blank page cost a third of the axe spec's time (66 s against 90 s for e2e/axe-pages.spec.ts).
 * - Before it runs, the page's <title> is given a moment: Next.js may stream it after the body, and
 *   axe then read a half-loaded page (document-title, once in a run of the suite). A page that never gets one is
 *   still reported.
 */
export function axeBuilder(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(true);
  const analyze = builder.analyze.bind(builder);
  builder.analyze = async () => {
    await page.waitForFunction(() => document.title.trim() !== "", null, { timeout: 5_000 }).catch(() => {});
    return analyze();
  };
  return builder;
}

/** The serious and critical axe violations on the page (or only in the part `include` selects), one line each. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const axe = axeBuilder(page);
  return (await (include === undefined ? axe : axe.include(include)).analyze()).violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/**
 * What makes the page scroll sideways: empty when the document is no wider than the window; else the
 * page's width and the widest elements that reach past the window's right edge (tag, class, width).
 */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    if (doc.scrollWidth <= window.innerWidth) return [];
    const clipped = (el: HTMLElement) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const past = [...document.body.querySelectorAll<HTMLElement>("*")]
      .map((el) => ({ el, right: el.getBoundingClientRect().right }))
      .filter(({ el, right }) => right > window.innerWidth + 0.5 && !clipped(el))
      // The outermost ones: an element whose parent also reaches past the edge says less.
      .filter(({ el }) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= window.innerWidth + 0.5)
      .slice(0, 5)
      .map(
        ({ el, right }) =>
          `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""} to ${Math.round(right)} px`,
      );
    return [`${location.pathname}: ${doc.scrollWidth} px wide in a ${window.innerWidth} px window`, ...past];
  });
}

/**
 * No serious or critical axe violation on the page as it is, at 1280 and at 390 px wide (800 px
 * high), then back at 1280; at 390 px the page itself does not scroll sideways (a wide table scrolls
 * in its own box). `atWidth` runs after the check at each width (a screenshot, say).
 */
export async function expectAccessible(page: Page, what: string, atWidth?: (width: number) => Promise<unknown>): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const violations = (await axeBuilder(page).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(violations.map((v) => `${what} at ${width} px: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    if (width === 390) expect(await sidewaysScroll(page), `${what}: sideways scroll`).toEqual([]);
    await atWidth?.(width);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
