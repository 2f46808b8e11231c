/**
 * The browsable pages in real headless Chromium against the real preview server serving the
 * fixture build (23 models: pages of 10, 10 and 3).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { axeViolations, hasChromium, launchChromium } from '../support/browser.ts';
import { projectRoot } from '../support/site.ts';
import { startSlowNetwork } from '../support/slow-network.ts';
import { runsWith } from '../support/software.ts';

const origin = inject('origin');
const SCREENSHOTS = join(projectRoot, 'test-results/screenshots');
const XSS_NAME = '<script>alert("xss")</script> & "Quotes"';

describe.runIf(runsWith(hasChromium, 'the browser suite', 'chromium', 'apt-get install chromium'))(
  'the browsable listing in Chromium',
  () => {
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    const problems: string[] = [];

    /** A page that records CSP violations, script errors and dialogs (an alert would be an XSS). */
    async function open(path: string, options: Parameters<Browser['newContext']>[0] = {}, from = origin): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error on ${path}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`script error on ${path}: ${error.message}`));
      page.on('dialog', (dialog) => {
        problems.push(`dialog on ${path}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(`${from}${path}`);
      return page;
    }

    const rowNames = (page: Page, table = 'table.models:visible') =>
      page
        .locator(`${table} tbody th`)
        .allTextContents()
        .then((names) => names.map((name) => name.trim()));

    beforeAll(async () => {
      browser = await launchChromium();
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    // A test's pages close when it ends: each open page keeps a renderer busy (its script, its
    // timers), and every later test would share the cores with them.
    afterEach(async () => {
      for (const context of contexts.splice(0)) await context.close();
    });
    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
    });

    it('walks every page by its rel=next links and back by rel=prev', async () => {
      const page = await open('/');
      const seen: number[] = [];
      for (;;) {
        seen.push(await page.locator('[data-listing] table.models tbody tr').count());
        const next = page.locator('.pagination a[rel="next"]');
        if ((await next.count()) === 0) break;
        await next.click();
      }
      expect(seen).toEqual([10, 10, 3]);
      expect(new URL(page.url()).pathname).toBe('/page/3/');
      expect(await page.locator('link[rel="prev"]').getAttribute('href')).toBe('/page/2/');
      await page.locator('.pagination a[rel="prev"]').click();
      await page.locator('.pagination a[rel="prev"]').click();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.locator('.pagination a[rel="prev"]').count()).toBe(0);
      expect(problems).toEqual([]);
    });

    it('reaches the first and last pages directly and jumps to any page', async () => {
      const page = await open('/page/2/');
      await page.getByRole('link', { name: 'Last page, page 3' }).click();
      expect(new URL(page.url()).pathname).toBe('/page/3/');
      await page.getByRole('link', { name: 'First page, page 1' }).click();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByLabel('Go to page').fill('3');
      await page.getByRole('button', { name: 'Go' }).click();
      await page.waitForURL(`${origin}/page/3/`);
      expect(await page.title()).toBe('Captured car models: page 3 of 3');
    });

    it('links each page to its JSON, which holds the same models', async () => {
      const page = await open('/page/2/');
      const href = await page.getByRole('link', { name: 'This page as JSON' }).getAttribute('href');
      // The page's own file: it exists on every host, functions or not.
      expect(href).toBe('/car/api/capture_car/latest/page/2.json');
      const json = (await (await fetch(`${origin}${href}`)).json()) as { results: { combined_car_model: string }[] };
      const names = await rowNames(page);
      expect(names).toEqual(json.results.map((result) => result.combined_car_model));
    });

    it('shows logos or a placeholder, ranges, electric, prices with separators and transmissions', async () => {
      const page = await open('/');
      const rows = page.locator('[data-listing] tbody tr');
      const first = rows.nth(0);
      // A make read from hostile data: the name's second word, shown as text.
      await expect.poll(() => first.locator('.logo-missing').getAttribute('aria-label')).toBe('No logo for &');
      expect(await first.locator('.logo-missing').textContent()).toBe('<');
      const second = rows.nth(1);
      expect(await second.locator('td[data-label="Price"]').textContent()).toBe('549,000–1,234,567.50');
      expect(await second.locator('.name-local').getAttribute('lang')).toBe('zh-Hant-HK');
      // On the English page the Latin part is the page's own language; on the Chinese page it says it is English.
      expect(await second.locator('.name-latin').evaluate((element) => element.closest('[lang]')?.getAttribute('lang'))).toBe('en');
      const chinese = (await open('/zh-hk/')).locator('[data-listing] tbody tr').nth(1);
      expect(await chinese.locator('.name-latin').getAttribute('lang')).toBe('en');
      expect(await chinese.locator('.name-local').evaluate((element) => element.closest('[lang]')?.getAttribute('lang'))).toBe(
        'zh-Hant-HK',
      );
      const third = rows.nth(2);
      expect(await third.locator('td[data-label="Engine size"]').textContent()).toBe('Electric');
      expect(await third.locator('td[data-label="Price"]').textContent()).toBe('1,791,700.99');
      const fourth = rows.nth(3);
      expect(await fourth.locator('td[data-label="Seats"]').textContent()).toBe('2');
      expect(await fourth.locator('td[data-label="Transmission"]').textContent()).toBe('Automatic, Manual');
      expect(await rows.nth(4).locator('td[data-label="Seats"]').textContent()).toBe('5–7');
      const logo = rows.nth(4).locator('img.logo');
      expect(await logo.getAttribute('alt')).toBe('Toyota logo');
      expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    });

    it('shows a name carrying markup as inert text, on the page and in search results', async () => {
      const page = await open('/');
      const cell = page.locator('[data-listing] tbody tr').first().locator('th');
      expect((await cell.textContent())?.trim()).toBe(XSS_NAME);
      expect(await page.locator('[data-listing] tbody script').count()).toBe(0);
      await page.getByLabel('Name').fill('script');
      await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBe(1);
      expect((await page.locator('#search-results-table tbody th').textContent())?.trim()).toBe(XSS_NAME);
      expect(await page.locator('#search-results-table script').count()).toBe(0);
      expect(problems.filter((problem) => problem.startsWith('dialog'))).toEqual([]);
    });

    it('searches the whole listing in Chinese and in Latin script, ignoring case', async () => {
      const page = await open('/page/3/');
      await page.getByLabel('Name').fill('凌志');
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toBe('1 model matches this search.');
      expect(await rowNames(page, '#search-results-table')).toEqual(['凌志 Lexus LM 350h\u2028Line']);
      expect(await page.locator('[data-listing]').isHidden()).toBe(true);
      // Each typed word begins a word of the name: Model 1 and 10 to 19, not Model 21.
      await page.getByLabel('Name').fill('TOYOTA model 1');
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toBe('10 models match this search.');
      await page.getByLabel('Name').fill('');
      await expect.poll(() => page.locator('[data-listing]').isVisible()).toBe(true);
      expect(new URL(page.url()).search).toBe('');
    });

    it('combines filters, keeps them in the URL, and restores them from a shared URL', async () => {
      const page = await open('/');
      await page.getByLabel('Seats').fill('2');
      await page.getByLabel('Transmission').selectOption('manual');
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toBe('1 model matches this search.');
      await expect.poll(() => new URL(page.url()).search).toBe('?seats=2&transmission=manual');
      await page.getByLabel('Electric only').check();
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toMatch(/^No models match/);
      await page.getByLabel('Electric only').uncheck();
      await page.getByLabel('Price up to').fill('100000');
      await expect.poll(() => new URL(page.url()).search).toBe('?seats=2&price_max=100000&transmission=manual');
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toMatch(/^No models match/);

      // A price range is shown in price order, and says so.
      const shared = `/?seats=5&price_min=1000000&electric=1`;
      const reloaded = await open(shared);
      const priceOrdered = '1 model matches this search. Sorted by: Price, low to high.';
      await expect.poll(() => reloaded.locator('[data-search-status]').textContent()).toBe(priceOrdered);
      expect(await reloaded.getByLabel('Seats').inputValue()).toBe('5');
      expect(await reloaded.getByLabel('Price from').inputValue()).toBe('1000000');
      expect(await reloaded.getByLabel('Electric only').isChecked()).toBe(true);
      await reloaded.reload();
      await expect.poll(() => reloaded.locator('[data-search-status]').textContent()).toBe(priceOrdered);
      await reloaded.getByRole('button', { name: 'Clear search' }).click();
      await expect.poll(() => new URL(reloaded.url()).search).toBe('');
      expect(await reloaded.locator('[data-listing]').isVisible()).toBe(true);
    });

    it('browses without JavaScript: the listing and its links work, the search is not offered and the note says how to search', async () => {
      const page = await open('/', { javaScriptEnabled: false });
      expect(await page.locator('[data-search]').isHidden()).toBe(true);
      expect(await page.locator('form.jump').isHidden()).toBe(true);
      expect(await page.locator('.search-note').textContent()).toMatch(
        /^\s*Search and filters need JavaScript\. Without it, every page of the listing below works/,
      );
      expect(await page.locator('.search-note a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
        '/all.csv',
        '/all.json',
      ]);
      expect(await page.locator('[data-listing] tbody tr').count()).toBe(10);
      await page.locator('.pagination a[rel="next"]').click();
      expect(new URL(page.url()).pathname).toBe('/page/2/');
      expect(await page.locator('[data-listing] tbody tr').count()).toBe(10);
    });

    it('does not move anything as the page arrives in pieces and its script starts: no layout shift at 375 and 1280 px, the search and page jump in place', async () => {
      // Over a slow connection the browser parses, and may paint, the page part by part: what it showed
      // first (a table's columns, a form's row) must not move as the rest arrives.
      const slow = await startSlowNetwork(origin);
      onTestFinished(() => slow.stop());
      for (const width of [375, 1280]) {
        for (const path of ['/', '/page/2/', '/zh-hk/']) {
          const page = await open(path, { viewport: { width, height: 800 } }, slow.origin);
          await page.waitForLoadState('load');
          // Every shift since the navigation began (buffered), summed as CLS sums them: not those just after an input.
          const shift = await page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                let total = 0;
                new PerformanceObserver((entries) => {
                  for (const entry of entries.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
                    if (!entry.hadRecentInput) total += entry.value;
                  }
                }).observe({ type: 'layout-shift', buffered: true });
                requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
              }),
          );
          expect(shift, `${path} at ${width} px`).toBe(0);
          expect(await page.locator('[data-search]').isVisible()).toBe(true);
          expect(await page.locator('form.jump').isVisible()).toBe(true);
          if (path === '/') await page.screenshot({ path: join(SCREENSHOTS, `home-${width}.png`) });
        }
      }
    });

    it('has a useful title, description, canonical URL and a sitemap', async () => {
      const page = await open('/page/2/');
      expect(await page.title()).toBe('Captured car models: page 2 of 3');
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^Models 11–20 of 23/);
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe('https://cars.example.com/page/2/');
      const sitemap = await (await fetch(`${origin}/sitemap-0.xml`)).text();
      for (const path of ['/', '/page/2/', '/page/3/']) expect(sitemap).toContain(`<loc>https://cars.example.com${path}</loc>`);
      expect(sitemap).not.toContain('.json');
      // Each page's alternates as its <head> links them: each language, and x-default for the English page.
      const hreflang = (html: string) =>
        [...html.matchAll(/<(?:xhtml:)?link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)]
          .map(([, lang, href]) => `${lang} ${href}`)
          .sort();
      const entry = sitemap.split('<url>').find((url) => url.includes('<loc>https://cars.example.com/zh-hk/page/2/</loc>'));
      expect(hreflang(entry ?? '')).toEqual(hreflang(await page.content()));
      expect(hreflang(entry ?? '')).toContain('x-default https://cars.example.com/page/2/');
    });

    it('shows a visible focus outline on keyboard focus', async () => {
      const page = await open('/');
      await page.keyboard.press('Tab');
      const skip = page.locator('.skip-link');
      expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
      const outline = await skip.evaluate((element) => getComputedStyle(element).outlineStyle);
      expect(outline).toBe('solid');
    });

    it('has no serious or critical accessibility violations (axe-core), light and dark, with results shown', async () => {
      for (const path of ['/', '/page/3/', '/?q=toyota', '/404.html']) {
        // axe is injected past the Content-Security-Policy: the page itself allows no inline script.
        const page = await open(path, { bypassCSP: true });
        if (path.includes('?')) await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBeGreaterThan(0);
        expect(await axeViolations(page), path).toEqual([]);
        await page.context().close();
      }
    });

    it('satisfies its own Content-Security-Policy and loads without script errors', async () => {
      const page = await open('/?q=lexus');
      await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBe(1);
      expect(problems).toEqual([]);
    });

    it('lays models out as labelled cards at 375 px and as a table at 1280 px, light and dark (screenshots saved)', async () => {
      for (const width of [375, 1280]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const page = await open('/?q=toyota', { viewport: { width, height: 900 }, colorScheme });
          await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBeGreaterThan(0);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(scrollWidth, `no horizontal scrolling at ${width} px`).toBeLessThanOrEqual(width);
          await page.screenshot({ path: join(SCREENSHOTS, `search-${width}-${colorScheme}.png`), fullPage: true });

          const listing = await open('/page/2/', { viewport: { width, height: 900 }, colorScheme });
          const layout = await listing.locator('[data-listing] table.models').evaluate((table) => {
            const price = table.querySelector('tbody td[data-label="Price"]')!;
            return {
              header: table.querySelector('thead')!.getBoundingClientRect().height,
              row: getComputedStyle(table.querySelector('tbody tr')!).display,
              label: getComputedStyle(price, '::before').content,
              background: getComputedStyle(document.body).backgroundColor,
            };
          });
          if (width === 375) expect(layout).toMatchObject({ header: 1, row: 'grid', label: '"Price: "' });
          else expect(layout).toMatchObject({ row: 'table-row', label: 'none' });
          if (width === 1280) expect(layout.header).toBeGreaterThan(20);
          // The colour scheme follows the system setting: a dark page is dark.
          const [red = 0, green = 0, blue = 0] = layout.background.match(/\d+/g)!.map(Number);
          expect((red + green + blue) / 3 < 128, `${colorScheme} background ${layout.background}`).toBe(colorScheme === 'dark');
          await listing.screenshot({ path: join(SCREENSHOTS, `listing-${width}-${colorScheme}.png`), fullPage: true });
        }
      }
    });
  },
);
