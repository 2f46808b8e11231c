import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DOWNLOADS } from '../../src/outputs/downloads.ts';
import { writeDownloadFiles, type EarlierDownloads } from '../../src/outputs/downloads.ts';
import { allCsv, allJson } from '../../src/listing/export.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { textOf } from '../support/downloads.ts';
import { carModel } from '../support/models.ts';

const ASSETS = 'https://img.example.com';
const NAMES = [
  '豐田 Toyota Alphard',
  '豐田 Toyota Vellfire',
  '本田 Honda Civic',
  '特斯拉 Tesla Model 3',
  '凌志 Lexus RX',
  '"Quoted", Name',
];
const LOGOS = [null, 'media/brand/logo/toyota.svg', 'media/brand/logo/tesla.svg'];
const listing = (count: number) =>
  Array.from({ length: count }, (_, index) => carModel(index + 1, NAMES[index % 5]!, { logo: LOGOS[index % 3]! }));

/** Every folder the tests write downloads into is in this one, removed after the file (a property runs hundreds). */
const downloadsRoot = mkdtempSync(join(tmpdir(), 'downloads-test-'));
afterAll(() => rmSync(downloadsRoot, { recursive: true, force: true }));
const newFolder = () => mkdtempSync(join(downloadsRoot, 'downloads-'));

/** Small chunks, so that runs of unchanged rows cross chunk boundaries. */
function* chunksOf(records: readonly CarModel[], size: number): Generator<readonly CarModel[]> {
  for (let start = 0; start < records.length; start += size) yield records.slice(start, start + size);
}

/** The downloads of `records` in a new folder: their text by URL path, their hashes, the folder. */
function written(records: readonly CarModel[], earlier?: EarlierDownloads, assetsUrl = ASSETS, chunk = 7) {
  const dir = newFolder();
  const hashes = writeDownloadFiles(
    dir,
    { chunks: () => chunksOf(records, chunk), slice: (start, end) => records.slice(start, end) },
    assetsUrl,
    earlier,
  ).downloads;
  const texts = Object.fromEntries(DOWNLOADS.map((path) => [path, readFileSync(join(dir, path.slice(1)), 'utf8')]));
  return { dir, hashes, texts };
}

/** Positions whose record is not the earlier one at that position. */
const changedPositions = (before: readonly CarModel[], after: readonly CarModel[]) =>
  after.flatMap((record, index) => (JSON.stringify(record) === JSON.stringify(before[index]) ? [] : [index]));

/** Where as many rows as before, the fields in which any differs from the earlier row at its position (as edit.ts says). */
const changedFieldsOf = (before: readonly CarModel[], after: readonly CarModel[]) =>
  after.length !== before.length
    ? undefined
    : [
        ...new Set(
          after.flatMap((record, index) =>
            Object.keys(record).filter(
              (field) => JSON.stringify(record[field as keyof CarModel]) !== JSON.stringify(before[index]![field as keyof CarModel]),
            ),
          ),
        ),
      ];

const edit = fc.record({
  position: fc.nat(),
  field: fc.constantFrom('price', 'name', 'logo'),
  choice: fc.nat({ max: 5 }),
});

describe('downloads written from scratch', () => {
  it('are each text by its definition, across the chunks they are written in', () => {
    for (const count of [0, 1, 7, 30]) {
      const records = listing(count);
      expect(written(records).texts).toEqual({
        '/all.json': textOf(allJson(ASSETS), records),
        '/all.csv': textOf(allCsv, records),
      });
    }
  });
});

describe('downloads written again after an edit', () => {
  it('are the bytes of downloads written from scratch, whatever changed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.array(edit, { maxLength: 6 }),
        fc.integer({ min: -8, max: 8 }),
        (count, edits, grow) => {
          const before = listing(count);
          const after = before.map((record) => ({ ...record }));
          for (const { position, field, choice } of edits) {
            const record = after[position % Math.max(1, count)];
            if (!record) continue;
            if (field === 'price') record.max_price += 1000 * (choice + 1);
            if (field === 'name') record.combined_car_model = NAMES[choice]!;
            if (field === 'logo') record.logo = LOGOS[choice % 3]!;
          }
          const resized = grow >= 0 ? [...after, ...listing(count + grow).slice(count)] : after.slice(0, Math.max(0, count + grow));
          const earlier = written(before);
          const fresh = written(resized);
          const changed = changedPositions(before, resized);
          const again = written(resized, { dir: earlier.dir, changed });
          expect(again.texts).toEqual(fresh.texts);
          expect(again.hashes).toEqual(fresh.hashes);
          // Told which fields changed, as an edit in place is: only the changed rows read.
          const patched = written(resized, { dir: earlier.dir, changed, changedFields: changedFieldsOf(before, resized) });
          expect(patched.texts).toEqual(fresh.texts);
          expect(patched.hashes).toEqual(fresh.hashes);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('copy the bytes of unchanged rows from the earlier downloads instead of making them again', () => {
    const records = listing(30);
    const earlier = written(records);
    // The earlier all.json marked where row 12 is (same length): a copy keeps the mark, a row made again would not.
    const file = join(earlier.dir, 'all.json');
    const marked = readFileSync(file, 'utf8').replace('"id":12,', '"id":99,');
    writeFileSync(file, marked);
    expect(written(records, { dir: earlier.dir, changed: [3] }).texts['/all.json']).toBe(marked);
    // Row 12 (position 11) changed: made again.
    expect(written(records, { dir: earlier.dir, changed: [11] }).texts['/all.json']).toContain('"id":12,');
  });

  it('read only the changed rows where an edit changed rows in place', () => {
    const before = listing(30);
    const after = before.map((record, index) => (index === 4 || index === 17 ? { ...record, max_price: record.max_price + 1000 } : record));
    const earlier = written(before);
    const dir = newFolder();
    const read: number[] = [];
    const source = {
      chunks: () => {
        throw new Error('the whole listing was read');
      },
      slice: (start: number, end: number) => {
        read.push(start);
        return after.slice(start, end);
      },
    };
    const hashes = writeDownloadFiles(dir, source, ASSETS, { dir: earlier.dir, changed: [4, 17], changedFields: ['max_price'] }).downloads;
    expect(read).toEqual([4, 17]);
    expect(hashes).toEqual(written(after).hashes);
    // A row added or removed: the whole listing is read.
    expect(() => writeDownloadFiles(newFolder(), source, ASSETS, { dir: earlier.dir, changed: [4] })).toThrow('the whole listing was read');
  });

  it('after an edit of every price, are the bytes written from scratch (the changed rows written in batches)', () => {
    const before = listing(2500);
    const after = before.map((record) => ({ ...record, min_price: record.min_price + 1, max_price: record.max_price + 1 }));
    const earlier = written(before);
    const all = after.map((_, position) => position);
    expect(written(after, { dir: earlier.dir, changed: all, changedFields: ['min_price', 'max_price'] }).texts).toEqual(
      written(after).texts,
    );
  });

  it('are written from scratch when the assets address changed', () => {
    const records = listing(20);
    const earlier = written(records);
    const elsewhere = 'https://cdn.example.org/logos';
    expect(written(records, { dir: earlier.dir, changed: [] }, elsewhere).texts).toEqual(written(records, undefined, elsewhere).texts);
  });
});
