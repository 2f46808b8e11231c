import { readFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCsv, loadCsv, type CsvText } from '../../src/data/load.ts';
import { loadSince, recordSpans, type EarlierValidation } from '../../src/data/edit.ts';
import { inChunks } from '../../src/data/record-store.ts';

const FILE = 'cars.csv';
const embedded = readFileSync('data/captured-car-models.csv', 'utf8');
const [header, ...embeddedRows] = embedded.replace(/\n$/, '').split('\n') as [string, ...string[]];
// Rows with quoted cells, one holding a line break and doubled quotes: a record of two lines.
const quotedRows = [
  '90001,"豐田 Toyota ""Limited"", 7-Seater",90001,7,7,2487,2487,549000,689000,true,false,90001,',
  '90002,"凌志 Lexus RX\nLong Range",90002,5,5,2393,2393,600000,650000,true,false,90002,media/brand/logo/lexus.svg',
];
const baseRows = [...embeddedRows.slice(0, 40), ...quotedRows, ...embeddedRows.slice(40, 60)];

const textOf = (rows: readonly string[], lineEnd = '\n') => `${[header, ...rows].join(lineEnd)}${lineEnd}`;
const decoded = (text: string): CsvText => {
  const result = decodeCsv(Buffer.from(text), FILE);
  if ('problems' in result) throw new Error('not text');
  return result;
};
const earlierOf = (text: string): EarlierValidation => {
  const { records, problems } = loadCsv(Buffer.from(text), FILE);
  expect(problems).toEqual([]);
  return { body: decoded(text).body, rows: records.length, records: () => inChunks(records) };
};

const cellsOf = (row: string): string[] => {
  try {
    return (parse(row)[0] as string[] | undefined) ?? [];
  } catch {
    return [];
  }
};

/** One row's cells changed: re-written as csv-stringify writes a row (a row csv-parse cannot read stays as it is). */
const withCell = (row: string, column: number, value: string) => {
  const cells = cellsOf(row);
  if (cells.length === 0) return row;
  cells[column] = value;
  return stringify([cells]).replace(/\n$/, '');
};

/** What a maintainer may do to a file, valid or not. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('price' as const), at: fc.nat(), by: fc.integer({ min: 1, max: 9999 }) }),
  fc.record({ kind: fc.constant('bad value' as const), at: fc.nat(), column: fc.integer({ min: 3, max: 8 }) }),
  fc.record({ kind: fc.constant('name' as const), at: fc.nat(), name: fc.constantFrom('新 New "Quoted" Name', 'Line\nbreak', 'Comma, inside', 'Plain') }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), id: fc.integer({ min: 1, max: 99_999 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('blank line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('empty cells' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('stray quote' as const), at: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applied(rows: readonly string[], edits: readonly Edit[]): string[] {
  const after = [...rows];
  for (const change of edits) {
    const at = change.at % Math.max(1, after.length);
    const row = after[at] ?? baseRows[0]!;
    if (change.kind === 'price') {
      const [min, max] = [Number(cellsOf(row)[7]) + change.by, Number(cellsOf(row)[8]) + change.by];
      after[at] = withCell(withCell(row, 7, String(min)), 8, String(max));
    } else if (change.kind === 'bad value') after[at] = withCell(row, change.column, 'seven');
    else if (change.kind === 'name') after[at] = withCell(row, 1, change.name);
    else if (change.kind === 'insert') after.splice(at, 0, withCell(row, 0, String(change.id)));
    else if (change.kind === 'delete') after.splice(at, 1);
    else if (change.kind === 'blank line') after.splice(at, 0, '');
    else if (change.kind === 'empty cells') after.splice(at, 0, ','.repeat(12));
    else after[at] = row.replace(',', ',"');
  }
  return after;
}

describe('validating against an earlier version of the file', () => {
  it('splits a file into its records as csv-parse reads them, line breaks in quotes included', () => {
    const text = textOf(baseRows);
    const body = Buffer.from(text);
    const { starts, ends } = recordSpans(body);
    expect(starts.map((start, index) => body.subarray(start, ends[index]).toString())).toEqual([header, ...baseRows]);
    expect(recordSpans(Buffer.from(`${header}\n\n${baseRows[0]}\n\n`)).starts).toHaveLength(2);
  });

  it('gives the records (to the byte) of a full validation, or nothing, whatever was edited', () => {
    const before = textOf(baseRows);
    const earlier = earlierOf(before);
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 5 }), (edits) => {
        const after = textOf(applied(baseRows, edits));
        const full = loadCsv(Buffer.from(after), FILE);
        const quick = loadSince(decoded(after), FILE, earlier);
        if (quick === undefined) return;
        expect(full.problems).toEqual([]);
        expect(serialize(quick.records).equals(serialize(full.records))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('checks only the rows whose text changed when rows changed in place', () => {
    const earlier = earlierOf(textOf(baseRows));
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: baseRows.length - 1 }), { maxLength: 8 }), (positions) => {
        const after = applied(
          baseRows,
          positions.map((at) => ({ kind: 'price', at, by: 1000 })),
        );
        const quick = loadSince(decoded(textOf(after)), FILE, earlier);
        expect(quick?.changed).toEqual([...positions].sort((a, b) => a - b));
        expect(quick?.records).toEqual(loadCsv(Buffer.from(textOf(after)), FILE).records);
      }),
    );
  });

  it('checks the rows after the earlier ones when rows were added at the end', () => {
    const earlier = earlierOf(textOf(baseRows));
    const after = textOf([...baseRows, ...embeddedRows.slice(60, 70)]);
    expect(loadSince(decoded(after), FILE, earlier)?.changed).toEqual(Array.from({ length: 10 }, (_, index) => baseRows.length + index));
  });

  it('leaves it to a full validation where the result could differ', () => {
    const earlier = earlierOf(textOf(baseRows));
    const cases = {
      'a problem': applied(baseRows, [{ kind: 'bad value', at: 3, column: 4 }]),
      'a repeated id': [...baseRows, baseRows[5]!],
      'a row of empty cells': applied(baseRows, [{ kind: 'empty cells', at: 7 }]),
    };
    for (const rows of Object.values(cases)) expect(loadSince(decoded(textOf(rows)), FILE, earlier)).toBeUndefined();
    expect(loadSince(decoded(textOf(baseRows, '\r\n')), FILE, earlier)).toBeUndefined();
    const reordered = header.split(',').reverse().join(',');
    const swapped = `${reordered}\n${baseRows.map((row) => cellsOf(row).reverse()).map((cells) => stringify([cells]).trim()).join('\n')}\n`;
    expect(loadSince(decoded(swapped), FILE, earlier)).toBeUndefined();
  });
});
