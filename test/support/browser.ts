/** Debian's Chromium driven by playwright-core (no browser download: executablePath is the system one). */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** What Chromium needs here: no sandbox (root), no GPU, and nothing fetched from the network by itself. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** The WCAG 2.2 AA and best-practice rules the pages are held to. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core's minified build, injected into the page under test. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on a page in each colour scheme, as `scheme: rule
 * (impact): n nodes`, and a line for a scheme the page's background did not follow. axe is injected
 * once and the scheme switched in place (`emulateMedia`): @axe-core/playwright injected its 1.5 MB
 * source three times a check and opened a blank page for the results: 4.3 s a check, where both
 * schemes here take 1.5-1.9 s. The page must be opened with `bypassCSP: true`: its policy allows no injected
 * script, axe's included.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [red = 0, green = 0, blue = 0] = (background.match(/\d+/g) ?? []).map(Number);
    if ((red + green + blue) / 3 < 128 !== (colorScheme === 'dark')) found.push(`${colorScheme}: the background is ${background}`);
    const violations = await page.evaluate(
      (tags) =>
        (globalThis as unknown as { axe: typeof axe }).axe
          .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
          .then((results) => results.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.length }))),
      AXE_TAGS,
    );
    for (const { id, impact, nodes } of violations)
      if (impact === 'serious' || impact === 'critical') found.push(`${colorScheme}: ${id} (${impact}): ${nodes} nodes`);
  }
  return found;
}
