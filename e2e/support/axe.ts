import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe's scan of the page once its CSS transitions have ended. axe reads colours as painted: a
 * button that has just been enabled fades from `disabled:opacity-60` to full colour in 150 ms, and
 * a scan in between saw a contrast the user never rests on (a flaky color-contrast violation).
 */
export async function analyzeSettled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running',
      ),
  );
  return new AxeBuilder({ page }).analyze();
}
