/**
 * A preparation's downloads (src/outputs/downloads-cache.ts), written by the worker thread into
 * a real cache folder: their bytes are those written from scratch from the same records (after an
 * edit too, where unchanged rows' bytes are copied from the earlier downloads), their hashes the
 * manifest's; whole, they are taken again as they are; damaged, they are said and written again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inChunks, readRecordFile } from '../../src/data/records-file.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { DOWNLOADS, writeDownloadFiles } from '../../src/outputs/downloads.ts';
import { writeSearchFiles } from '../../src/outputs/search-files.ts';
import { removeDownloads, withDownloads } from '../../src/outputs/downloads-cache.ts';
import { writeSyntheticCsv } from '../../scripts/generate.ts';
import { SEARCH_FOLDER } from '../../src/listing/search.ts';
import { prepareRecords, type PrepareOptions, type PreparationResult } from '../../src/outputs/preparation.ts';
import { fixture, tempDir } from '../support/site.ts';

const ASSETS = 'https://img.example.com';
const LISTING = readFileSync(fixture('listing-23.csv'), 'utf8');

afterEach(() => {
  vi.restoreAllMocks();
});

/** A workspace whose data file is `text`, saved a while ago (settled-read.ts waits for a fresh save). */
function project(text: string) {
  const dir = tempDir('prepared-downloads');
  const dataFile = join(dir, 'cars.csv');
  const save = (next: string) => {
    writeFileSync(dataFile, next);
    const past = new Date(Date.now() - 10_000);
    utimesSync(dataFile, past, past);
  };
  save(text);
  const options: PrepareOptions = {
    root: dir,
    preparationsDir: join(dir, 'cache'),
    dataFile,
    assetsUrl: ASSETS,
    warn: () => undefined,
  };
  return { dir, options, save };
}

/** The preparation of the data file of `options`, its downloads begun at once. */
async function prepared(options: PrepareOptions) {
  const result = await prepareRecords(options);
  if ('problems' in result) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return { ...result, preparation: withDownloads(result.preparation, options.assetsUrl) };
}

/** A preparation of records alone (its downloads not begun). */
function recordsOnly(result: PreparationResult) {
  if ('problems' in result) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result;
}

/** Each download's bytes in `dir`, by URL path. */
const bytesIn = (dir: string) => Object.fromEntries(DOWNLOADS.map((path) => [path, readFileSync(join(dir, path.slice(1)))]));

