/**
 * The listing's page files, the API's JSON pages and the HTML pages in every language, written in
 * one pass over the records: the JSON bytes from the one serialiser, each HTML page as Astro's frame
 * of a listing page in its language with the page's own parts in it (src/listing/page-frame.ts,
 * listing-page.ts). Only the pages whose bytes changed (src/publish/reuse.ts), each a new file, each
 * hashed as it is written for the manifest; a page with the published page's bytes is that file,
 * linked. On worker threads, one a core, each a run of consecutive pages, beside Astro's own
 * rendering of the other routes and the downloads' thread.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { writeOrLinkPublished } from '../files/links.ts';
import { openRecordFile } from '../data/records-file.ts';
import { LANGUAGES, type Language } from '../listing/languages.ts';
import { listingPageParts } from '../listing/listing-page.ts';
import { makeTableFrom } from '../listing/makes.ts';
import { keysOfListing, keysOfWrittenPage, type PageKeys } from '../listing/page-keys.ts';
import { frameOf, pageInPieces, type PageFrame } from '../listing/page-frame.ts';
import { pageRange } from '../listing/pagination.ts';
import { htmlPageFile, htmlPageFiles, pageFile } from '../listing/routes.ts';
import { pageAssetsUrl, serialisePageOf, type Addresses } from '../listing/serialise.ts';
import { summaryFrom } from '../listing/summary.ts';
import { runOnThread } from '../threads.ts';
import type { Preparation } from './preparation.ts';

/** Which page files to write: `json[n - 1]` / `html[n - 1]` is 1 for page n's JSON page / HTML page in every language (src/publish/reuse.ts). */
export interface PageFlags {
  json: Uint8Array;
  html: Uint8Array;
}

/** What a writer is given: plain data (it crosses to a worker thread), the prepared records and summary among it. */
export interface ListingPagesInput extends Pick<Preparation, 'recordsFile' | 'summaryFile'> {
  siteDir: string;
  addresses: Addresses;
  flags: PageFlags;
  /** Astro's frame of a listing page in each language, as rendered (with its markers). */
  frames: Record<Language, string>;
  /** The pages this writer takes: `from` … `to - 1`. */
  from: number;
  to: number;
  /** Whether it makes the keys of its pages (a build that writes every page: none were made before). */
  makeKeys: boolean;
  /** The published site's folder and its files' SHA-256 by site path (the baseline's): a page with those bytes is that file. */
  published?: { siteDir: string; sha256: Readonly<Record<string, string>> };
}

/** What a writer gives back: the SHA-256 of each file written, by site path; with `makeKeys`, its pages' keys, in order. */
export interface WrittenListingPages {
  hashes: [string, string][];
  /** The bytes of the files written (a page linked to the published file counts too: it is a file of the site). */
  bytes: number;
  keys?: PageKeys;
}

const PAGES_A_NOTE = 1000;

/** Writes the pages `from` … `to - 1` of `input` that its flags name; notes how many pages it has gone through. */
export function writeListingPages(input: ListingPagesInput, note: (pages: number) => void = () => undefined): WrittenListingPages {
  const { siteDir, addresses, flags, from, to, makeKeys, published } = input;
  const summary = summaryFrom(readFileSync(input.summaryFile));
  const { count } = summary;
  const makeTable = makeTableFrom(summary.makes);
  const makeOf = (model: Parameters<typeof makeTable.makeOf>[0]) => makeTable.makeOf(model).latin;
  // Each frame's text is the same on every page of its language: encoded once.
  const frames = Object.fromEntries(
    LANGUAGES.map((language) => {
      const { parts, text } = frameOf(input.frames[language]);
      return [language, { parts, text: text.map((piece) => Buffer.from(piece)) }];
    }),
  ) as Record<Language, PageFrame<Buffer>>;
  const encode = (part: string) => Buffer.from(part);
  const assetsUrl = pageAssetsUrl(addresses);
  const site = new URL(addresses.baseUrl);
  const keysOf = makeKeys ? keysOfListing({ count, makeTable }, addresses) : undefined;
  const keys: PageKeys | undefined = keysOf && { json: [], html: [], count, listing: keysOf.listingDigest };
  const hashes: [string, string][] = [];
  let bytes = 0;
  const folders = new Set<string>();
  /** Writes `bytes` (a page's, or its pieces in order) at site path `path`, hashed. */
  const write = (path: string, content: Uint8Array | readonly Uint8Array[]) => {
    const file = join(siteDir, path);
    const folder = dirname(file);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    const hash = createHash('sha256');
    for (const piece of content instanceof Uint8Array ? [content] : content) {
      hash.update(piece);
      bytes += piece.length;
    }
    const sha256 = hash.digest('hex');
    // A new file: one already there is an error, never written through (reuse.ts removed every page to write).
    writeOrLinkPublished(file, content, published?.sha256[path] === sha256 ? join(published.siteDir, path) : undefined);
    hashes.push([path, sha256]);
  };
  const records = openRecordFile(input.recordsFile);
  try {
    for (let page = from; page < to; page += 1) {
      const writeJson = flags.json[page - 1] === 1;
      const writeHtml = flags.html[page - 1] === 1;
      if (writeJson || writeHtml || keys !== undefined) {
        const { first, end } = pageRange(page, count);
        const models = records.slice(first, end);
        const json = writeJson || keys !== undefined ? serialisePageOf(models, page, count, addresses) : '';
        if (writeJson) write(pageFile(page), Buffer.from(json));
        if (writeHtml)
          for (const language of LANGUAGES)
            write(
              htmlPageFile(page, language),
              pageInPieces(frames[language], listingPageParts({ page, count, models, makeOf, assetsUrl, site, language }), encode),
            );
        if (keys !== undefined && keysOf !== undefined) {
          const pageKeys = keysOfWrittenPage(keysOf, models, page, json);
          keys.json.push(pageKeys.json);
          keys.html.push(pageKeys.html);
        }
      }
      if ((page - from + 1) % PAGES_A_NOTE === 0) note(page - from + 1);
    }
  } finally {
    records.close();
  }
  note(to - from);
  return keys ? { hashes, bytes, keys } : { hashes, bytes };
}

