/**
 * The sitemaps of the browsable pages (`/sitemap-index.xml` and `/sitemap-0.xml`, … of 45,000 URLs
 * each), every page in every language with its alternates, written with the `sitemap` library from
 * the page count: a build that renders only the pages that changed still lists every page.
 */
import { createWriteStream, linkSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SitemapAndIndexStream, SitemapStream } from 'sitemap';
import { pageNumbers } from '../listing/pagination.ts';
import { htmlPagePath } from '../listing/routes.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES } from '../listing/languages.ts';

/** URLs a sitemap file holds at most (below the protocol's 50,000). */
const URLS_PER_FILE = 45_000;
const SITEMAP_INDEX = 'sitemap-index.xml';

/** The names `writeSitemaps` gives its files. */
const SITEMAP_FILE = /^sitemap-(?:index|[0-9]+)\.xml$/;

/**
 * Links the sitemaps of `fromSite` into `toSite`: for a site of the same page count, base URL and
 * code, they are the bytes `writeSitemaps` would write. False (nothing linked) where there are none.
 */
export function takeSitemaps(fromSite: string, toSite: string): boolean {
  const names = readdirSync(fromSite).filter((name) => SITEMAP_FILE.test(name));
  if (!names.includes(SITEMAP_INDEX)) return false;
  for (const name of names) linkSync(`${fromSite}/${name}`, `${toSite}/${name}`);
  return true;
}

export async function writeSitemaps(siteDir: string, baseUrl: string, rows: number): Promise<void> {
  const site = `${baseUrl}/`;
  const index = new SitemapAndIndexStream({
    limit: URLS_PER_FILE,
    getSitemapStream: (number) => {
      const name = `sitemap-${number}.xml`;
      const sitemap = new SitemapStream({ hostname: site, xmlns: { news: true, xhtml: true, image: true, video: true } });
      const written = sitemap.pipe(createWriteStream(join(siteDir, name)));
      return [new URL(name, site).toString(), sitemap, written];
    },
  });
  // Each page in each language, with its alternates in every language (hreflang), as the pages link them.
  const urls = Readable.from(
    (function* () {
      for (const page of pageNumbers(rows)) {
        const links = [
          ...LANGUAGES.map((language) => ({ lang: LANGUAGE_TAGS[language], url: `${baseUrl}${htmlPagePath(page, language)}` })),
          { lang: 'x-default', url: `${baseUrl}${htmlPagePath(page, DEFAULT_LANGUAGE)}` },
        ];
        for (const language of LANGUAGES) yield { url: `${baseUrl}${htmlPagePath(page, language)}`, links };
      }
    })(),
  );
  await pipeline(urls, index, createWriteStream(join(siteDir, SITEMAP_INDEX)));
}
