// Where a word of the passage on screen is: for taps and touch drags (e2e/judging-devices.spec.ts, e2e/propose-explain.spec.ts).
import type { Page } from "@playwright/test";

/** The centre of the `nth` occurrence of a whole word in the passage text, in viewport coordinates. */
export async function wordPoint(page: Page, word: string, nth = 0): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(
    ({ word, nth }) => {
      const body = document.querySelector(".passage-body")!;
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      let seen = 0;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? "";
        const re = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "gu");
        for (let m = re.exec(text); m; m = re.exec(text)) {
          if (seen++ < nth) continue;
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + word.length);
          (n.parentElement as HTMLElement).scrollIntoView({ block: "center" });
          const r = range.getClientRects()[0]!;
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }
      }
      return null;
    },
    { word, nth },
  );
  if (!point) throw new Error(`no word "${word}" in the passage`);
  return point;
}
