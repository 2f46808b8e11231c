/**
 * A published `all.json` read a chunk at a time (src/outputs/row-changes.ts): the rows a build
 * compares with where the published build's own records are no longer cached. The file is the
 * serialiser's; the reader must give exactly what `JSON.parse` of the whole file gives, wherever a
 * block of the file ends, and say what is wrong with a damaged one as before.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { allJson } from '../../src/listing/export.ts';
import { allJsonChunks, publishedRecords, rowChanges, UnreadablePublishedRows } from '../../src/outputs/row-changes.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { carModel } from '../support/models.ts';

const ASSETS = 'https://assets.example.com/static';
const dir = mkdtempSync(join(tmpdir(), 'published-all-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Names whose bytes hold every character the reader looks for, inside strings. */
const AWKWARD = [
  '平治 Mercedes-Benz {C}',
  '"Quoted", [Name]',
  'Back\\slash\\',
  'Ends in a quote\\"',
  '🚗 萬事得 Mazda ]}',
  'Tab\tand\nline',
];
const records = (count: number): CarModel[] =>
  Array.from({ length: count }, (_, index) =>
    carModel(index + 1, `${AWKWARD[index % AWKWARD.length]!} ${index}`, { logo: index % 4 === 0 ? null : `media/brand/logo/${index}.svg` }),
  );

/** `records` as the build writes `all.json`, in a file; returns its path. */
function written(name: string, list: readonly CarModel[]): string {
  const text = allJson(ASSETS);
  const file = join(dir, name);
  writeFileSync(file, `${text.start}${list.map(text.record).join(text.separator)}${text.end}`);
  return file;
}

const read = (file: string, blockBytes?: number) => [...allJsonChunks(file, 'dist/all.json', blockBytes)];
const parsedWhole = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown[];

describe('a published all.json, a chunk at a time', () => {
  it('gives what JSON.parse of the whole file gives, in chunks of 10,000, across blocks of 4 MiB', () => {
    const file = written('large.json', records(25_001));
    expect(statSync(file).size).toBeGreaterThan(2 * 4 * 1024 * 1024);
    const chunks = read(file);
    expect(chunks.map((chunk) => chunk.length)).toEqual([10_000, 10_000, 5_001]);
    expect(chunks.flat()).toEqual(parsedWhole(file));
  });

  it('gives the same wherever a block ends: inside a string, an escape, a character of several bytes, between records', () => {
    const file = written('small.json', records(13));
    const whole = parsedWhole(file);
    for (let blockBytes = 1; blockBytes <= 64; blockBytes += 1)
      expect(read(file, blockBytes).flat(), `blocks of ${blockBytes}`).toEqual(whole);
  });

  it('reads any records, in any layout JSON allows (spaces, line ends), as JSON.parse does', () => {
    const record = fc.record({
      id: fc.integer({ min: 1, max: 2 ** 31 }),
      combined_car_model: fc.string({ unit: 'grapheme' }),
      logo: fc.option(fc.string({ unit: 'binary' }), { nil: null }),
      min_price: fc.double({ noNaN: true, noDefaultInfinity: true }),
    });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 30 }),
        fc.constantFrom(undefined, 1, 2, '\t', '\r\n'),
        fc.integer({ min: 1, max: 50 }),
        (list, space, blockBytes) => {
          const file = join(dir, 'property.json');
          const text =
            typeof space === 'string' ? JSON.stringify(list, null, 1).replaceAll('\n', space) : JSON.stringify(list, null, space);
          writeFileSync(file, ` ${text}\n`);
          expect(read(file, blockBytes).flat()).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("compares with the new rows as the published build's own records do: the same changes, count and order", () => {
    const before = records(2_500);
    const after = before.map((model, index) => (index % 100 === 7 ? { ...model, max_price: model.max_price + 1 } : model)).slice(0, 2_400);
    written('all.json', before);
    const fromAllJson = rowChanges(publishedRecords({ siteDir: dir, assetsUrl: ASSETS }, undefined, 'dist/all.json'), after, ASSETS);
    const fromRecords = rowChanges(
      { chunks: () => [before], logoUrlOf: (record) => (record['logo'] === null ? null : `${ASSETS}/${String(record['logo'])}`) },
      after,
      ASSETS,
    );
    expect(fromAllJson).toEqual(fromRecords);
    expect(fromAllJson.published).toBe(2_500);
    expect(fromAllJson.rows.removed).toHaveLength(100);
    expect(fromAllJson.rows.changed).toHaveLength(24);
  });

  describe('a damaged one is said, naming the file, as before', () => {
    const failure = (text: string) => {
      const file = join(dir, 'damaged.json');
      writeFileSync(file, text);
      try {
        read(file, 7);
      } catch (error) {
        expect(error).toBeInstanceOf(UnreadablePublishedRows);
        return (error as Error).message;
      }
      return 'read';
    };
    it.each([
      ['cut in a record', '[{"id":', 'dist/all.json is not JSON (it ends at byte 7, before its list does)'],
      ['empty', '', 'dist/all.json is not JSON (it ends at byte 0, before its list does)'],
      ['cut after a comma', '[{"id":1},', 'dist/all.json is not JSON (it ends at byte 10, before its list does)'],
      ['more after the list', '[{"id":1}] x', 'dist/all.json is not JSON (unexpected "x" at byte 11)'],
      ['two commas', '[{"id":1},,{"id":2}]', 'dist/all.json is not JSON (unexpected "," at byte 10)'],
      ['an object, not a list', '{"id":1}', 'dist/all.json is not a list of records with their ids'],
      ['not JSON at all', '<!doctype html>', 'dist/all.json is not JSON (unexpected "<" at byte 0)'],
      ['a byte no value begins with, in the list', '[{"id":1},x]', 'dist/all.json is not JSON (unexpected "x" at byte 10)'],
      ['numbers, not records', '[1,2]', 'dist/all.json is not a list of records with their ids'],
      ['a record without its id', '[{"id":1},{"name":"x"}]', 'dist/all.json is not a list of records with their ids'],
    ])('%s', (_, text, message) => expect(failure(text)).toBe(message));

    it('a record that is not JSON inside its braces, said with where its chunk begins', () =>
      expect(failure(' [{"id":1},{"id":2,}]')).toMatch(/^dist\/all\.json is not JSON \(in the 2 records from byte 2: /));
    it('none there', () => {
      expect(() => read(join(dir, 'none.json'))).toThrow('dist/all.json is missing from the published site');
    });
  });
});
