import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowChanges, type PublishedRecords } from '../../src/outputs/row-changes.ts';
import { pageKeysOf, type EarlierKeys } from '../../src/listing/page-keys.ts';
import { listingInMemory, listingFrom, summaryOf, type ListingSummary } from '../../src/listing/summary.ts';
import { openRecordFile, writeRecordFile } from '../../src/data/records-file.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { CarModel } from '../../src/data/schema.ts';
import { carModel } from '../support/models.ts';

const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://img.example.com' };
const NAMES = [
  '豐田 Toyota Alphard',
  '豐田 Toyota Vellfire',
  '本田 Honda Civic',
  '特斯拉 Tesla Model 3',
  '特斯拉 Tesla Model Y',
  '凌志 Lexus RX',
];
const LOGOS = [null, 'media/brand/logo/toyota.svg', 'media/brand/logo/tesla.svg'];

const listing = (count: number) =>
  Array.from({ length: count }, (_, index) => carModel(index + 1, NAMES[index % NAMES.length]!, { logo: LOGOS[index % 3]! }));
/** The keys of `records` held in memory, as the data side has them where it validated now. */
const keysOf = (records: readonly CarModel[], earlier?: EarlierKeys) => pageKeysOf(listingInMemory(records), addresses, earlier);

const asPublished = (records: readonly CarModel[]): PublishedRecords => ({
  chunks: () => [records],
  logoUrlOf: (record) => (record['logo'] === null ? null : `${addresses.assetsUrl}/${String(record['logo'])}`),
});

/** An edit of one row in place: its price, its name (which may move the make filter's counts) or its logo. */
const edit = fc.record({
  position: fc.nat(),
  field: fc.constantFrom('price', 'name', 'logo'),
  choice: fc.nat({ max: 5 }),
});

describe('page keys after rows changed in place', () => {
  it('are the keys computed from scratch, whatever rows changed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 95 }), fc.array(edit, { maxLength: 6 }), (count, edits) => {
        const before = listing(count);
        const after = before.map((record) => ({ ...record }));
        for (const { position, field, choice } of edits) {
          const record = after[position % count]!;
          if (field === 'price') record.max_price += 1000 * (choice + 1);
          if (field === 'name') record.combined_car_model = NAMES[choice]!;
          if (field === 'logo') record.logo = LOGOS[choice % 3]!;
        }
        const comparison = rowChanges(asPublished(before), after, addresses.assetsUrl);
        expect(comparison.inPlace).toBe(true);
        const earlier = { keys: keysOf(before), changedPositions: comparison.changedPositions };
        expect(keysOf(after, earlier)).toEqual(keysOf(after));
      }),
      { numRuns: 300 },
    );
  });

  it('are not taken from an earlier build when rows were added, removed or moved', () => {
    const before = listing(30);
    const moved = [before[1]!, before[0]!, ...before.slice(2)];
    for (const after of [[...before, carModel(99, '本田 Honda Jazz')], before.slice(1), moved]) {
      expect(rowChanges(asPublished(before), after, addresses.assetsUrl).inPlace).toBe(false);
    }
    // An earlier build of another size: its keys are not used.
    const earlier = { keys: keysOf(before), changedPositions: [] };
    expect(keysOf(before.slice(0, 29), earlier)).toEqual(keysOf(before.slice(0, 29)));
  });

  it('are the same read from a records file and its summary as from the records in memory', () => {
    const records = listing(20_095);
    const file = join(mkdtempSync(join(tmpdir(), 'page-keys-')), 'records.v8');
    writeRecordFile(file, records);
    const opened = openRecordFile(file);
    try {
      const fromFile = listingFrom(opened, deserialize(serialize(summaryOf(records))) as ListingSummary);
      expect(pageKeysOf(fromFile, addresses)).toEqual(keysOf(records));
    } finally {
      opened.close();
      rmSync(dirname(file), { recursive: true });
    }
  });
});