/** What the build is given back once every writer is done. */
export interface WrittenPages {
  /** The SHA-256 of every page file written, by site path. */
  hashes: Map<string, string>;
  bytes: number;
  /** Every page's keys, where they were made here. */
  keys?: PageKeys;
}

export interface ListingPagesRun {
  written: Promise<WrittenPages>;
  threads: number;
  /** How many pages the writers have gone through so far. */
  progress: () => number;
  /** Stops every writer at once (a build that failed removes its folder: no page may appear in it meanwhile). */
  stop: () => void;
}

/** Of the published pages' hashes, those of the pages a run writes: each thread is given its own alone (300,000 at a million rows). */
function publishedOfRun(
  published: NonNullable<ListingPagesInput['published']>,
  flags: PageFlags,
  { from, to }: { from: number; to: number },
): NonNullable<ListingPagesInput['published']> {
  const sha256: Record<string, string> = {};
  for (let page = from; page < to; page += 1)
    for (const path of [
      ...(flags.json[page - 1] === 1 ? [pageFile(page)] : []),
      ...(flags.html[page - 1] === 1 ? htmlPageFiles(page) : []),
    ]) {
      const hash = published.sha256[path];
      if (hash !== undefined) sha256[path] = hash;
    }
  return { siteDir: published.siteDir, sha256 };
}

/** Below this many files to write a thread, fewer threads write them: a thread's start costs more than a few hundred pages. */
const FILES_A_THREAD = 2000;

/**
 * Starts the writers of the pages `flags` name: the pages cut into runs of consecutive pages with
 * about as many files to write each, one thread a run, as many as there are cores where there are
 * pages enough. `input` as `writeListingPages`'s, without the run.
 */
export function startListingPages(input: Omit<ListingPagesInput, 'from' | 'to'>): ListingPagesRun {
  const pages = input.flags.json.length;
  // Each page weighs the files it writes (at least one where its keys are made).
  const weights = Array.from({ length: pages }, (_, index) =>
    Math.max(input.makeKeys ? 1 : 0, input.flags.json[index]! + input.flags.html[index]! * LANGUAGES.length),
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0)
    return { written: Promise.resolve({ hashes: new Map(), bytes: 0 }), threads: 0, progress: () => 0, stop: () => undefined };
  const threads = Math.max(1, Math.min(availableParallelism(), Math.floor(total / FILES_A_THREAD)));
  const runs: { from: number; to: number }[] = [];
  let from = 1;
  let taken = 0;
  for (let page = 1; page <= pages; page += 1) {
    taken += weights[page - 1]!;
    if (taken >= (total * (runs.length + 1)) / threads || page === pages) {
      runs.push({ from, to: page + 1 });
      from = page + 1;
    }
  }
  const progress = runs.map(() => 0);
  const started = runs.map((run, index) =>
    runOnThread<WrittenListingPages, number>(
      `listing pages ${index + 1}`,
      new URL('./listing-pages-worker.ts', import.meta.url),
      { ...input, ...run, ...(input.published && { published: publishedOfRun(input.published, input.flags, run) }) },
      {
        onNote: (done) => (progress[index] = done),
      },
    ),
  );
  const written = Promise.all(started.map((run) => run.answer)).then((answers): WrittenPages => {
    const hashes = new Map(answers.flatMap((answer) => answer.hashes));
    const bytes = answers.reduce((sum, answer) => sum + answer.bytes, 0);
    const made = answers.map((answer) => answer.keys).filter((keys) => keys !== undefined);
    if (!input.makeKeys || made[0] === undefined) return { hashes, bytes };
    const keys: PageKeys = { ...made[0], json: made.flatMap((each) => each.json), html: made.flatMap((each) => each.html) };
    if (keys.json.length !== pages) throw new Error(`the page writers made the keys of ${keys.json.length} of ${pages} pages`);
    return { hashes, bytes, keys };
  });
  // Awaited when the build finishes; a failure is that step's to report.
  written.catch(() => undefined);
  return {
    written,
    threads: runs.length,
    progress: () => progress.reduce((sum, done) => sum + done, 0),
    stop: () => {
      for (const run of started) void run.stop();
    },
  };
}
