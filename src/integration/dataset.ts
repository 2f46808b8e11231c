/**
 * The listing the pages are made from, as the listing integration prepared it: the addresses from
 * the configuration, the listing's size, make table and each page's records (see
 * src/listing/summary.ts), and which pages Astro renders. The integration
 * (`src/integration/index.ts`) names them in the virtual module `virtual:listing/dataset`; a page
 * never reads the CSV itself.
 */
import type { GetStaticPaths } from 'astro';
import { addresses, checkAllPages, datasetState, live } from 'virtual:listing/dataset';
import { readFileSync } from 'node:fs';
import { openRecordFile } from '../data/records-file.ts';
import { LANGUAGES, type Language } from '../listing/languages.ts';
import { pageCount, pageNumbers } from '../listing/pagination.ts';
import type { Addresses } from '../listing/serialise.ts';
import { listingInMemory, listingFrom, summaryFrom, type ListingPages } from '../listing/summary.ts';
import { dataReadyBeforePages } from './astro-internals.ts';

export interface Dataset extends ListingPages {
  addresses: Addresses;
  /** In `astro dev` only: the problems of the data file on disk, while the last good data is shown. */
  problemReport: string | null;
}

const EMPTY = listingInMemory([]);

let loaded: { file: string; listing: ListingPages } | undefined;

/** The dataset of this build (or of the dev server's current data). */
export function getDataset(): Dataset {
  const { recordsFile, summaryFile, records, problemReport } = datasetState();
  if (recordsFile === null || summaryFile === null) return { addresses, ...EMPTY, problemReport };
  // The dev server's records are in memory in its own process; a build's pages read theirs from
  // the records file (held open for the rest of the build).
  if (loaded?.file !== recordsFile) {
    const listing = records
      ? listingInMemory(records)
      : listingFrom(openRecordFile(recordsFile), summaryFrom(dataReadyBeforePages(() => readFileSync(summaryFile))));
    loaded = { file: recordsFile, listing };
  }
  return { addresses, ...loaded.listing, problemReport };
}

/**
 * The routes of the listing's pages after the first (`/page/N/` in each language; the first is the
 * home page), with each page's number: the pages Astro renders. In dev, every page asked for; in a
 * build, where the build writes every page from Astro's frame (src/outputs/listing-pages.ts), those
 * it compares with Astro's own rendering (src/integration/page-check.ts): the first, second, middle
 * and last pages, or every page with CHECK_PAGES=all.
 */
export const laterPagePaths = (() => {
  const { count } = getDataset();
  const pages = pageCount(count);
  const rendered = live || checkAllPages ? pageNumbers(count) : [...new Set([2, Math.ceil(pages / 2), pages])];
  return rendered.filter((page) => page > 1 && page <= pages).map((page) => ({ params: { page: String(page) }, props: { page } }));
}) satisfies GetStaticPaths;

/** The languages whose listing page's frame Astro renders: each, in a build; none in dev, which renders each page whole. */
export function framesToRender(): Language[] {
  return live ? [] : [...LANGUAGES];
}
