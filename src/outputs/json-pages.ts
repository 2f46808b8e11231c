/**
 * The API's page files, written straight from the one serialiser. They are pure bytes of the
 * records (an envelope per page), so they need nothing of Astro's page pipeline: the build writes
 * them on a worker thread of their own while Astro renders the HTML pages on the main one, only the
 * pages whose bytes changed (see src/publish/reuse.ts), each hashed as it is written for the
 * manifest. The thread starts once the data side's has ended, and reads the records a chunk at a
 * time: Astro holds the listing meanwhile, and the build's peak memory is not two listings.
 * `npm run dev` answers the same paths from the same serialiser through the one request handler
 * (src/serve/dev-server.ts).
 */
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { turnEvery } from '../data/event-loop.ts';
import type { RecordChunks } from '../data/record-store.ts';
import type { CarModel } from '../data/schema.ts';
import { pageRange } from '../listing/pagination.ts';
import { pageFile } from '../listing/routes.ts';
import { serialisePageOf, type Addresses } from '../listing/serialise.ts';


/** The listing as the writer reads it: its size, and its records a chunk at a time, in order. */
interface ListingChunks {
  count: number;
  chunks: () => RecordChunks;
}

/** The JSON pages to write: which (ascending), of what listing, into which site folder. */
interface JsonPagesToWrite {
  siteDir: string;
  listing: ListingChunks;
  pages: readonly number[];
  addresses: Addresses;
}

/**
 * Writes the JSON page file of each of `pages` (ascending) into `siteDir`, reading the listing a
 * chunk at a time (it never holds more than a chunk and a page: Astro holds the listing meanwhile);
 * returns each page's SHA-256 (hex), by page number. Each is a new file: one already there is an
 * error, never written through (it may be a published file's other name; see reuse.ts, which
 * removes a page it renders again).
 */
export async function writeJsonPages({ siteDir, listing, pages, addresses }: JsonPagesToWrite, onProgress: (written: number) => void = () => undefined): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  if (pages.length === 0) return hashes;
  mkdirSync(dirname(join(siteDir, pageFile(1))), { recursive: true });
  const write = (page: number, pageRecords: readonly CarModel[]) => {
    const bytes = Buffer.from(serialisePageOf(pageRecords, page, listing.count, addresses));
    writeFileSync(join(siteDir, pageFile(page)), bytes, { flag: 'wx' });
    hashes.set(page, createHash('sha256').update(bytes).digest('hex'));
  };
  /** Records from position `start` on that a page still to write may need. */
  let held: readonly CarModel[] = [];
  let start = 0;
  let next = 0;
  for (const chunk of listing.chunks()) {
    held = held.length === 0 ? chunk : [...held, ...chunk];
    const heldEnd = start + held.length;
    for (let page = pages[next]; page !== undefined && pageRange(page, listing.count).end <= heldEnd; page = pages[next]) {
      const { first, end } = pageRange(page, listing.count);
      if (first < start) throw new Error(`JSON pages must be written in ascending order (page ${page})`);
      write(page, held.slice(first - start, end - start));
      next += 1;
      if (next % 1000 === 0) onProgress(next);
      await turnEvery(next);
    }
    const keepFrom = next < pages.length ? Math.min(pageRange(pages[next]!, listing.count).first, heldEnd) : heldEnd;
    held = held.slice(keepFrom - start);
    start = keepFrom;
  }
  // An empty listing has one page, of no records.
  for (; next < pages.length; next += 1) write(pages[next]!, []);
  onProgress(pages.length);
  return hashes;
}

/** What the JSON pages' thread is given: plain data. */
export interface JsonPagesInput {
  siteDir: string;
  /** The prepared records (src/data/record-store.ts), read a chunk at a time. */
  recordsFile: string;
  count: number;
  /** The pages to write, ascending. */
  pages: number[];
  addresses: Addresses;
}

export interface JsonPagesRun {
  /** Each written page's SHA-256 by page number, once all are written. */
  hashes: Promise<Map<number, string>>;
  /** How many are written so far. */
  written: () => number;
  /** Stops the thread at once (a build that failed removes its folder: no page may appear in it meanwhile). */
  stop: () => void;
}

/** Starts `writeJsonPages` on a worker thread of its own. */
export function startJsonPages(input: JsonPagesInput): JsonPagesRun {
  // No page to write (a rebuild where no row changed): no thread to start.
  if (input.pages.length === 0) return { hashes: Promise.resolve(new Map()), written: () => 0, stop: () => undefined };
  const worker = new Worker(new URL('./json-pages-worker.ts', import.meta.url), { workerData: input });
  let written = 0;
  const hashes = new Promise<Map<number, string>>((done, fail) => {
    worker.on('message', (message: { written: number } | { hashes: [number, string][] }) => {
      if ('written' in message) written = message.written;
      else done(new Map(message.hashes));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the JSON pages' thread stopped (exit code ${code}) before it was done`)));
  });
  // Awaited when the build finishes; a failure is that step's to report.
  hashes.catch(() => undefined);
  return { hashes, written: () => written, stop: () => void worker.terminate() };
}
