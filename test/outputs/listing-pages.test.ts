/**
 * The listing's page files written by the outputs stage (src/outputs/listing-pages.ts), in one pass
 * over the prepared records: each JSON page the serialiser's bytes, each HTML page the frame of its
 * language with the page's own parts in it, each hashed as it is written; only the pages flagged; a
 * file already there never written through; the published file linked where it has the bytes;
 * every page's keys made where asked, equal to those made from the listing; and the same pages
 * whether one thread writes them or several.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRecordFile } from '../../src/data/records-file.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { LANGUAGES, type Language } from '../../src/listing/languages.ts';
import { listingPageParts } from '../../src/listing/listing-page.ts';
import { makeTable } from '../../src/listing/makes.ts';
import { FRAME_MARKERS, frameOf, pageInPieces } from '../../src/listing/page-frame.ts';
import { pageKeysOf } from '../../src/listing/page-keys.ts';
import { pageCount, pageSlice } from '../../src/listing/pagination.ts';
import { htmlPageFile, pageFile } from '../../src/listing/routes.ts';
import { pageAssetsUrl, serialisePage } from '../../src/listing/serialise.ts';
import { listingInMemory, summaryOf } from '../../src/listing/summary.ts';
import { startListingPages, writeListingPages, type ListingPagesInput, type PageFlags } from '../../src/outputs/listing-pages.ts';

const root = mkdtempSync(join(tmpdir(), 'listing-pages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://img.example.com' };
const frames = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    `<!DOCTYPE html><html lang="${language}"><head>${FRAME_MARKERS.head}</head><body>${FRAME_MARKERS.languageSwitch}<h1>${FRAME_MARKERS.pageOf}</h1><form>search</form><section>${FRAME_MARKERS.listing}</section></body></html>`,
  ]),
) as Record<Language, string>;

const model = (id: number): CarModel => ({
  id,
  combined_car_model: id % 4 === 0 ? `豐田 Toyota "R&D" <${id}> 🚗` : `Model ${id}`,
  combined_car_model_unique_id: id,
  min_seat: 2,
  max_seat: 2 + (id % 4),
  min_engine_size: id % 5 === 0 ? 0 : 1000,
  max_engine_size: 2000,
  min_price: 1000 + id,
  max_price: 2000 + id,
  has_operation_type_auto: true,
  has_operation_type_hand: id % 2 === 0,
  capture_combined_car_model_yearly_unique_id: id,
  logo: id % 3 === 0 ? null : `logos/${id}.svg`,
});

let run = 0;
/** A preparation's files for `records`, as the writer reads them. */
function prepared(records: readonly CarModel[]) {
  const dir = join(root, `prepared-${(run += 1)}`);
  mkdirSync(dir);
  const recordsFile = join(dir, 'records.v8');
  const summaryFile = join(dir, 'summary.v8');
  writeRecordFile(recordsFile, records);
  writeFileSync(summaryFile, serialize(summaryOf(records)));
  return { recordsFile, summaryFile };
}

const flagsOf = (pages: number, json: number[], html: number[]): PageFlags => {
  const flags = { json: new Uint8Array(pages), html: new Uint8Array(pages) };
  for (const page of json) flags.json[page - 1] = 1;
  for (const page of html) flags.html[page - 1] = 1;
  return flags;
};

/** The HTML page of `records` the writer must write: the frame with the parts the components render. */
function expectedHtml(records: readonly CarModel[], page: number, language: Language): string {
  const table = makeTable(records);
  const parts = listingPageParts({
    page,
    count: records.length,
    models: pageSlice(records, page),
    makeOf: (each) => table.makeOf(each).latin,
    assetsUrl: pageAssetsUrl(addresses),
    site: new URL(addresses.baseUrl),
    language,
  });
  return pageInPieces(frameOf(frames[language]), parts, (part) => part).join('');
}

