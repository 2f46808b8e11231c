import { describe, expect, it } from 'vitest';
import { keptHistory, liveChanges, type LiveSite } from '../../src/ci/live-changes.ts';
import type { RowComparison } from '../../src/outputs/row-changes.ts';

const hash = (text: string) => text.padEnd(64, '0');
const entry = (id: string) => ({ buildId: id, previousBuildId: null, builtAt: '2026-01-01T00:00:00.000Z', file: `history/${id}.json` });
const manifest = (files: Record<string, string>, extra: Partial<LiveSite['manifest']> = {}): LiveSite['manifest'] => ({
  buildId: 'a-1',
  builtAt: '2026-01-01T00:00:00.000Z',
  changedBy: 'a-1',
  count: 20,
  pageCount: 2,
  pageSize: 10,
  baseUrl: 'https://cars.example.com',
  assetsUrl: 'https://img.example.com',
  data: { file: 'data/cars.csv', sha256: hash('d') },
  files,
  ...extra,
});
const sameRows: RowComparison = { rows: { added: [], removed: [], changed: [] }, published: 20, inPlace: true, changedPositions: [] };

describe('what publishing a build over the live site changes', () => {
  const liveFiles = {
    'all.csv': hash('1'),
    'index.html': hash('2'),
    'changes.json': hash('3'),
    'history/a-1.json': hash('4'),
    'history/a-0.json': hash('5'),
  };
  const live: LiveSite = { manifest: manifest(liveFiles), history: [entry('a-1'), entry('a-0')] };

  it('is a new manifest.json alone where no file the site serves changes, whatever the build says of its own history', () => {
    const built = {
      ...manifest({ 'all.csv': hash('1'), 'index.html': hash('2'), 'changes.json': hash('9'), 'history/b-1.json': hash('8') }),
      buildId: 'b-1',
    };
    const changes = liveChanges(live, built, sameRows, 30);
    expect(changes).toMatchObject({
      unchanged: true,
      files: { changed: [], removed: [] },
      urls: ['https://cars.example.com/manifest.json'],
      shrinks: false,
    });
  });

  it('adds its change document, carries the history, and prunes the oldest where the history is full', () => {
    const built = { ...manifest({ 'all.csv': hash('7'), 'index.html': hash('2') }), buildId: 'b-1' };
    expect(liveChanges(live, built, sameRows, 30).files).toEqual({ changed: ['all.csv', 'changes.json', 'history/b-1.json'], removed: [] });
    expect(liveChanges(live, built, sameRows, 2).files).toEqual({
      changed: ['all.csv', 'changes.json', 'history/b-1.json'],
      removed: ['history/a-0.json'],
    });
    expect(liveChanges(live, built, sameRows, 1).files.removed).toEqual(['history/a-0.json', 'history/a-1.json']);
    expect(liveChanges(live, built, sameRows, 30).urls).toEqual([
      'https://cars.example.com/all.csv',
      'https://cars.example.com/changes.json',
      'https://cars.example.com/history/b-1.json',
      'https://cars.example.com/manifest.json',
    ]);
  });

  it('keeps the history up to the first document the site does not serve', () => {
    expect(
      keptHistory([entry('a-2'), entry('a-1'), entry('a-0')], { 'history/a-2.json': hash('1'), 'history/a-0.json': hash('2') }),
    ).toEqual([entry('a-2')]);
  });

  it("says the guard's verdict and addresses that differ from the live site's", () => {
    const built = { ...manifest({ 'all.csv': hash('7') }, { baseUrl: 'https://other.example.com' }), buildId: 'b-1' };
    const shrinking = { ...sameRows, rows: { added: [], removed: [1, 2, 3, 4, 5], changed: [] } };
    expect(liveChanges(live, built, shrinking, 30)).toMatchObject({ shrinks: true, otherAddresses: ['BASE_URL'] });
    expect(liveChanges(live, built, { ...shrinking, rows: { ...shrinking.rows, removed: [1, 2, 3, 4] } }, 30).shrinks).toBe(false);
  });
});
