// The crowd worker's page (/crowd/{key}) as the crowd specs drive it: on the page itself or inside a
// frame (MTurk), so every helper takes either.
import { expect, type FrameLocator, type Page } from "@playwright/test";

export type Root = Page | FrameLocator;

export const passageOn = (root: Root) => root.locator("article.passage");
export const feedback = (root: Root) => root.getByRole("status", { name: "Feedback on your answer" });

/** Consent: the Markdown shown, then "I agree and start". */
export async function agree(root: Root, campaignName: string): Promise<void> {
  await expect(root.getByRole("heading", { name: campaignName, level: 1 })).toBeVisible();
  await expect(root.getByRole("heading", { name: "Consent" })).toBeVisible();
  await root.getByRole("button", { name: "I agree and start" }).click();
}

/** A training answer: right (the first word highlighted, Sufficient), or wrong (Not sufficient); the feedback comes back. */
export async function answerTraining(page: Page, root: Root, right: boolean): Promise<void> {
  await expect(passageOn(root)).toBeVisible();
  if (right) {
    await root.locator("h1.question").click();
    await page.keyboard.press("Shift+ArrowRight");
    await expect(root.locator(".passage-body mark").first()).toHaveText("Training");
    await root.getByRole("button", { name: /^(\S+ )?Sufficient$/ }).click();
  } else {
    await root.getByRole("button", { name: /^(\S+ )?Not sufficient$/ }).click();
  }
  await root.getByRole("button", { name: /Submit$/ }).click();
  await expect(feedback(root)).toContainText("Expected");
}

/**
 * A passage of real work: a claim's. Right after the last training item's "Next", the training
 * passage (its "claim" only a name, `training-N`: crowd-task.ts) stays in the page until the query
 * cache's batched notification re-renders the stage, a timer later: a helper reading the passage in
 * that window would take the training item's name, then its clicks would land on the first real
 * passage and it would move on without having judged one of its own.
 */
const workPassageOn = (root: Root) => root.locator('article.passage:not([data-claim^="training-"])');

/** Judges the passage of real work on screen "Not sufficient" with the buttons; waits for the next one, or for the screen to go. */
export async function judgeOne(root: Root): Promise<string> {
  const article = workPassageOn(root);
  await expect(article).toBeVisible();
  const claim = (await article.getAttribute("data-claim"))!;
  await root.getByRole("button", { name: /^(\S+ )?Not sufficient$/ }).click();
  await root.getByRole("button", { name: /Submit$/ }).click();
  await expect(root.locator(`article.passage[data-claim="${claim}"]`)).toHaveCount(0);
  return claim;
}

export const progress = (root: Root) => root.getByTestId("crowd-progress");
