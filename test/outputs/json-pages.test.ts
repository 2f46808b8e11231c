/**
 * The API's page files written by the outputs stage (src/outputs/json-pages.ts): read a chunk at a
 * time, whatever the chunks' size, each file is the serialiser's page to the byte, hashed as it is
 * written; a file already there is never written through, but for the pages named the folder's
 * own (written in place); where every page is written, every
 * page's keys made as they are, equal to those made from the listing.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { serialize } from 'node:v8';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CarModel } from '../../src/data/schema.ts';
import { keysOfListing, pageKeysOf } from '../../src/listing/page-keys.ts';
import { pageCount } from '../../src/listing/pagination.ts';
import { pageFile } from '../../src/listing/routes.ts';
import { serialisePage } from '../../src/listing/serialise.ts';
import { listingInMemory, summaryOf } from '../../src/listing/summary.ts';
import { keysOfSummary, writeJsonPages } from '../../src/outputs/json-pages.ts';

const root = mkdtempSync(join(tmpdir(), 'json-pages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://img.example.com' };

const model = (id: number): CarModel => ({
  id,
  combined_car_model: `Model ${id}`,
  combined_car_model_unique_id: id,
  min_seat: 2,
  max_seat: 5,
  min_engine_size: 1000,
  max_engine_size: 2000,
  min_price: 1000 + id,
  max_price: 2000 + id,
  has_operation_type_auto: true,
  has_operation_type_hand: id % 2 === 0,
  capture_combined_car_model_yearly_unique_id: id,
  logo: id % 3 === 0 ? null : `logos/${id}.svg`,
});

function* chunksOf(records: readonly CarModel[], size: number) {
  for (let start = 0; start < records.length; start += size) yield records.slice(start, start + size);
}

let run = 0;
async function written(records: readonly CarModel[], pages: number[], chunkSize: number) {
  const site = join(root, `site-${(run += 1)}`);
  const { hashes } = writeJsonPages({
    siteDir: site,
    listing: { count: records.length, chunks: () => chunksOf(records, chunkSize) },
    pages,
    addresses,
  });
  return { site, hashes };
}

describe('writeJsonPages', () => {
  const records = Array.from({ length: 237 }, (_, index) => model(index + 1));
  const every = Array.from({ length: pageCount(records.length) }, (_, index) => index + 1);

  for (const chunkSize of [10_000, 100, 7, 1]) {
    it(`writes each page the serialiser's bytes, read ${chunkSize} record(s) at a time, and hashes them`, async () => {
      for (const pages of [every, [1, 5, 24], [24], [2, 3]]) {
        const { site, hashes } = await written(records, pages, chunkSize);
        expect([...hashes.keys()]).toEqual(pages);
        for (const page of pages) {
          const bytes = readFileSync(join(site, pageFile(page)));
          expect(bytes.toString('utf8')).toBe(serialisePage(records, page, addresses));
          expect(hashes.get(page)).toBe(createHash('sha256').update(bytes).digest('hex'));
        }
      }
    });
  }

  it('reads only the records of the pages it writes where the listing is read by position and not every page is written', async () => {
    for (const pages of [[1, 5, 24], [24], [2, 3]]) {
      const site = join(root, `sliced-${(run += 1)}`);
      const asked: [number, number][] = [];
      const listing = {
        count: records.length,
        chunks: () => {
          throw new Error('read whole');
        },
        slice: (start: number, end: number) => (asked.push([start, end]), records.slice(start, end)),
      };
      const { hashes } = writeJsonPages({ siteDir: site, listing, pages, addresses });
      expect(asked).toEqual(pages.map((page) => [(page - 1) * 10, Math.min(page * 10, records.length)]));
      for (const page of pages) {
        const bytes = readFileSync(join(site, pageFile(page)));
        expect(bytes.toString('utf8')).toBe(serialisePage(records, page, addresses));
        expect(hashes.get(page)).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
    }
  });

  it("makes every page's keys as it writes every page, the keys pageKeysOf makes from the listing", async () => {
    for (const listed of [records, records.slice(0, 10), []]) {
      for (const chunkSize of [1000, 7]) {
        const listing = listingInMemory(listed);
        const pages = Array.from({ length: pageCount(listed.length) }, (_, index) => index + 1);
        const site = join(root, `keys-${(run += 1)}`);
        const { keys } = writeJsonPages({
          siteDir: site,
          listing: { count: listed.length, chunks: () => chunksOf(listed, chunkSize) },
          pages,
          addresses,
          keysOf: keysOfListing(listing, addresses),
        });
        expect(keys).toEqual(pageKeysOf(listing, addresses));
      }
    }
    // As a build makes them: from the preparation's summary file, not the records in memory.
    const summaryFile = join(root, 'summary.v8');
    writeFileSync(summaryFile, serialize(summaryOf(records)));
    const fromSummary = writeJsonPages({
      siteDir: join(root, 'keys-of-summary'),
      listing: { count: records.length, chunks: () => chunksOf(records, 50) },
      pages: every,
      addresses,
      keysOf: keysOfSummary(summaryFile, addresses),
    });
    expect(fromSummary.keys).toEqual(pageKeysOf(listingInMemory(records), addresses));
    // Keys are made of every page or of none.
    const listing = listingInMemory(records);
    expect(() =>
      writeJsonPages({
        siteDir: join(root, 'some-keys'),
        listing: { count: records.length, chunks: () => chunksOf(records, 50) },
        pages: [1, 2],
        addresses,
        keysOf: keysOfListing(listing, addresses),
      }),
    ).toThrow(/every page/);
  });

  it("is the published site's file where that has the page's bytes (by its manifest's hash), and writes it anew where not", async () => {
    const { site: publishedSite, hashes: publishedHashes } = await written(records, every, 50);
    const edited = records.map((record) => (record.id === 42 ? { ...record, max_price: record.max_price + 1 } : record));
    // Page 3 was lost from the published site: written, not a failure. Page 4's published hash is of other bytes.
    rmSync(join(publishedSite, pageFile(3)));
    const sha256 = every.map((page) => (page === 4 ? '0'.repeat(64) : publishedHashes.get(page)));
    const site = join(root, `linked-${(run += 1)}`);
    const { hashes } = writeJsonPages({
      siteDir: site,
      listing: { count: edited.length, chunks: () => chunksOf(edited, 50) },
      pages: every,
      addresses,
      published: { siteDir: publishedSite, sha256 },
    });
    const sameFile = (page: number) =>
      statSync(join(site, pageFile(page))).ino === statSync(join(publishedSite, pageFile(page)), { throwIfNoEntry: false })?.ino;
    // Page 5 holds record 42, which changed; 3 is gone from the published site; 4's bytes are said to differ.
    expect(every.filter((page) => !sameFile(page))).toEqual([3, 4, 5]);
    for (const page of every) {
      const bytes = readFileSync(join(site, pageFile(page)));
      expect(bytes.toString('utf8')).toBe(serialisePage(edited, page, addresses));
      expect(hashes.get(page)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    // A file already there is never written through, nor replaced by the published one.
    expect(() =>
      writeJsonPages({
        siteDir: site,
        listing: { count: edited.length, chunks: () => chunksOf(edited, 50) },
        pages: [1],
        addresses,
        published: { siteDir: publishedSite, sha256: [publishedHashes.get(1)] },
      }),
    ).toThrow(/EEXIST/);
  });

  it('writes the one page of an empty listing', async () => {
    const { site } = await written([], [1], 10);
    expect(readFileSync(join(site, pageFile(1)), 'utf8')).toBe(serialisePage([], 1, addresses));
  });

  it('never writes through a file already there (it may be a published file)', async () => {
    const site = join(root, 'taken');
    mkdirSync(join(site, pageFile(2), '..'), { recursive: true });
    writeFileSync(join(site, pageFile(2)), 'published');
    expect(() =>
      writeJsonPages({ siteDir: site, listing: { count: records.length, chunks: () => chunksOf(records, 50) }, pages: [2], addresses }),
    ).toThrow(/EEXIST/);
    expect(readFileSync(join(site, pageFile(2)), 'utf8')).toBe('published');
  });
});