/** The downloads of `records` written from scratch on this thread, in a folder of their own: bytes and hashes. */
function fromScratch(records: readonly CarModel[], under: string) {
  const dir = join(under, 'from-scratch');
  const downloads = writeDownloadFiles(
    dir,
    { chunks: () => inChunks(records), slice: (start, end) => records.slice(start, end) },
    ASSETS,
  ).downloads;
  // The search index's files are the preparation's downloads too (downloads-worker.ts).
  const search = Object.entries(writeSearchFiles(dir, inChunks(records)).files)
    .filter(([file]) => file.startsWith(SEARCH_FOLDER.slice(1)))
    .map(([file, sha256]) => [`/${file}`, sha256]);
  return { bytes: bytesIn(dir), hashes: { ...downloads, ...Object.fromEntries(search) } };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe("a preparation's downloads", () => {
  // One preparation of the listing, its downloads written once by the worker thread, for every
  // test in turn (a worker thread costs a few hundred milliseconds to start).
  let setup: ReturnType<typeof project>;
  let first: Awaited<ReturnType<typeof prepared>>;
  let firstHashes: Record<string, string>;
  beforeAll(async () => {
    setup = project(LISTING);
    first = await prepared(setup.options);
    firstHashes = (await first.preparation.downloads).hashes;
  });
  afterAll(() => rmSync(setup.dir, { recursive: true, force: true }));

  it('are the bytes written from scratch from its records, hashed as the manifest hashes them', () => {
    const expected = fromScratch(first.records!, setup.dir);
    expect(bytesIn(first.preparation.downloadsDir)).toEqual(expected.bytes);
    expect(firstHashes).toEqual(expected.hashes);
    for (const path of DOWNLOADS) expect(firstHashes[path], path).toBe(sha256(expected.bytes[path]!));
  });

  it('are taken as they are when whole: not written again', async () => {
    const stamps = () =>
      DOWNLOADS.map((path) => statSync(join(first.preparation.downloadsDir, path.slice(1)), { bigint: true })).map(
        ({ ino, mtimeNs }) => `${ino}:${mtimeNs}`,
      );
    const before = stamps();
    const again = await prepared(setup.options);
    expect(again.preparation.validated).toBe(false);
    expect((await again.preparation.downloads).hashes).toEqual(firstHashes);
    expect(stamps()).toEqual(before);
  });

  it('after an edit, copying the unchanged rows from the earlier ones, are the bytes written from scratch', async () => {
    const lines = LISTING.split('\n');
    lines[6] = lines[6]!.replace(/^((?:[^,]*,){8})[^,]*/, '$1888888');
    setup.save(lines.join('\n'));
    const edited = await prepared({ ...setup.options, earlier: first.preparation.key });
    setup.save(LISTING);
    const { hashes } = await edited.preparation.downloads;
    const expected = fromScratch(edited.records!, join(setup.dir, 'edited'));
    expect(edited.records![5]!.max_price).toBe(888888);
    expect(bytesIn(edited.preparation.downloadsDir)).toEqual(expected.bytes);
    expect(hashes).toEqual(expected.hashes);
  });

  it('are begun only once the caller lets them (a build, as Astro renders)', async () => {
    const edit = (price: string) => {
      const lines = LISTING.split('\n');
      lines[8] = lines[8]!.replace(/^((?:[^,]*,){8})[^,]*/, `$1${price}`);
      return lines.join('\n');
    };
    setup.save(edit('9123123'));
    const held = recordsOnly(await prepareRecords({ ...setup.options, earlier: first.preparation.key }));
    setup.save(edit('9456456'));
    const other = recordsOnly(await prepareRecords({ ...setup.options, earlier: first.preparation.key }));
    setup.save(LISTING);
    let begin = () => undefined as unknown;
    const heldDownloads = withDownloads(held.preparation, ASSETS, undefined, new Promise<void>((resolve) => (begin = resolve))).downloads;
    // Another preparation's downloads, begun at once, written whole: a worker that had begun the held ones meanwhile would have made their folder.
    await withDownloads(other.preparation, ASSETS).downloads;
    const folders = () =>
      readdirSync(dirname(held.preparation.downloadsDir)).filter((name) => name.startsWith(basename(held.preparation.downloadsDir)));
    expect(folders()).toEqual([]);
    begin();
    expect((await heldDownloads).hashes).toEqual(fromScratch(readRecordFile(held.preparation.recordsFile), join(setup.dir, 'held')).hashes);
    expect(folders()).toEqual([basename(held.preparation.downloadsDir)]);
  });

  it('damaged, are said and written again (by one worker, however many ask): the bytes written from scratch', async () => {
    truncateSync(join(first.preparation.downloadsDir, 'all.csv'), 100);
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const again = await prepared(setup.options);
    expect(again.preparation.key).toBe(first.preparation.key);
    const [written, asked] = await Promise.all([again.preparation.downloads, withDownloads(again.preparation, ASSETS).downloads]);
    expect(said).toHaveBeenCalledWith(
      expect.stringMatching(/all\.csv is damaged \(its bytes are not those written and hashed\): made again, not used\.$/),
    );
    expect(said).toHaveBeenCalledTimes(1);
    const expected = fromScratch(first.records!, join(setup.dir, 'again'));
    expect(bytesIn(again.preparation.downloadsDir)).toEqual(expected.bytes);
    expect(written.hashes).toEqual(expected.hashes);
    expect(asked).toBe(written);
  });
});

describe("an edit's downloads on a listing of many index files", () => {
  // 2,000 rows: every list of the search index is many files, most without the edited rows.
  let setup: ReturnType<typeof project>;
  let listing: string;
  let first: Awaited<ReturnType<typeof prepared>>;
  beforeAll(async () => {
    const dir = tempDir('prepared-many');
    // No quotes: a row's fields are its commas' (the edits below replace the prices by position).
    await writeSyntheticCsv(join(dir, 'generated.csv'), 2_000, 20261127, { quote: 'none' });
    listing = readFileSync(join(dir, 'generated.csv'), 'utf8');
    rmSync(dir, { recursive: true, force: true });
    setup = project(listing);
    first = await prepared(setup.options);
    await first.preparation.downloads;
  });
  afterAll(() => rmSync(setup.dir, { recursive: true, force: true }));

  /** The listing with the prices of rows `lines` (1-based data lines) raised by `raise`. */
  const edited = (lines: readonly number[], raise: number) => {
    const text = listing.split('\n');
    for (const line of lines)
      text[line] = text[line]!.replace(/^((?:[^,]*,){7})([^,]*),([^,]*)/, (_, head: string, min: string, max: string) => {
        return `${head}${Number(min) + raise},${(Number(max) + raise).toFixed(2)}`;
      });
    return text.join('\n');
  };

  it('take the search index files the edit did not change from the earlier ones unread, and are the bytes written from scratch', async () => {
    setup.save(edited([5, 900], 1_000));
    const next = await prepared({ ...setup.options, earlier: first.preparation.key });
    const { hashes, unread } = await next.preparation.downloads;
    const expected = fromScratch(next.records!, join(setup.dir, 'scratch-edit'));
    expect(hashes).toEqual(expected.hashes);
    expect(unread.size).toBeGreaterThan(0.5 * Object.keys(hashes).length);
    for (const name of unread) {
      expect(statSync(join(next.preparation.downloadsDir, name)).ino, name).toBe(statSync(join(first.preparation.downloadsDir, name)).ino);
      expect(readFileSync(join(next.preparation.downloadsDir, name))).toEqual(
        readFileSync(join(setup.dir, 'scratch-edit', 'from-scratch', name)),
      );
    }
  });

  it('damaged through a file taken unread: removed with the earlier ones they share it with, and written anew from scratch', async () => {
    setup.save(edited([11], 3_000));
    const next = await prepared({ ...setup.options, earlier: first.preparation.key });
    const [taken] = (await next.preparation.downloads).unread;
    expect(taken).toBeDefined();
    // One inode: the earlier preparation's file is damaged too.
    writeFileSync(join(next.preparation.downloadsDir, taken!), 'damaged');
    removeDownloads(next.preparation.downloadsDir);
    expect(existsSync(next.preparation.downloadsDir)).toBe(false);
    expect(existsSync(first.preparation.downloadsDir)).toBe(false);
    const again = withDownloads(next.preparation, ASSETS);
    const written = await again.downloads;
    expect(written.hashes).toEqual(fromScratch(next.records!, join(setup.dir, 'scratch-damaged')).hashes);
    expect(written.unread.size).toBe(0);
    // The earlier preparation's downloads are written again when next asked for.
    await withDownloads(first.preparation, ASSETS).downloads;
  });

  it('write a file gone from the earlier index instead of taking it', async () => {
    // Rows 640 to 703 in listing order: the edit (the 7th row) is not in it, so it would be taken.
    const gone = '/search/order/listing/10.json';
    expect(Object.keys((await first.preparation.downloads).hashes)).toContain(gone);
    rmSync(join(first.preparation.downloadsDir, gone.slice(1)));
    setup.save(edited([7], 2_000));
    const next = await prepared({ ...setup.options, earlier: first.preparation.key });
    const written = await next.preparation.downloads;
    expect(written.hashes).toEqual(fromScratch(next.records!, join(setup.dir, 'scratch-gone')).hashes);
    expect(written.unread.has(gone.slice(1))).toBe(false);
  });
});
