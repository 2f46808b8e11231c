/**
 * A data maintainer's loop in `npm run dev`, in Chromium: edit a row and see it, break a row and
 * see the problem report over the last good data, fix it and see the page again, all without a
 * restart and without reloading the page by hand. Search and downloads work in dev too.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningDevServer } from '../../scripts/lib/servers.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { projectRoot, tempDir } from '../support/site.ts';
import { runsWith } from '../support/software.ts';

const workspace = tempDir('dev-loop');
const dataFile = join(workspace, 'cars.csv');
const original = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8')
  .replace(/\r?\n$/, '')
  .split(/\r?\n/);
/** Row 15 of the data (line 16 of the file) is on page 2. */
const ROW = 15;
const write = (lines: readonly string[]) => writeFileSync(dataFile, `${lines.join('\n')}\n`);
const withField = (line: string, field: number, value: string) => line.split(',').with(field, value).join(',');

describe.runIf(runsWith(hasChromium, 'the dev loop in Chromium', 'chromium', 'apt-get install chromium'))('npm run dev in Chromium', () => {
  let dev: RunningDevServer;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    write(original);
    dev = await startDevServer({ DATA_FILE: dataFile });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  const tableText = () => page.locator('[data-listing] table.models').textContent();

  it('shows an edited row without a restart or a reload by hand', async () => {
    await page.goto(`${dev.origin}/page/2/`);
    expect(await tableText()).toContain(original[ROW + 1]!.split(',')[1]);
    const edited = [...original];
    edited[ROW + 1] = withField(original[ROW + 1]!, 1, '豐田 Toyota Edited In Dev');
    write(edited);
    await expect.poll(tableText).toContain('豐田 Toyota Edited In Dev');
    expect(await page.locator('.data-problems').count()).toBe(0);
  });

  it('shows the problem report of a broken row over the last good data, in the page and in the terminal', async () => {
    const broken = [...original];
    broken[ROW + 1] = withField(withField(original[ROW + 1]!, 1, '豐田 Toyota Edited In Dev'), 3, 'seven');
    write(broken);
    const report = page.getByRole('alert');
    await expect.poll(() => report.count()).toBe(1);
    const expected = `${dataFile}:${ROW + 2}: column 4 (min_seat):`;
    expect(await report.textContent()).toContain(expected);
    expect(await report.textContent()).toContain('got "seven"');
    // The last good data stays on the page.
    expect(await tableText()).toContain('豐田 Toyota Edited In Dev');
    expect(dev.output()).toContain(expected);
    expect(dev.output()).toContain('Showing the last good data until the file is fixed.');
  });

  it('shows the page again once the file is fixed', async () => {
    write(original);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    expect(await tableText()).toContain(original[ROW + 1]!.split(',')[1]);
  });

  it('searches the whole listing and links the downloads', async () => {
    await page.goto(`${dev.origin}/`);
    await page.getByLabel('Name').fill('Alphard');
    await expect.poll(() => page.locator('#search-results-table tbody tr').count()).toBeGreaterThan(0);
    for (const path of ['/all.json', '/all.csv', '/search/order/listing/0.json', '/search/order/price/0.json', '/manifest.json']) {
      expect((await fetch(`${dev.origin}${path}`)).status, path).toBe(200);
    }
    expect(errors).toEqual([]);
  });
});
