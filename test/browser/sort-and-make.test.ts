/**
 * Sort and the make filter in real headless Chromium, on the default dataset (259 models, 39 makes,
 * many ties and ranges) built by the real build and served by the real preview server. Expected
 * orders and counts are worked out here from the published all.json, by the rules README states.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, hasChromium, launchChromium } from '../support/browser.ts';
import { buildSite, freePort, projectRoot, startPreview, tempDir, type RunningPreview, projectCopy } from '../support/site.ts';
import { runsWith } from '../support/software.ts';

interface Model {
  id: number;
  combined_car_model: string;
  min_seat: number;
  max_seat: number;
  min_engine_size: number;
  max_engine_size: number;
  min_price: number;
  max_price: number;
  logo: string | null;
}

const SCREENSHOTS = join(projectRoot, 'test-results/screenshots');

describe.runIf(runsWith(hasChromium, 'sort and make in Chromium', 'chromium', 'apt-get install chromium'))(
  'sort and make filter in Chromium, on the default dataset',
  () => {
    const workspace = tempDir('sort-make');
    /** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
    const project = projectCopy(workspace);
    let preview: RunningPreview;
    let browser: Browser;
    let models: Model[];
    const contexts: BrowserContext[] = [];
    const scriptErrors: string[] = [];

    beforeAll(async () => {
      const outDir = join(workspace, 'dist');
      const port = await freePort();
      // Logos from this preview server, so the browser loads them.
      buildSite(
        {
          DATA_FILE: 'data/captured-car-models.csv',
          OUT_DIR: outDir,
          BASE_URL: 'https://cars.example.com',
          ASSETS_URL: `http://127.0.0.1:${port}/assets`,
        },
        project,
      );
      preview = await startPreview({ OUT_DIR: outDir, PORT: String(port) });
      models = (await (await fetch(`${preview.origin}/all.json`)).json()) as Model[];
      browser = await launchChromium();
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    // A test's pages close when it ends: each open page keeps a renderer busy, and every later test
    // would share the cores with them.
    afterEach(async () => {
      for (const context of contexts.splice(0)) await context.close();
    });
    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await preview?.stop();
      rmSync(workspace, { recursive: true, force: true });
    });

    async function open(path: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => scriptErrors.push(`${path}: ${error.message}`));
      await page.goto(`${preview.origin}${path}`);
      return page;
    }

    const status = (page: Page) => page.locator('[data-search-status]');

    /** Every result's name, pressing "Show more" until all are shown. */
    async function allResultNames(page: Page, expected: number): Promise<string[]> {
      const rows = page.locator('#search-results-table tbody tr');
      await expect.poll(() => rows.count()).toBe(Math.min(expected, 50));
      while ((await rows.count()) < expected) {
        const before = await rows.count();
        await page.getByRole('button', { name: /^Show more/ }).click();
        await expect.poll(() => rows.count()).toBe(Math.min(expected, before + 50));
      }
      return (await page.locator('#search-results-table tbody th').allTextContents()).map((name) => name.trim());
    }

    const latinOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const localOrder = new Intl.Collator('zh-Hant-HK');
    const firstWord = (name: string) => name.split(' ')[0]!;
    const afterFirstWord = (name: string) => name.slice(name.indexOf(' ') + 1);
    /** Each sort key's order, by README's rules; Array.prototype.sort is stable, so ties stay in listing order. */
    const ORDERS: Record<string, (a: Model, b: Model) => number> = {
      price: (a, b) => a.min_price - b.min_price,
      '-price': (a, b) => b.max_price - a.max_price,
      seats: (a, b) => a.min_seat - b.min_seat,
      '-seats': (a, b) => b.max_seat - a.max_seat,
      engine: (a, b) => a.min_engine_size - b.min_engine_size,
      '-engine': (a, b) => b.max_engine_size - a.max_engine_size,
      name: (a, b) =>
        latinOrder.compare(afterFirstWord(a.combined_car_model), afterFirstWord(b.combined_car_model)) ||
        localOrder.compare(firstWord(a.combined_car_model), firstWord(b.combined_car_model)),
      '-name': (a, b) => ORDERS['name']!(b, a),
    };

    it.each(Object.keys(ORDERS))('sort=%s lists the whole listing in that order, ties in listing order', async (sort) => {
      const order = ORDERS[sort]!;
      const sorted = [...models].sort(order);
      const expected = sorted.map((model) => model.combined_car_model);
      // Ties (many 5-seaters, several electric models, shared prices) make listing order matter; names are unique.
      const ties = sorted.filter((model, index) => index > 0 && order(sorted[index - 1]!, model) === 0).length;
      expect(ties > 0).toBe(!sort.endsWith('name'));
      const page = await open(`/?sort=${sort}`);
      await expect.poll(() => status(page).textContent()).toMatch(new RegExp(`^All ${models.length} models\\. Sorted by: `));
      expect(await allResultNames(page, models.length)).toEqual(expected);
      expect(await page.getByLabel('Sort by').inputValue()).toBe(sort);
    });

    it('lists every make with its model count, and filtering by one shows exactly its models', async () => {
      const page = await open('/');
      const options = await page
        .locator('#search-make option')
        .evaluateAll((elements) => elements.map((element) => [(element as HTMLOptionElement).value, element.textContent ?? '']));
      const counts = new Map<string, number>();
      for (const model of models)
        counts.set(firstWord(model.combined_car_model), (counts.get(firstWord(model.combined_car_model)) ?? 0) + 1);
      expect(options[0]).toEqual(['', 'Any make']);
      expect(
        options
          .slice(1)
          .map(([key]) => key)
          .sort(),
      ).toEqual([...counts.keys()].sort());
      for (const [key = '', text = ''] of options.slice(1))
        expect(text, key).toMatch(new RegExp(`^\\S.* ${key} \\(${counts.get(key)}\\)$`));
      expect(options.filter(([, text]) => text?.startsWith('Land Rover 越野路華 ('))).toHaveLength(1);

      await page.getByLabel('Make').selectOption('豐田');
      await expect.poll(() => new URL(page.url()).search).toBe(`?make=${encodeURIComponent('豐田')}`);
      const toyotas = models.filter((model) => model.combined_car_model.startsWith('豐田 '));
      await expect.poll(() => status(page).textContent()).toBe(`${toyotas.length} models match this search.`);
      expect(await allResultNames(page, toyotas.length)).toEqual(toyotas.map((model) => model.combined_car_model));
    });

    it('combines make, price range and sort from a shared URL, and restores the form from it', async () => {
      const page = await open(`/?make=${encodeURIComponent('平治')}&price_min=500000&price_max=900000&sort=-price`);
      const expected = models
        .filter((model) => model.combined_car_model.startsWith('平治 ') && model.max_price >= 500000 && model.min_price <= 900000)
        .sort(ORDERS['-price'])
        .map((model) => model.combined_car_model);
      expect(expected.length).toBeGreaterThan(2);
      await expect
        .poll(() => status(page).textContent())
        .toBe(`${expected.length} models match this search. Sorted by: Price, high to low.`);
      expect(await allResultNames(page, expected.length)).toEqual(expected);
      expect(await page.getByLabel('Make').inputValue()).toBe('平治');
      expect(await page.getByLabel('Price from').inputValue()).toBe('500000');
      expect(await page.getByLabel('Sort by').inputValue()).toBe('-price');
    });

    it('names each logo by its make, and says which make has no logo, on the pages and in results', async () => {
      const page = await open('/?make=%E6%B3%95%E6%8B%89%E5%88%A9');
      const ferrari = models.filter((model) => model.combined_car_model.startsWith('法拉利 '));
      await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBe(ferrari.length);
      expect(ferrari.every((model) => model.logo === null)).toBe(true);
      expect(await page.locator('#search-results-table .logo-missing').first().getAttribute('aria-label')).toBe('No logo for Ferrari');
      const listing = page.locator('[data-listing] tbody tr').first().locator('img.logo');
      expect(await listing.getAttribute('alt')).toBe('Toyota logo');
      await expect.poll(() => listing.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      await page.getByLabel('Make').selectOption('越野路華');
      await expect.poll(() => page.locator('#search-results-table img.logo').first().getAttribute('alt')).toBe('Land Rover logo');
    });

    it('works with the keyboard alone: make, sort, results and clearing', async () => {
      const page = await open('/');
      await page.getByLabel('Name').focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-make');
      // Typing on a focused select picks the first option starting with those letters.
      await page.keyboard.type('Tes', { delay: 50 });
      await expect.poll(() => page.getByLabel('Make').inputValue()).toBe('特斯拉');
      for (let press = 0; press < 5 && (await page.evaluate(() => document.activeElement?.id)) !== 'search-sort'; press += 1) {
        await page.keyboard.press('Tab');
      }
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-sort');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('-price');
      const teslas = models.filter((model) => model.combined_car_model.startsWith('特斯拉 ')).sort(ORDERS['-price']);
      await expect.poll(() => status(page).textContent()).toBe(`${teslas.length} models match this search. Sorted by: Price, high to low.`);
      expect(await allResultNames(page, teslas.length)).toEqual(teslas.map((model) => model.combined_car_model));
      const clear = page.getByRole('button', { name: 'Clear search' });
      await clear.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).search).toBe('');
      expect(await page.locator('[data-listing]').isVisible()).toBe(true);
    });

    it('keeps the keyboard on the results when "Show more" shows the last of them and goes', async () => {
      const page = await open('/?sort=name');
      await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBe(50);
      const more = page.getByRole('button', { name: /^Show more/ });
      await more.focus();
      for (let press = 0; press < 10 && (await more.isVisible()); press += 1) {
        const before = await page.locator('#search-results-table tbody tr').count();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBeGreaterThan(before);
      }
      expect(await more.isVisible()).toBe(false);
      // The first row the last press added, not the page's body.
      expect(
        await page.evaluate(() => [...document.querySelectorAll('#search-results-table tbody tr')].indexOf(document.activeElement!)),
      ).toBe(250);
    });

    it('searches when a Chinese input method has composed its word, not for the letters typed meanwhile', async () => {
      const page = await open('/zh-hk/');
      await page.locator('#search-q').focus();
      const cdp = await page.context().newCDPSession(page);
      for (const text of ['f', 'fu', 'fun', 'fung']) {
        await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
        await page.waitForTimeout(300);
      }
      // Nothing searched for while composing: no "no match" said, the address unchanged.
      expect(await status(page).textContent()).toBe('');
      expect(new URL(page.url()).search).toBe('');
      await cdp.send('Input.insertText', { text: '豐' });
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('豐');
      const toyotas = models.filter((model) => model.combined_car_model.startsWith('豐田 ')).length;
      await expect.poll(() => status(page).textContent()).toBe(`共 ${toyotas} 款車符合搜尋。`);
    });

    it('takes a make in the address by its Latin name in any case, and ignores one the listing has not', async () => {
      const toyotas = models.filter((model) => model.combined_car_model.startsWith('豐田 ')).length;
      const page = await open('/?make=toyota');
      await expect.poll(() => status(page).textContent()).toBe(`${toyotas} models match this search.`);
      expect(await page.getByLabel('Make').inputValue()).toBe('豐田');
      expect(new URL(page.url()).searchParams.get('make')).toBe('豐田');
      const unknown = await open('/?make=Nonesuch');
      expect(await unknown.getByLabel('Make').inputValue()).toBe('');
      expect(await unknown.locator('[data-listing]').isVisible()).toBe(true);
      expect(await status(unknown).textContent()).toBe('');
    });

    it('finds a model code typed without its hyphen: crv is the CR-V', async () => {
      const expected = models.filter((model) => /\bCR-V\b/.test(model.combined_car_model)).map((model) => model.combined_car_model);
      expect(expected.length).toBeGreaterThan(0);
      const page = await open('/?q=crv');
      expect(await allResultNames(page, expected.length)).toEqual(expected);
    });

    it('finds a model code typed with a hyphen the data lacks: RAV-4 and RAV 4 are the RAV4', async () => {
      const expected = models.filter((model) => /\bRAV4\b/.test(model.combined_car_model)).map((model) => model.combined_car_model);
      expect(expected.length).toBeGreaterThan(0);
      for (const typed of ['RAV-4', 'rav 4'])
        expect(await allResultNames(await open(`/?q=${encodeURIComponent(typed)}`), expected.length)).toEqual(expected);
    });

    it('writes the Chinese status as Chinese is written: no space between its sentences', async () => {
      const page = await open('/zh-hk/?sort=price');
      await expect.poll(() => status(page).textContent()).toMatch(new RegExp(`^全部 ${models.length} 款車。排序：[^ ]+。$`));
    });

    it('has no serious or critical accessibility violations with make and sort set, light and dark', async () => {
      const page = await open(`/?make=${encodeURIComponent('法拉利')}&sort=name`, { bypassCSP: true });
      await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBeGreaterThan(0);
      expect(await axeViolations(page)).toEqual([]);
    });

    it('fits 375 and 1280 px wide screens with the make and sort controls (screenshots saved)', async () => {
      for (const width of [375, 1280]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const page = await open(`/?make=${encodeURIComponent('豐田')}&sort=-price`, { viewport: { width, height: 900 }, colorScheme });
          await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBe(20);
          for (const control of ['Make', 'Sort by']) {
            const box = await page.getByLabel(control).boundingBox();
            expect(box && box.x >= 0 && box.x + box.width <= width, `${control} inside ${width} px`).toBe(true);
          }
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await page.screenshot({ path: join(SCREENSHOTS, `make-sort-${width}-${colorScheme}.png`), fullPage: true });
        }
      }
      expect(scriptErrors).toEqual([]);
    });
  },
);
