import { expect, type Locator } from "@playwright/test";

/**
 * A checkbox or radio laid out inline with its label: at the label's left edge, on its first line
 * (globals.css stacks a label's parts in a column, which put the control centred above its text).
 */
export async function expectInlineWithLabel(control: Locator, what: string): Promise<void> {
  const boxes = await control.evaluate((input) => {
    const label = input.closest("label")!;
    const text = document.createRange();
    text.selectNodeContents(label);
    text.setStartAfter(input);
    const rect = (r: DOMRect) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    return {
      input: rect(input.getBoundingClientRect()),
      label: rect(label.getBoundingClientRect()),
      text: rect(text.getBoundingClientRect()),
    };
  });
  expect(boxes.input.left - boxes.label.left, `${what}: the control at the label's left edge`).toBeLessThanOrEqual(2);
  expect(boxes.text.left, `${what}: the text after the control`).toBeGreaterThanOrEqual(boxes.input.right);
  const middle = (b: { top: number; bottom: number }) => (b.top + b.bottom) / 2;
  expect(Math.abs(middle(boxes.input) - middle(boxes.text)), `${what}: the control on the text's line`).toBeLessThanOrEqual(6);
}
