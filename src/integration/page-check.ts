/**
 * Every build holds the listing pages it wrote to Astro's own rendering of the same pages: the
 * first, second, middle and last of each language, or all of them with CHECK_PAGES=all
 * (dataset.ts). The pages are written from Astro's frame with markup the components use too
 * (src/outputs/listing-pages.ts), so they are the same bytes; a page that is not means the markup
 * left that one place, and the build stops before it publishes anything.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal, unchangedSite } from './refusals.ts';

/** A listing page as Astro rendered it: its site path, its SHA-256, and its bytes where they were kept. */
export interface AstroPage {
  path: string;
  sha256: string;
  bytes?: Buffer;
}

/** Characters shown either side of where a page differs. */
const CONTEXT = 80;

/** Where two pages first differ, with what each has there. */
function firstDifference(written: Buffer, astro: Buffer): string {
  const [mine, theirs] = [written.toString('utf8'), astro.toString('utf8')];
  let at = 0;
  while (at < mine.length && at < theirs.length && mine[at] === theirs[at]) at += 1;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - CONTEXT), at + CONTEXT));
  return `at character ${at}: the build wrote …${around(mine)}…, Astro rendered …${around(theirs)}…`;
}

/**
 * Refuses to go on where a page of `siteDir` is not `pages`' bytes, naming the first such page and
 * where it differs (`outDir`, the published site, for the message).
 */
export function checkPages(siteDir: string, pages: readonly AstroPage[], outDir: string): void {
  for (const page of pages) {
    const written = readFileSync(join(siteDir, page.path));
    if (createHash('sha256').update(written).digest('hex') === page.sha256) continue;
    const where = page.bytes === undefined ? 'its bytes differ' : firstDifference(written, page.bytes);
    throw new Refusal(
      `The listing page ${page.path} that the build wrote is not the page Astro renders (${where}).\nWhat differs from page to page must be made by src/listing/listing-page.ts alone (see src/components/ListingPage.astro). ${unchangedSite(outDir)}`,
    );
  }
}
