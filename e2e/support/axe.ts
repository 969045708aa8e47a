import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

/**
 * axe-core itself, run in the page. @axe-core/playwright evaluates the 550 kB source twice per
 * scan and finishes each in a new blank page; the suite scans about 300 times, so here the source
 * is evaluated once per document and `axe.run` reports from the page. The app has no frames, which
 * is all that the wrapper adds.
 */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

type WithAxe = { axe?: { run(context: Document, options: object): Promise<AxeResults> } };

/**
 * axe's scan of the page once its CSS transitions have ended. axe reads colours as painted: a
 * button that has just been enabled fades from `disabled:opacity-60` to full colour in 150 ms, and
 * a scan in between saw a contrast the user never rests on (a flaky color-contrast violation).
 * Only the violations are reported in full: the passes are what makes a scan slow, and nothing
 * reads them.
 */
export async function analyzeSettled(page: Page): Promise<AxeResults> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running',
      ),
  );
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(() => {
    const { axe } = window as unknown as WithAxe;
    if (!axe) throw new Error('axe-core is not in the page');
    return axe.run(document, { resultTypes: ['violations'] });
  });
}

export type ColorScheme = 'light' | 'dark';
export type ScreenVariant = { width: number; height: number; colorScheme: ColorScheme };

/** The sizes and themes every screen is checked at (issue 8): phone and desktop, light and dark. */
export const screenVariants: readonly ScreenVariant[] = [
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'light' },
];

export const variantName = ({ width, height, colorScheme }: ScreenVariant) =>
  `${width}x${height} ${colorScheme}`;

/**
 * Shows the page as it stands at another size and theme, without reloading it: the layout is
 * responsive and the app follows the system's theme while the customer has not chosen one
 * (lib/theme.ts). Resolves once the page has taken the theme.
 */
export async function showAs(page: Page, { width, height, colorScheme }: ScreenVariant) {
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains('dark') === dark,
    colorScheme === 'dark',
  );
}

/** What a violation says, short enough to read in a failure. */
function summary(violation: Awaited<ReturnType<typeof analyzeSettled>>['violations'][number]) {
  return {
    id: violation.id,
    help: violation.help,
    nodes: violation.nodes.map((node) => node.target.join(' ')),
  };
}

/** No axe violations on the page as it stands, in its current size and theme. */
export async function expectNoViolations(page: Page, label: string) {
  const { violations } = await analyzeSettled(page);
  expect(violations.map(summary), label).toEqual([]);
}

/**
 * No axe violations on the page as it stands at every size and theme of `screenVariants`, each
 * shown in place (`showAs`); then back to the size and theme it had, so a journey goes on as it
 * was. One journey scanned four ways costs the journey once.
 */
export async function expectNoViolationsAnywhere(
  page: Page,
  label: string,
  variants: readonly ScreenVariant[] = screenVariants,
) {
  const size = page.viewportSize();
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  for (const variant of variants) {
    await showAs(page, variant);
    await expectNoViolations(page, `${label} at ${variantName(variant)}`);
  }
  if (size) {
    await showAs(page, { ...size, colorScheme: dark ? 'dark' : 'light' });
  }
}
