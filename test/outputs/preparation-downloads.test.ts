/**
 * A preparation's downloads (src/outputs/preparation.ts), written by the worker thread into
 * a real cache folder: their bytes are those written from scratch from the same records (after an
 * edit too, where unchanged rows' bytes are copied from the earlier downloads), their hashes the
 * manifest's; whole, they are taken again as they are; damaged, they are said and written again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inChunks, readRecordFile } from '../../src/data/records-file.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { DOWNLOADS, writeDownloadFiles } from '../../src/outputs/downloads.ts';
import { writeSearchFiles } from '../../src/outputs/search-files.ts';
import { prepareData, withDownloads, type PreparationWithDownloads } from '../../src/outputs/preparation.ts';
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

function prepared(result: PreparationResult<PreparationWithDownloads>) {
  if ('problems' in result) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result;
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
  let first: ReturnType<typeof prepared>;
  let firstHashes: Record<string, string>;
  beforeAll(async () => {
    setup = project(LISTING);
    first = prepared(await prepareData(setup.options));
    firstHashes = await first.preparation.downloads;
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
    const again = prepared(await prepareData(setup.options));
    expect(again.preparation.validated).toBe(false);
    expect(await again.preparation.downloads).toEqual(firstHashes);
    expect(stamps()).toEqual(before);
  });

  it('after an edit, copying the unchanged rows from the earlier ones, are the bytes written from scratch', async () => {
    const lines = LISTING.split('\n');
    lines[6] = lines[6]!.replace(/^((?:[^,]*,){8})[^,]*/, '$1888888');
    setup.save(lines.join('\n'));
    const edited = prepared(await prepareData({ ...setup.options, earlier: first.preparation.key }));
    setup.save(LISTING);
    const hashes = await edited.preparation.downloads;
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
    expect(await heldDownloads).toEqual(fromScratch(readRecordFile(held.preparation.recordsFile), join(setup.dir, 'held')).hashes);
    expect(folders()).toEqual([basename(held.preparation.downloadsDir)]);
  });

  it('damaged, are said and written again (by one worker, however many ask): the bytes written from scratch', async () => {
    truncateSync(join(first.preparation.downloadsDir, 'all.csv'), 100);
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const again = prepared(await prepareData(setup.options));
    expect(again.preparation.key).toBe(first.preparation.key);
    const [hashes, asked] = await Promise.all([again.preparation.downloads, withDownloads(again.preparation, ASSETS).downloads]);
    expect(said).toHaveBeenCalledWith(
      expect.stringMatching(/all\.csv is damaged \(its bytes are not those written and hashed\): made again, not used\.$/),
    );
    expect(said).toHaveBeenCalledTimes(1);
    const expected = fromScratch(first.records!, join(setup.dir, 'again'));
    expect(bytesIn(again.preparation.downloadsDir)).toEqual(expected.bytes);
    expect(hashes).toEqual(expected.hashes);
    expect(asked).toEqual(hashes);
  });
});
