/**
 * The pages' search as a person on a phone meets it: Debian's Chromium with Lighthouse's mobile
 * throttling (4× CPU, 150 ms round trip, 1.6 Mbps down), on a built site served by the preview
 * server. Each interaction starts from a fresh page (no cache): the bytes it fetched (compressed
 * bodies, as the server sent them), the time from its last input event to its results painted (the
 * script's 150 ms wait for typing to pause included; the browser driver's own time to type not), the longest
 * main-thread task meanwhile, and the JS heap after; then Lighthouse (mobile) on `/?q=Toyota`.
 *
 *   node bench/search.ts <site folder> [--runs=3]   (or, in the suite: npm run bench -- --only=search)
 */
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../test/support/browser.ts';
import { LighthouseRunner } from '../test/support/lighthouse.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { counted } from '../src/listing/format.ts';
import { buildOf, dataFile, maxRuns, median, out } from './lib.ts';

interface Interaction {
  name: string;
  /** The page it starts on. */
  path: string;
  /** What a person does; resolves once the input is given. */
  act: (page: Page) => Promise<void>;
}

const INTERACTIONS: Interaction[] = [
  { name: 'first search "Toyota"', path: '/', act: (page) => page.getByLabel('Name').fill('Toyota') },
  { name: 'first search "豐田" (Chinese page)', path: '/zh-hk/', act: (page) => page.getByLabel('名稱').fill('豐田') },
  {
    name: 'sort by price alone',
    path: '/',
    act: (page) =>
      page
        .getByLabel('Sort by')
        .selectOption('price')
        .then(() => undefined),
  },
  {
    name: 'a make alone',
    path: '/',
    act: (page) =>
      page
        .getByLabel('Make')
        .selectOption({ index: 3 })
        .then(() => undefined),
  },
  {
    name: 'a price range',
    path: '/',
    act: async (page) => {
      await page.getByLabel('Price from').fill('500000');
      await page.getByLabel('Price up to').fill('520000');
    },
  },
  {
    name: 'make, seats and sort by name',
    path: '/',
    act: async (page) => {
      await page.getByLabel('Make').selectOption({ index: 2 });
      await page.getByLabel('Seats').fill('5');
      await page.getByLabel('Sort by').selectOption('-name');
    },
  },
];

interface SearchFigures {
  name: string;
  seconds: number;
  /** Compressed bytes of the index's files an interaction fetched, and of the page's script. */
  bytes: number;
  scriptBytes: number;
  longestTaskMs: number;
  heapBytes: number;
  status: string;
}

const THROTTLING = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

async function measureOnce(origin: string, interaction: Interaction): Promise<SearchFigures> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...THROTTLING });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      const window_ = window as unknown as { longestTask: number; lastInput: number };
      window_.longestTask = 0;
      // When the person's last input reached the page (the event's own time): what they wait from.
      for (const type of ['input', 'change']) document.addEventListener(type, (event) => (window_.lastInput = event.timeStamp), true);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window_.longestTask = Math.max(window_.longestTask, entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${origin}${interaction.path}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search-state') === 'done');
    await page.evaluate(() => {
      (window as unknown as { longestTask: number }).longestTask = 0;
      performance.mark('interaction');
    });
    const started = await page.evaluate(() => performance.now());
    await interaction.act(page);
    const lastInput = await page.evaluate(() => (window as unknown as { lastInput: number }).lastInput);
    // The script waits 150 ms after the last input, then searches: done once it says so.
    await page
      .waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search-state') === 'loading', null, {
        timeout: 5000,
      })
      .catch(() => undefined);
    await page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search-state') === 'done', null, {
      timeout: 120_000,
    });
    const painted = await page.evaluate(
      () => new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))),
    );
    const { bytes, scriptBytes, longestTaskMs, status } = await page.evaluate((since) => {
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        bytes: resources
          .filter((entry) => entry.startTime >= since && entry.name.includes('/search/'))
          .reduce((sum, entry) => sum + entry.encodedBodySize, 0),
        scriptBytes: resources.filter((entry) => entry.name.endsWith('.js')).reduce((sum, entry) => sum + entry.encodedBodySize, 0),
        longestTaskMs: (window as unknown as { longestTask: number }).longestTask,
        status: document.querySelector('[data-search-status]')?.textContent ?? '',
      };
    }, started);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return {
      name: interaction.name,
      seconds: (painted - lastInput) / 1000,
      bytes,
      scriptBytes,
      longestTaskMs,
      heapBytes: usedSize,
      status,
    };
  } finally {
    await browser.close();
  }
}