function input(records: readonly CarModel[], flags: PageFlags, siteDir = join(root, `site-${(run += 1)}`)): ListingPagesInput {
  return { siteDir, ...prepared(records), addresses, flags, frames, from: 1, to: flags.json.length + 1, makeKeys: false };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('writeListingPages', () => {
  const records = Array.from({ length: 237 }, (_, index) => model(index + 1));
  const pages = pageCount(records.length);
  const every = Array.from({ length: pages }, (_, index) => index + 1);

  it("writes the flagged pages: JSON the serialiser's bytes, HTML the frame with the page's parts, in each language, each hashed", () => {
    for (const [json, html] of [
      [every, every],
      [
        [1, 5, 24],
        [2, 24],
      ],
      [[], [24]],
      [[3], []],
    ]) {
      const given = input(records, flagsOf(pages, json!, html!));
      const { hashes, bytes } = writeListingPages(given);
      expect(bytes).toBe(hashes.reduce((sum, [path]) => sum + statSync(join(given.siteDir, path)).size, 0));
      const files = [
        ...json!.map((page) => pageFile(page)),
        ...html!.flatMap((page) => LANGUAGES.map((language) => htmlPageFile(page, language))),
      ];
      expect(hashes.map(([path]) => path).sort()).toEqual(files.sort());
      for (const [path, hash] of hashes) expect(sha256(readFileSync(join(given.siteDir, path))), path).toBe(hash);
      for (const page of json!)
        expect(readFileSync(join(given.siteDir, pageFile(page)), 'utf8')).toBe(serialisePage(records, page, addresses));
      for (const page of html!)
        for (const language of LANGUAGES)
          expect(readFileSync(join(given.siteDir, htmlPageFile(page, language)), 'utf8')).toBe(expectedHtml(records, page, language));
    }
  });

  it('writes the one page of an empty listing', () => {
    const given = input([], flagsOf(1, [1], [1]));
    writeListingPages(given);
    expect(readFileSync(join(given.siteDir, pageFile(1)), 'utf8')).toBe(serialisePage([], 1, addresses));
    for (const language of LANGUAGES)
      expect(readFileSync(join(given.siteDir, htmlPageFile(1, language)), 'utf8')).toBe(expectedHtml([], 1, language));
  });

  it("makes every page's keys as it writes every page, the keys pageKeysOf makes from the listing", () => {
    for (const listed of [records, records.slice(0, 10), []]) {
      const count = pageCount(listed.length);
      const all = Array.from({ length: count }, (_, index) => index + 1);
      const { keys } = writeListingPages({ ...input(listed, flagsOf(count, all, all)), makeKeys: true });
      expect(keys).toEqual(pageKeysOf(listingInMemory(listed), addresses));
    }
  });

  it("is the published site's file where that has the page's bytes (by its manifest's hash), and writes it anew where not", () => {
    const published = input(records, flagsOf(pages, every, every));
    const publishedHashes = Object.fromEntries(writeListingPages(published).hashes);
    const edited = records.map((record) => (record.id === 42 ? { ...record, max_price: record.max_price + 1 } : record));
    // Page 3 was lost from the published site: written, not a failure. Page 4's published hash is of other bytes.
    rmSync(join(published.siteDir, pageFile(3)));
    const sha256s = { ...publishedHashes, [pageFile(4)]: '0'.repeat(64) };
    const given = { ...input(edited, flagsOf(pages, every, every)), published: { siteDir: published.siteDir, sha256: sha256s } };
    writeListingPages(given);
    const sameFile = (path: string) =>
      statSync(join(given.siteDir, path)).ino === statSync(join(published.siteDir, path), { throwIfNoEntry: false })?.ino;
    // Page 5 holds record 42, which changed; 3 is gone from the published site; 4's bytes are said to differ.
    expect(every.filter((page) => !sameFile(pageFile(page)))).toEqual([3, 4, 5]);
    expect(every.filter((page) => !sameFile(htmlPageFile(page, 'zh-hk')))).toEqual([5]);
    for (const page of every)
      expect(readFileSync(join(given.siteDir, pageFile(page)), 'utf8')).toBe(serialisePage(edited, page, addresses));
  });

  it('never writes through a file already there (it may be a published file)', () => {
    const given = input(records, flagsOf(pages, [], [2]));
    mkdirSync(join(given.siteDir, htmlPageFile(2, 'en'), '..'), { recursive: true });
    writeFileSync(join(given.siteDir, htmlPageFile(2, 'en')), 'published');
    expect(() => writeListingPages(given)).toThrow(/EEXIST/);
    expect(readFileSync(join(given.siteDir, htmlPageFile(2, 'en')), 'utf8')).toBe('published');
  });
});

describe('startListingPages', () => {
  it('writes on several threads where there are pages enough, the same files and keys as one writer', async () => {
    const records = Array.from({ length: 14_000 }, (_, index) => model(index + 1));
    const pages = pageCount(records.length);
    const all = Array.from({ length: pages }, (_, index) => index + 1);
    const { from: _from, to: _to, ...given } = { ...input(records, flagsOf(pages, all, all)), makeKeys: true };
    const run = startListingPages(given);
    // 4,200 files: two threads, where there are two cores.
    expect(run.threads).toBe(Math.min(availableParallelism(), 2));
    const { hashes, keys } = await run.written;
    expect(run.progress()).toBe(pages);
    expect(hashes.size).toBe(pages * (1 + LANGUAGES.length));
    expect(keys).toEqual(pageKeysOf(listingInMemory(records), addresses));
    for (const page of [1, 700, pages])
      for (const language of LANGUAGES)
        expect(readFileSync(join(given.siteDir, htmlPageFile(page, language)), 'utf8')).toBe(expectedHtml(records, page, language));
  });
});
