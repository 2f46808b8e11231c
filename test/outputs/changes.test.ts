import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowChanges, rowChangesAt, type PublishedRecords } from '../../src/outputs/row-changes.ts';
import { shrinkRefusal } from '../../src/integration/refusals.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { carModel } from '../support/models.ts';

const ASSETS = 'https://assets.example.com';
const rows = (ids: number[]) => ids.map((id) => carModel(id, `豐田 Toyota ${id}`));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** Published records as a build's preparation holds them (logo as a path), in chunks of `size`. */
const published = (records: readonly CarModel[], size = 3): PublishedRecords => ({
  chunks: function* () {
    for (let start = 0; start < records.length; start += size) yield records.slice(start, start + size);
  },
  logoUrlOf: (record) => (record['logo'] === null ? null : `${ASSETS}/${String(record['logo'])}`),
});

describe('rowChanges', () => {
  it('names added, removed and changed rows, with the fields that changed, across chunks', () => {
    const before = rows(range(1, 8));
    const after = [
      carModel(9, '豐田 Toyota 9'),
      ...rows([2, 3]),
      carModel(5, '豐田 Toyota 5 (new name)', { max_price: 360000 }),
      ...rows([1, 6, 7]),
      carModel(8, '豐田 Toyota 8', { logo: null }),
    ];
    const { rows: changes, published: count } = rowChanges(published(before), after, ASSETS);
    expect(count).toBe(8);
    expect(changes.added).toEqual([9]);
    expect(changes.removed).toEqual([4]);
    // In the new file's order.
    expect(changes.changed).toEqual([
      { id: 5, fields: ['combined_car_model', 'max_price'] },
      { id: 8, fields: ['logo'] },
    ]);
  });

  it('compares logos as published URLs: the same path under another assets address changed', () => {
    const { rows: changes } = rowChanges(published(rows([1])), rows([1]), 'https://cdn.example.com');
    expect(changes.changed).toEqual([{ id: 1, fields: ['logo'] }]);
  });

  it('counts every row as added in a first build', () => {
    expect(rowChanges(undefined, rows([3, 1, 2]), ASSETS)).toEqual({
      rows: { added: [3, 1, 2], removed: [], changed: [] },
      published: 0,
      inPlace: false,
      changedPositions: [],
    });
  });
});

describe('rowChangesAt: an edit in place, read only at the rows validated again', () => {
  const edit = fc.record({ position: fc.nat(), field: fc.constantFrom('price', 'name', 'logo', 'id', 'same') });
  const slices = (records: readonly CarModel[]) => ({ slice: (start: number, end: number) => records.slice(start, end) });

  it('gives what rowChanges gives, or nothing where a row was replaced (its id changed) or rows were added or removed at the end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(edit, { maxLength: 6 }),
        fc.integer({ min: -2, max: 2 }),
        (count, edits, grown) => {
          const before = rows(range(1, count));
          const after = before.map((record) => ({ ...record }));
          const candidates = new Set<number>();
          for (const { position, field } of count === 0 ? [] : edits) {
            const at = position % count;
            const record = after[at]!;
            if (field === 'price') record.max_price += 1000;
            if (field === 'name') record.combined_car_model += ' II';
            if (field === 'logo') record.logo = record.logo === null ? 'media/x.svg' : null;
            if (field === 'id') record.id += 1000;
            // A row whose text changed but not its values (`1.0` for `1`): validated again, not changed.
            candidates.add(at);
          }
          const edited = grown < 0 ? after.slice(0, Math.max(count + grown, 0)) : [...after, ...rows(range(5000, 4999 + grown))];
          const whole = rowChanges(published(before), edited, ASSETS);
          // The rows added at the end are validated again too.
          for (let position = count; position < edited.length; position += 1) candidates.add(position);
          const at = rowChangesAt(
            { ...published(before), ...slices(before) },
            slices(edited),
            edited.length,
            [...candidates].sort((a, b) => a - b).filter((position) => position < edited.length),
            ASSETS,
          );
          const replaced = edits.some(({ field, position }) => count > 0 && field === 'id' && position % count < edited.length);
          if (replaced || edited.length !== count) expect(at).toBeUndefined();
          else expect(at).toEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('shrinkRefusal', () => {
  const refusalOf = (before: number[], after: number[]) => shrinkRefusal(rowChanges(published(rows(before)), rows(after), ASSETS), 'dist');

  it('lets a first build, or one over an empty listing, through', () => {
    expect(shrinkRefusal(rowChanges(undefined, [], ASSETS), 'dist')).toBeUndefined();
    expect(refusalOf([], [])).toBeUndefined();
  });

  it('allows removing up to 20 % of the published rows and refuses more, naming the counts and ALLOW_SHRINK=1', () => {
    expect(refusalOf(range(1, 10), range(3, 10))).toBeUndefined();
    expect(refusalOf(range(1, 10), range(4, 10))).toBe(
      'This build would remove 3 of the 10 published rows (30 %), more than 20 %: is the export cut short? ' +
        'Nothing was published: dist/ is unchanged. If those rows are really gone, build again with ALLOW_SHRINK=1.',
    );
  });

  it('counts removed ids, not the row count: a same-size file with other ids is refused', () => {
    expect(refusalOf(range(1, 10), range(11, 20))).toContain('remove 10 of the 10');
  });

  it('refuses an empty file over a published listing', () => {
    expect(refusalOf(range(1, 3), [])).toContain('remove 3 of the 3 published rows (100 %)');
  });
});
