import { describe, expect, it } from 'vitest';
import { shrinkRefusal } from '../../src/lib/changes.ts';
import { carModel } from '../support/models.ts';

/** The published records by id, as `publishedRecords` reads them from a site's all.json. */
const published = (count: number) => new Map(Array.from({ length: count }, (_, index) => [index + 1, { id: index + 1 }]));
const rows = (ids: number[]) => ids.map((id) => carModel(id, `豐田 Toyota ${id}`));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('shrinkRefusal', () => {
  it('lets a first build, or one over an empty listing, through', () => {
    expect(shrinkRefusal(undefined, [], 'dist')).toBeUndefined();
    expect(shrinkRefusal(published(0), [], 'dist')).toBeUndefined();
  });

  it('allows removing up to 20 % of the published rows and refuses more, naming the counts and ALLOW_SHRINK=1', () => {
    expect(shrinkRefusal(published(10), rows(range(3, 10)), 'dist')).toBeUndefined();
    expect(shrinkRefusal(published(10), rows(range(4, 10)), 'dist')).toBe(
      'This build would remove 3 of the 10 published rows (30 %), more than 20 %: is the export cut short? ' +
        'Nothing was built; dist/ is unchanged. If those rows are really gone, build again with ALLOW_SHRINK=1.',
    );
  });

  it('counts removed ids, not the row count: a same-size file with other ids is refused', () => {
    expect(shrinkRefusal(published(10), rows(range(11, 20)), 'dist')).toContain('remove 10 of the 10');
  });

  it('refuses an empty file over a published listing', () => {
    expect(shrinkRefusal(published(3), [], 'dist')).toContain('remove 3 of the 3 published rows (100 %)');
  });
});
