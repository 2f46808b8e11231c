/**
 * Lighthouse, as a visitor's browser sees a page: the `lighthouse` package driving Debian's Chromium
 * (launched by chrome-launcher, nothing downloaded), with Lighthouse's own mobile and desktop
 * settings and their default throttling. Throttling is simulated (Lighthouse's default): the page
 * loads once at full speed and the metrics are computed for a slow 4G phone with a 4× slower CPU
 * (mobile) or a fast desktop line (desktop), which keeps them steadier on a busy machine than
 * slowing the real load down would. Nothing is tuned for the score.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './browser.ts';

export type FormFactor = 'mobile' | 'desktop';

/** What one run found: each category's score (0–100), the layout shift, and the audits that fall short. */
export interface PageAudit {
  url: string;
  formFactor: FormFactor;
  scores: Record<string, number>;
  cumulativeLayoutShift: number;
  /** Total blocking time, ms. */
  totalBlockingTime: number;
  /** Every scored audit below full marks, as `category: title (score, value)`. */
  shortfalls: string[];
  /** The timings the performance score is made of, as `FCP 0.9 s`, for the output. */
  metrics: string[];
  /**
   * Lighthouse's measure of the host's processor (its BenchmarkIndex): the 4× slowdown is meant for
   * a host of about 1,000 or more; below that Lighthouse warns that the performance score suffers.
   */
  benchmarkIndex: number;
}

const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'speed-index': 'SI',
} as const;

/** The audits that count towards a category's score and fell short of it. */
function shortfallsOf(result: Result): string[] {
  return Object.values(result.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => result.audits[ref.id])
      .filter((audit): audit is Result['audits'][string] => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => {
        const value = audit.displayValue ? `, ${audit.displayValue}` : '';
        return `${category.title}: ${audit.title} (${Math.round((audit.score ?? 0) * 100)}${value})`;
      }),
  );
}

/** One Chromium for a series of Lighthouse runs. */
export class LighthouseRunner {
  private readonly chrome: LaunchedChrome;

  private constructor(chrome: LaunchedChrome) {
    this.chrome = chrome;
  }

  static async start(): Promise<LighthouseRunner> {
    const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS], logLevel: 'silent' });
    return new LighthouseRunner(chrome);
  }

  /**
   * Opens each address once before any audit, so that what Chromium does once per run (its first
   * Chinese text loads the CJK fonts from disk, say) is not counted to the first page that needs it.
   * A visitor's phone has its fonts loaded; Lighthouse empties the page's caches itself.
   */
  async warmUp(urls: string[]): Promise<void> {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${this.chrome.port}`);
    try {
      const page = await browser.contexts()[0]!.newPage();
      for (const url of urls) await page.goto(url, { waitUntil: 'load' });
      await page.close();
    } finally {
      // Connected, not launched: this disconnects and leaves Chromium running for the audits.
      await browser.close();
    }
  }

  /** Audits `url` in every category with Lighthouse's settings for `formFactor`. */
  async audit(url: string, formFactor: FormFactor): Promise<PageAudit> {
    const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
    // No full-page screenshot: the report's thumbnails of elements, which no audit scores (1.3 s of an
    // audit's 8.6 s here, for each of the test's twelve).
    const run = await lighthouse(
      url,
      { port: this.chrome.port, output: 'json', logLevel: 'error', disableFullPageScreenshot: true },
      config,
    );
    if (!run) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = run;
    if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(
      Object.entries(lhr.categories).map(([id, category]) => [id, Math.round((category.score ?? 0) * 100)]),
    );
    const cumulativeLayoutShift = lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
    const totalBlockingTime = lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN;
    const metrics = Object.entries(METRICS).map(([id, name]) => `${name} ${lhr.audits[id]?.displayValue ?? '?'}`);
    return {
      url,
      formFactor,
      scores,
      cumulativeLayoutShift,
      totalBlockingTime,
      shortfalls: shortfallsOf(lhr),
      metrics,
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  }

  stop(): void {
    this.chrome.kill();
  }
}

/** A run as lines for the test's output: the scores, the layout shift and what fell short. */
export function describeAudit({ url, formFactor, scores, cumulativeLayoutShift, shortfalls, metrics, benchmarkIndex }: PageAudit): string {
  const line = Object.entries(scores)
    .map(([id, score]) => `${id} ${score}`)
    .join(', ');
  return [
    `Lighthouse ${formFactor} ${new URL(url).pathname}: ${line}; CLS ${cumulativeLayoutShift.toFixed(3)}`,
    `  ${metrics.join(', ')}; host's benchmark index ${Math.round(benchmarkIndex)}`,
    ...(shortfalls.length > 0
      ? shortfalls.map((shortfall) => `  short of full marks: ${shortfall}`)
      : ['  every scored audit at full marks']),
  ].join('\n');
}