/** Each interaction's medians over `runs` fresh pages. */
async function searchFigures(origin: string, runs: number): Promise<SearchFigures[]> {
  const figures: SearchFigures[] = [];
  for (const interaction of INTERACTIONS) {
    const samples: SearchFigures[] = [];
    for (let run = 0; run < runs; run += 1) samples.push(await measureOnce(origin, interaction));
    figures.push({
      name: interaction.name,
      seconds: median(samples.map(({ seconds }) => seconds)),
      bytes: median(samples.map(({ bytes }) => bytes)),
      scriptBytes: median(samples.map(({ scriptBytes }) => scriptBytes)),
      longestTaskMs: median(samples.map(({ longestTaskMs }) => longestTaskMs)),
      heapBytes: median(samples.map(({ heapBytes }) => heapBytes)),
      status: samples.at(-1)!.status,
    });
    console.error(`${interaction.name}: ${JSON.stringify(figures.at(-1))}`);
  }
  return figures;
}

/** Lighthouse (mobile) on a search: its scores and its total blocking time. */
async function lighthouseOnSearch(origin: string, path = '/?q=Toyota'): Promise<{ scores: Record<string, number>; tbtMs: number }> {
  const runner = await LighthouseRunner.start();
  try {
    const audit = await runner.audit(`${origin}${path}`, 'mobile');
    return { scores: audit.scores, tbtMs: audit.totalBlockingTime };
  } finally {
    runner.stop();
  }
}

const seconds = (value: number) => `${value.toFixed(2)} s`;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The figures of `npm run bench -- --only=search` (or the default run): each size's site, built unless the build section left it. */
export async function searchSection(rowCounts: readonly number[]): Promise<string[]> {
  const { startPreview, freePort } = await import('../scripts/lib/servers.ts');
  const lines = [
    "Debian's Chromium with Lighthouse's mobile throttling (4× CPU, 150 ms, 1.6 Mbps), a fresh page each run, the preview server; " +
      `medians of ${maxRuns} runs. The time runs from the interaction's last input event (its own timestamp) to its results painted, the script's ` +
      `150 ms wait for typing to pause included. "bytes" are the index files the interaction fetched, compressed as sent; the page's script is apart.`,
    '',
    '| rows | interaction | input → results painted | index bytes fetched | longest task | JS heap after | what it showed |',
    '| ---: | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  const audits: string[] = [];
  let scriptBytes = 0;
  for (const rows of rowCounts) {
    const site = join(out, `site-${rows}`);
    if (!existsSync(join(site, 'index.html'))) await buildOf(await dataFile(rows), rows)();
    const preview = await startPreview({ OUT_DIR: site, PORT: String(await freePort()) });
    try {
      for (const figure of await searchFigures(preview.origin, maxRuns)) {
        scriptBytes = Math.max(scriptBytes, figure.scriptBytes);
        lines.push(
          `| ${counted(rows)} | ${figure.name} | ${seconds(figure.seconds)} | ${kb(figure.bytes)} | ${figure.longestTaskMs.toFixed(0)} ms | ` +
            `${(figure.heapBytes / 1_048_576).toFixed(1)} MiB | ${figure.status.replaceAll('|', '\\|')} |`,
        );
      }
      const { scores, tbtMs } = await lighthouseOnSearch(preview.origin);
      audits.push(
        `| ${counted(rows)} | ${Object.entries(scores)
          .map(([category, score]) => `${category} ${score}`)
          .join(', ')} | ${tbtMs.toFixed(0)} ms |`,
      );
    } finally {
      await preview.stop();
    }
  }
  return [
    ...lines,
    '',
    `The page's script, fetched with the page before any search: ${kb(scriptBytes)} compressed.`,
    '',
    '### Lighthouse (mobile) on `/?q=Toyota`\n',
    '| rows | scores | total blocking time |',
    '| ---: | --- | ---: |',
    ...audits,
  ];
}

if (import.meta.main) {
  const { startPreview, freePort } = await import('../scripts/lib/servers.ts');
  const site = process.argv[2];
  if (!site) throw new Error('usage: node bench/search.ts <site folder> [--runs=3]');
  const preview = await startPreview({ OUT_DIR: site, PORT: String(await freePort()) });
  try {
    for (const figure of await searchFigures(preview.origin, maxRuns)) console.log(JSON.stringify(figure));
    console.log(JSON.stringify(await lighthouseOnSearch(preview.origin)));
  } finally {
    await preview.stop();
  }
}
