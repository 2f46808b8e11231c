/**
 * The API's page files, pure bytes of the records from the one serialiser (`npm run dev` answers
 * them from it too), so written without Astro: on a worker thread of their own while Astro renders
 * the HTML pages, only the pages whose bytes changed (src/publish/reuse.ts), each hashed as it is
 * written for the manifest. The records are read a chunk at a time: Astro holds the listing
 * meanwhile, and the build's peak memory is not two listings.
 */
import { createHash } from 'node:crypto';
import { runOnThread } from '../threads.ts';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RecordChunks, RecordSlices } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { makeTableFrom } from '../listing/makes.ts';
import { keysOfListing, keysOfWrittenPage, type KeysOfListing, type PageKeys } from '../listing/page-keys.ts';
import { pageCount, pageRange } from '../listing/pagination.ts';
import { pageFile } from '../listing/routes.ts';
import { writeOrLinkPublished } from '../data/links.ts';
import { serialisePageOf, type Addresses } from '../listing/serialise.ts';
import { summaryFrom } from '../listing/summary.ts';

/**
 * The listing as the writer reads it: its size, and its records a chunk at a time, in order; or,
 * where it can, by position, so that a few pages need only their own records made.
 */
interface ListingChunks {
  count: number;
  chunks: () => RecordChunks;
  slice?: RecordSlices['slice'];
}

/** The JSON pages to write: which (ascending), of what listing, into which site folder. */
interface JsonPagesToWrite {
  siteDir: string;
  listing: ListingChunks;
  pages: readonly number[];
  addresses: Addresses;
  /** Where every page is written (a build with nothing to take pages from): its keys are made too, from what the pages are made of. */
  keysOf?: KeysOfListing;
  /** The published site's folder and the SHA-256 of its file of each of `pages` (by index): a page with those bytes is that file, linked. */
  published?: PublishedPageFiles;
}

/** The published site's folder, and the SHA-256 (its manifest's) of its file of each page to write, by index; none where it has none. */
interface PublishedPageFiles {
  siteDir: string;
  sha256: readonly (string | undefined)[];
}

/** What the writer gives back: each written page's SHA-256 (hex) by page number; every page's keys where it was asked for them. */
export interface WrittenJsonPages {
  hashes: Map<number, string>;
  keys?: PageKeys;
}

/**
 * Writes the JSON page file of each of `pages` (ascending) into `siteDir`; returns each page's
 * SHA-256 (hex) by page number and, with `keysOf`, every page's keys (src/listing/page-keys.ts):
 * made here, beside Astro's rendering, from the text being written anyway, not before Astro starts.
 */
export function writeJsonPages(
  { siteDir, listing, pages, addresses, keysOf, published }: JsonPagesToWrite,
  onProgress: (written: number) => void = () => undefined,
): WrittenJsonPages {
  const hashes = new Map<number, string>();
  if (keysOf !== undefined && pages.length !== pageCount(listing.count))
    throw new Error(`page keys are made where every page is written: ${pages.length} of ${pageCount(listing.count)} pages`);
  const keys: PageKeys | undefined = keysOf && { json: [], html: [], count: listing.count, listing: keysOf.listingDigest };
  if (pages.length === 0) return { hashes };
  mkdirSync(dirname(join(siteDir, pageFile(1))), { recursive: true });
  // Some pages (a rebuild) read by position make only their own records; every page (a first
  // build) is read a chunk at a time, each chunk once.
  const recordsAt = listing.slice !== undefined && pages.length < pageCount(listing.count) ? listing.slice : inOrder(listing.chunks());
  for (const [index, page] of pages.entries()) {
    const { first, end } = pageRange(page, listing.count);
    const pageRecords = recordsAt(first, end);
    const text = serialisePageOf(pageRecords, page, listing.count, addresses);
    const bytes = Buffer.from(text);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // A new file: one already there is an error, never written through (it may be a published
    // file's other name; reuse.ts removes a page to render again).
    const publishedSha256 = published?.sha256[index];
    writeOrLinkPublished(
      join(siteDir, pageFile(page)),
      bytes,
      sha256,
      published && publishedSha256 !== undefined ? { file: join(published.siteDir, pageFile(page)), sha256: publishedSha256 } : undefined,
    );
    hashes.set(page, sha256);
    if (keys && keysOf) {
      const pageKeys = keysOfWrittenPage(keysOf, pageRecords, page, text);
      keys.json[page - 1] = pageKeys.json;
      keys.html[page - 1] = pageKeys.html;
    }
    if ((index + 1) % 1000 === 0) onProgress(index + 1);
  }
  onProgress(pages.length);
  return keys ? { hashes, keys } : { hashes };
}

/**
 * Records `first` … `end - 1` of a listing read a chunk at a time, for ranges asked in ascending
 * order: only the records a later range may still need are held.
 */
function inOrder(chunks: RecordChunks): (first: number, end: number) => readonly CarModel[] {
  const iterator = chunks[Symbol.iterator]();
  let held: readonly CarModel[] = [];
  let start = 0;
  let lastFirst = 0;
  return (first, end) => {
    if (first < lastFirst) throw new Error(`JSON pages must be written in ascending order (records from ${first} after ${lastFirst})`);
    lastFirst = first;
    while (start + held.length < end) {
      const next = iterator.next();
      if (next.done === true) break;
      // The records before `first` go as the next chunk comes: no later range needs them.
      const drop = Math.min(Math.max(first - start, 0), held.length);
      held = drop === held.length ? next.value : [...held.slice(drop), ...next.value];
      start += drop;
    }
    return held.slice(Math.max(first - start, 0), Math.max(end - start, 0));
  };
}

/** The keys of every page of the listing whose summary (src/listing/summary.ts) is `summaryFile`, made as its JSON pages are written. */
export function keysOfSummary(summaryFile: string, addresses: Addresses): KeysOfListing {
  const { count, makes } = summaryFrom(readFileSync(summaryFile));
  return keysOfListing({ count, makeTable: makeTableFrom(makes) }, addresses);
}

/** What the JSON pages' thread is given: plain data. */
export interface JsonPagesInput {
  siteDir: string;
  /** The prepared records (src/data/records-file.ts), read a chunk at a time. */
  recordsFile: string;
  count: number;
  /** The pages to write, ascending. */
  pages: number[];
  addresses: Addresses;
  /** Where every page is written and no keys were made before: the listing's summary, to make them from (see `writeJsonPages`). */
  keysFromSummary?: string;
  /** The published pages, where a page may be the published file (see `writeJsonPages`). */
  published?: PublishedPageFiles;
}

export interface JsonPagesRun {
  /** Each written page's SHA-256 by page number (and the keys asked for), once all are written. */
  written: Promise<WrittenJsonPages>;
  /** How many are written so far. */
  progress: () => number;
  /** Stops the thread at once (a build that failed removes its folder: no page may appear in it meanwhile). */
  stop: () => void;
}

/** Starts `writeJsonPages` on a worker thread of its own. */
export function startJsonPages(input: JsonPagesInput): JsonPagesRun {
  // No page to write (a rebuild where no row changed): no thread to start.
  if (input.pages.length === 0) return { written: Promise.resolve({ hashes: new Map() }), progress: () => 0, stop: () => undefined };
  let progress = 0;
  const run = runOnThread<WrittenJsonPages, number>('JSON pages', new URL('./json-pages-worker.ts', import.meta.url), input, {
    onNote: (written) => (progress = written),
  });
  const written = run.answer;
  // Awaited when the build finishes; a failure is that step's to report.
  written.catch(() => undefined);
  return { written, progress: () => progress, stop: () => void run.stop() };
}
