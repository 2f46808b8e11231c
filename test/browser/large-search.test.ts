/**
 * The search over the sharded index (a listing past WHOLE_LISTING_UP_TO rows, where a search reads
 * the index step by step) in real headless Chromium, on 20,000 generated rows built by the real
 * build and served by the real preview server. Expected counts are worked out here from all.json.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCsv } from '../../scripts/generate.ts';
import { orderOf, WHOLE_LISTING_UP_TO, type SortKey } from '../../src/listing/search.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { buildSite, freePort, projectCopy, startPreview, tempDir, type RunningPreview } from '../support/site.ts';
import { runsWith } from '../support/software.ts';

const ROWS = 20_000;

interface Model {
  combined_car_model: string;
  min_seat: number;
  max_seat: number;
  has_operation_type_auto: boolean;
  has_operation_type_hand: boolean;
  max_price: number;
}

describe.runIf(runsWith(hasChromium, 'the sharded search in Chromium', 'chromium', 'apt-get install chromium'))(
  `the search over the sharded index in Chromium, at ${ROWS.toLocaleString('en')} rows`,
  () => {
    const workspace = tempDir('large-search');
    const project = projectCopy(workspace);
    let preview: RunningPreview;
    let browser: Browser;
    let models: Model[];
    const contexts: BrowserContext[] = [];
    const scriptErrors: string[] = [];

    beforeAll(async () => {
      const data = join(workspace, 'cars.csv');
      await writeSyntheticCsv(data, ROWS);
      const outDir = join(workspace, 'dist');
      buildSite({ DATA_FILE: data, OUT_DIR: outDir, BASE_URL: 'https://cars.example.com' }, project);
      preview = await startPreview({ OUT_DIR: outDir, PORT: String(await freePort()) });
      models = (await (await fetch(`${preview.origin}/all.json`)).json()) as Model[];
      browser = await launchChromium();
    });
    afterEach(async () => {
      for (const context of contexts.splice(0)) await context.close();
    });
    afterAll(async () => {
      await browser?.close();
      await preview?.stop();
      expect(scriptErrors).toEqual([]);
    });

    async function open(path: string): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => scriptErrors.push(`${path}: ${error.message}`));
      await page.goto(`${preview.origin}${path}`);
      return page;
    }
    const status = (page: Page) => page.locator('[data-search-status]');
    const resultRows = (page: Page) => page.locator('#search-results-table tbody tr');

    it('is past the size where the whole listing is read', () => {
      expect(models).toHaveLength(ROWS);
      expect(ROWS).toBeGreaterThan(WHOLE_LISTING_UP_TO);
    });

    it('offers "Keep looking" where a step found nothing yet, and pressing it goes on to the results', async () => {
      // Five seats is most of the listing (it has no list of its own): read in the seats order, where
      // one model in a few hundred reaches 3,500,000.
      const page = await open('/?seats=5&price_min=3500000&sort=seats');
      await expect.poll(() => status(page).textContent()).toMatch(/^None found yet among the [\d,]+ models looked at\./);
      const keepLooking = page.getByRole('button', { name: 'Keep looking' });
      expect(await keepLooking.isVisible()).toBe(true);
      const expected = models.filter((model) => model.min_seat <= 5 && model.max_seat >= 5 && model.max_price >= 3_500_000).length;
      expect(expected).toBeGreaterThan(0);
      const searchState = () => page.locator('[data-search]').getAttribute('data-search-state');
      for (let press = 0; press < 40 && (await resultRows(page).count()) === 0; press += 1) {
        await page.getByRole('button', { name: /^(Keep looking|Show more)/ }).click();
        // The step that press began has read its files and said what it found.
        await expect.poll(searchState).toBe('done');
      }
      expect(await resultRows(page).count()).toBeGreaterThan(0);
      expect(await status(page).textContent()).toMatch(/models? match/);
    });

    it('says the count of filters together exactly from the first step, though the sort reads their rows late (seats 5, automatic, by seats)', async () => {
      const expected = models.filter((model) => model.min_seat <= 5 && model.max_seat >= 5 && model.has_operation_type_auto).length;
      const page = await open('/?seats=5&transmission=auto&sort=seats');
      await expect
        .poll(() => status(page).textContent())
        .toMatch(new RegExp(`^${expected.toLocaleString('en')} models match this search\\.`));
      expect(await resultRows(page).count()).toBeGreaterThan(0);
    });

    it.each<SortKey>(['price', '-price', 'seats', '-seats', 'engine', '-engine', '-name'])(
      'a make sorted by %s fetches its document and a file or two of its own list in that order, 5 kB at most',
      async (sort) => {
        const page = await open(`/?make=${encodeURIComponent('豐田')}&sort=${sort}`);
        await expect.poll(() => status(page).textContent()).toMatch(/models match this search\./);
        expect(await resultRows(page).count()).toBe(50);
        const fetched = await page.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter(({ name }) => new URL(name).pathname.startsWith('/search/'))
            .map(({ name, encodedBodySize }) => ({ path: new URL(name).pathname, bytes: encodedBodySize })),
        );
        expect(
          fetched
            .map(({ path }) => path)
            .filter((path) => !path.startsWith('/search/filter/') && !path.includes(`/${orderOf(sort).order}/`)),
        ).toEqual([]);
        expect(fetched.length).toBeLessThanOrEqual(3);
        expect(fetched.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThanOrEqual(5_000);
      },
    );

    it('counts a make exactly whatever the order: by name as by price and as its menu says', async () => {
      const toyota = models.filter((model) => model.combined_car_model.startsWith('豐田 Toyota ')).length;
      expect(toyota).toBeGreaterThan(0);
      const exactly = `${toyota.toLocaleString('en')} models match this search.`;
      for (const sort of ['price', 'name', '-name']) {
        const page = await open(`/?make=${encodeURIComponent('豐田')}&sort=${sort}`);
        await expect.poll(() => status(page).textContent()).toMatch(new RegExp(`^${exactly.replace('.', '\\.')}`));
        const option = await page.locator('select[name="make"] option:checked').textContent();
        expect(option).toContain(`(${toyota.toLocaleString('en')})`);
      }
    });
  },
);
