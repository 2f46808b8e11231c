/**
 * Lighthouse on what a visitor of `npm start` sees: the shipped data built with the default
 * addresses (for port 4321, as `npm run build` does), served by the real preview server on another
 * port, as `PORT=5000 npm run preview` would. The home page, a listing page and a search, in
 * English and Chinese, mobile and desktop, with Lighthouse's own settings (test/support/lighthouse.ts): every category at least 95
 * and a cumulative layout shift of at most 0.02. The scores and every audit short of full marks are
 * printed, passed or not; a page that falls short is audited twice more, after the other pages, and
 * judged by the median of the three. Chromium opens every page once before the first audit.
 * `npm run audit` runs this file alone.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { describeAudit, LighthouseRunner, type FormFactor, type PageAudit } from '../support/lighthouse.ts';
import { buildSite, freePort, startPreview, tempDir, type RunningPreview } from '../support/site.ts';
import { runsWith } from '../support/software.ts';

/** Each category's lowest score, and the most layout shift allowed ("good" ends at 0.1). */
const MIN_SCORE = 95;
const MAX_LAYOUT_SHIFT = 0.02;
/** The home page, a listing page and a search, in each language. */
const PAGES = ['/', '/page/2/', '/?q=Toyota', '/zh-hk/', '/zh-hk/page/2/', `/zh-hk/?q=${encodeURIComponent('豐田')}`];
const FORM_FACTORS: FormFactor[] = ['mobile', 'desktop'];

const passes = ({ scores, cumulativeLayoutShift }: PageAudit) =>
  Object.values(scores).every((score) => score >= MIN_SCORE) && cumulativeLayoutShift <= MAX_LAYOUT_SHIFT;

/** The median run: each category's median score, and the median layout shift. */
function medianOf(runs: PageAudit[]): PageAudit {
  const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const first = runs[0]!;
  return {
    ...first,
    scores: Object.fromEntries(
      Object.keys(first.scores).map((category) => [category, median(runs.map(({ scores }) => scores[category] ?? 0))]),
    ),
    cumulativeLayoutShift: median(runs.map(({ cumulativeLayoutShift }) => cumulativeLayoutShift)),
  };
}

describe.runIf(runsWith(hasChromium, 'the Lighthouse audit', 'chromium', 'apt-get install chromium'))(
  'Lighthouse on the shipped data, as a visitor sees it',
  () => {
    const workspace = tempDir('audit');
    let preview: RunningPreview;
    let runner: LighthouseRunner | undefined;

    beforeAll(async () => {
      const outDir = join(workspace, 'dist');
      // The defaults throughout (BASE_URL http://localhost:4321, ASSETS_URL its /assets), served elsewhere.
      buildSite({ DATA_FILE: 'data/captured-car-models.csv', OUT_DIR: outDir });
      let port = await freePort();
      while (port === 4321) port = await freePort();
      preview = await startPreview({ OUT_DIR: outDir, PORT: String(port) });
      runner = await LighthouseRunner.start();
      await runner.warmUp(PAGES.map((path) => `${preview.origin}${path}`));
    });
    afterAll(async () => {
      runner?.stop();
      await preview?.stop();
      rmSync(workspace, { recursive: true, force: true });
    });

    it('shows the shipped logos on a preview at another port than the build was made for, in the page and in search results, and keeps the API absolute', async () => {
      const html = await (await fetch(`${preview.origin}/`)).text();
      const logos = [...html.matchAll(/<img class="logo" src="([^"]+)"/g)].map(([, src]) => src!);
      expect(logos.length).toBe(10);
      for (const src of logos) {
        expect(src).toMatch(/^\/assets\/media\/brand\/logo\/[a-z-]+\.svg$/);
        const response = await fetch(new URL(src, preview.origin));
        expect(response.status, src).toBe(200);
        expect(response.headers.get('content-type'), src).toMatch(/^image\/svg\+xml/);
      }
      // The search's rows, built by the script from the index, take the page's logo base too.
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${preview.origin}/?q=toyota`);
        const images = page.locator('#search-results-table img');
        await expect.poll(() => images.count()).toBeGreaterThan(10);
        await expect
          .poll(() =>
            images.evaluateAll(
              (list) =>
                list.filter((image) => !(image as HTMLImageElement).complete || (image as HTMLImageElement).naturalWidth === 0).length,
            ),
          )
          .toBe(0);
        expect(new Set(await images.evaluateAll((list) => list.map((image) => image.getAttribute('src'))))).toEqual(
          new Set(['/assets/media/brand/logo/toyota.svg']),
        );
      } finally {
        await browser.close();
      }
      const api = (await (await fetch(`${preview.origin}/car/api/capture_car/latest?page=1`)).json()) as {
        results: { logo: string | null }[];
      };
      expect(api.results[0]?.logo).toMatch(/^http:\/\/localhost:4321\/assets\/media\/brand\/logo\/[a-z-]+\.svg$/);
    });

    it(
      `scores at least ${MIN_SCORE} in every category with a layout shift of at most ${MAX_LAYOUT_SHIFT}, mobile and desktop`,
      { timeout: 600_000 },
      async () => {
        const pages = PAGES.flatMap((path) =>
          FORM_FACTORS.map((formFactor) => ({ url: `${preview.origin}${path}`, formFactor, runs: [] as PageAudit[] })),
        );
        const audit = async (page: (typeof pages)[number]) => {
          const run = await runner!.audit(page.url, page.formFactor);
          console.log(describeAudit(run));
          page.runs.push(run);
        };
        for (const page of pages) await audit(page);
        // One run where it passes; else the median of three, as Lighthouse's own guidance on
        // variance says. The two more runs come after every page's first, not straight after it:
        // a busy spell of a CI machine (seen once: three runs in a row of one page at 88) then
        // weighs on one run of a page, not on all three.
        for (let round = 0; round < 2; round += 1) for (const page of pages) if (!passes(page.runs[0]!)) await audit(page);
        const audits = pages.map(({ runs }) => medianOf(runs));
        const shortfalls = audits.flatMap(({ url, formFactor, scores, cumulativeLayoutShift }) => [
          ...Object.entries(scores)
            .filter(([, score]) => score < MIN_SCORE)
            .map(([category, score]) => `${formFactor} ${new URL(url).pathname}: ${category} ${score}`),
          ...(cumulativeLayoutShift > MAX_LAYOUT_SHIFT
            ? [`${formFactor} ${new URL(url).pathname}: CLS ${cumulativeLayoutShift.toFixed(3)}`]
            : []),
        ]);
        expect(shortfalls).toEqual([]);
        for (const { scores } of audits)
          expect(Object.keys(scores)).toEqual(expect.arrayContaining(['performance', 'accessibility', 'best-practices', 'seo']));
      },
    );
  },
);
