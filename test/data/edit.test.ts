import { readFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCsv, loadText, type CsvText } from '../../src/data/load.ts';
import {
  loadAgainstEarlier,
  recordSpans,
  type EarlierValidation,
  type RecordSpans,
  type ValidatedAgainstEarlier,
} from '../../src/data/edit.ts';
import { inChunks } from '../../src/data/records-file.ts';
import type { CarModel } from '../../src/data/schema.ts';

const FILE = 'cars.csv';
const embedded = readFileSync('data/captured-car-models.csv', 'utf8');
const [embeddedHeader, ...embeddedRows] = embedded.replace(/\n$/, '').split('\n') as [string, ...string[]];
// Rows with quoted cells, one holding a line break and doubled quotes (a record of two lines), one
// a CRLF and one a lone CR (content inside quotes, whatever the file's line ends).
const quotedRows = [
  '90001,"豐田 Toyota ""Limited"", 7-Seater",90001,7,7,2487,2487,549000,689000,true,false,90001,',
  '90002,"凌志 Lexus RX\nLong Range",90002,5,5,2393,2393,600000,650000,true,false,90002,media/brand/logo/lexus.svg',
  '90003,"寶馬 BMW X5\r\nxDrive40i",90003,5,7,2998,2998,900000,990000,true,false,90003,media/brand/logo/bmw.svg',
  '90004,"平治 Mercedes-Benz C 200\rAMG Line",90004,5,5,1496,1496,420000,420000,true,false,90004,media/brand/logo/mercedes-benz.svg',
];

const cellsOf = (row: string): string[] => {
  try {
    return (parse(row)[0] as string[] | undefined) ?? [];
  } catch {
    return [];
  }
};
const quotedAll = (row: string) => stringify([cellsOf(row)], { quoted: true }).replace(/\n$/, '');

interface Shape {
  header: string;
  rows: readonly string[];
}
/** The files an export or a spreadsheet writes: quoted where needed, quoted nowhere, quoted everywhere. */
const SHAPES = {
  'quoted where needed': { header: embeddedHeader, rows: [...embeddedRows.slice(0, 40), ...quotedRows, ...embeddedRows.slice(40, 60)] },
  'quote-free': { header: embeddedHeader, rows: embeddedRows.filter((row) => !row.includes('"')).slice(0, 60) },
  'every field quoted': {
    header: quotedAll(embeddedHeader),
    rows: [...embeddedRows.slice(0, 30), ...quotedRows, ...embeddedRows.slice(30, 50)].map(quotedAll),
  },
} satisfies Record<string, Shape>;
type ShapeName = keyof typeof SHAPES;
const shapeNames = Object.keys(SHAPES) as ShapeName[];
const LINE_ENDS = ['\n', '\r\n'] as const;
type LineEnd = (typeof LINE_ENDS)[number];

const textOf = (header: string, rows: readonly string[], lineEnd: LineEnd = '\n', bom = false) =>
  Buffer.from(`${bom ? '\uFEFF' : ''}${[header, ...rows].join(lineEnd)}${lineEnd}`);
const decoded = (bytes: Buffer): CsvText => {
  const result = decodeCsv(bytes, FILE);
  if ('problems' in result) throw new Error('not text');
  return result;
};
/** The file validated whole. */
const validated = (bytes: Buffer) => loadText(decoded(bytes), FILE);

interface Earlier {
  validation: EarlierValidation;
  records: readonly CarModel[];
  /** Each row's text, the header not counted. */
  rows: readonly string[];
}
const earlierOf = (bytes: Buffer): Earlier => {
  const { records, problems } = validated(bytes);
  expect(problems).toEqual([]);
  const { body } = decoded(bytes);
  return {
    validation: { body, rows: records.length, records: () => inChunks(records) },
    records,
    rows: spanTexts(body, recordSpans(body)).slice(1),
  };
};
const spanTexts = (body: Buffer, spans: RecordSpans | undefined) =>
  spans ? spans.starts.map((start, index) => body.subarray(start, spans.ends[index]).toString()) : [];

/** One row's cells changed: re-written as csv-stringify writes a row (a row csv-parse cannot read stays as it is). */
const withCell = (row: string, column: number, value: string) => {
  const cells = cellsOf(row);
  if (cells.length === 0) return row;
  cells[column] = value;
  return stringify([cells]).replace(/\n$/, '');
};

const NAMES = ['新 New "Quoted" Name', 'Line\nbreak', 'Windows\r\nbreak', 'Comma, inside', '"', 'Plain'];
/** What a maintainer may do to a file and still have a valid file, unless an id or a price goes wrong. */
const validEdit = fc.oneof(
  fc.record({ kind: fc.constant('price' as const), at: fc.nat(), by: fc.integer({ min: 1, max: 9999 }) }),
  fc.record({ kind: fc.constant('name' as const), at: fc.nat(), name: fc.constantFrom(...NAMES) }),
  // Ids from a range the file's ids are in: an insert may repeat one (then it is a problem).
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), id: fc.integer({ min: 7_000, max: 9_000 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('blank line' as const), at: fc.nat() }),
);
/** What makes a file one the fast path may leave to a full validation, valid or not. */
const otherEdit = fc.oneof(
  fc.record({ kind: fc.constant('bad value' as const), at: fc.nat(), column: fc.integer({ min: 3, max: 8 }) }),
  fc.record({ kind: fc.constant('empty cells' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('stray quote' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('bare line break' as const), at: fc.nat(), lineBreak: fc.constantFrom('\n', '\r', '\r\n') }),
);
type Edit = typeof validEdit | typeof otherEdit extends fc.Arbitrary<infer T> ? T : never;
const VALID_KINDS = new Set<Edit['kind']>(['price', 'name', 'insert', 'delete', 'move', 'blank line']);

function applied(rows: readonly string[], edits: readonly Edit[]): string[] {
  const after = [...rows];
  for (const change of edits) {
    const at = change.at % Math.max(1, after.length);
    const row = after[at] ?? rows[0]!;
    if (change.kind === 'price') {
      const [min, max] = [Number(cellsOf(row)[7]) + change.by, Number(cellsOf(row)[8]) + change.by];
      after[at] = withCell(withCell(row, 7, String(min)), 8, String(max));
    } else if (change.kind === 'bad value') after[at] = withCell(row, change.column, 'seven');
    else if (change.kind === 'name') after[at] = withCell(row, 1, change.name);
    else if (change.kind === 'insert') after.splice(at, 0, withCell(row, 0, String(change.id)));
    else if (change.kind === 'delete') after.splice(at, 1);
    else if (change.kind === 'move') after.splice(change.to % Math.max(1, after.length), 0, ...after.splice(at, 1));
    else if (change.kind === 'blank line') after.splice(at, 0, '');
    else if (change.kind === 'empty cells') after.splice(at, 0, ','.repeat(12));
    else if (change.kind === 'duplicate') after.splice(at, 0, row);
    else if (change.kind === 'bare line break') after[at] = row.replace(',', `,${change.lineBreak}`);
    else after[at] = row.replace(',', ',"');
  }
  return after;
}

/** The same records, to the byte (as the records file keeps them). */
const sameBytes = (a: readonly CarModel[], b: readonly CarModel[]) => serialize(a).equals(serialize(b));

/** What the downloads rely on when they copy an earlier row's bytes by position (see downloads.ts). */
function expectPositionalCopySound(quick: ValidatedAgainstEarlier, earlier: Earlier) {
  if (!quick.inPlace) return;
  const changed = new Set(quick.changed);
  quick.records.forEach((record, position) => {
    if (changed.has(position)) return;
    expect(position).toBeLessThan(earlier.records.length);
    expect(sameBytes([record], [earlier.records[position]!])).toBe(true);
  });
}

/**
 * The fields said to have changed are told where every row is in its place and as many as before,
 * and are exactly those in which some row differs from the earlier row at its position.
 */
function expectChangedFieldsSound(quick: ValidatedAgainstEarlier, earlier: Earlier) {
  const samePositions = quick.inPlace && quick.records.length === earlier.records.length;
  if (!samePositions) {
    expect(quick.changedFields).toBeUndefined();
    return;
  }
  const differing = new Set<string>();
  quick.records.forEach((record, position) => {
    const before = earlier.records[position] as Readonly<Record<string, unknown>>;
    for (const [field, value] of Object.entries(record)) if (!Object.is(value, before[field])) differing.add(field);
  });
  expect([...(quick.changedFields ?? [])].sort()).toEqual([...differing].sort());
}

function expectCountsAddUp(quick: ValidatedAgainstEarlier, earlier: Earlier) {
  const { validated, changed, added, unchanged, removed } = quick.counts;
  expect(validated).toBe(quick.changed.length);
  expect(changed + added).toBe(validated);
  expect(validated + unchanged).toBe(quick.records.length);
  expect(unchanged + changed + removed).toBe(earlier.records.length);
}

const earliers = new Map<string, Earlier>();
const earlierFor = (shape: ShapeName, lineEnd: LineEnd) => {
  const key = `${shape} ${lineEnd}`;
  let earlier = earliers.get(key);
  if (!earlier) {
    earlier = earlierOf(textOf(SHAPES[shape].header, SHAPES[shape].rows, lineEnd));
    earliers.set(key, earlier);
  }
  return earlier;
};

describe('validating against an earlier version of the file', () => {
  it('splits a file into its records as csv-parse reads them, line breaks in quotes included', () => {
    for (const shape of shapeNames) {
      const { header, rows } = SHAPES[shape];
      for (const lineEnd of LINE_ENDS) {
        const body = textOf(header, rows, lineEnd);
        const spans = recordSpans(body);
        expect(spans?.lineEnd).toBe(lineEnd);
        expect(spanTexts(body, spans)).toEqual([header, ...rows]);
        expect(spanTexts(body, spans).map((span) => parse(span)[0])).toEqual(
          parse(body, { skip_empty_lines: true, relax_column_count: true }),
        );
      }
    }
    const [header, first] = [embeddedHeader, embeddedRows[0]!];
    expect(spanTexts(Buffer.from(`${header}\n\n${first}\n\n`), recordSpans(Buffer.from(`${header}\n\n${first}\n\n`)))).toEqual([
      header,
      first,
    ]);
    expect(spanTexts(Buffer.from(`${header}\r\n\r\n${first}`), recordSpans(Buffer.from(`${header}\r\n\r\n${first}`)))).toEqual([
      header,
      first,
    ]);
    // In a CRLF file a lone LF outside quotes is content, as csv-parse reads it.
    expect(spanTexts(Buffer.from(`${header}\r\na\nb\r\n`), recordSpans(Buffer.from(`${header}\r\na\nb\r\n`)))).toEqual([header, 'a\nb']);
    expect(recordSpans(Buffer.from(`${header}\r${first}\r`))).toBeUndefined();
  });

  it('gives the records (to the byte) of a full validation whatever was edited, and never leaves a valid edit to it', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...shapeNames),
        fc.constantFrom(...LINE_ENDS),
        fc.boolean(),
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: fc.constantFrom(...LINE_ENDS), weight: 1 }),
        fc.oneof(
          { arbitrary: fc.array(validEdit, { maxLength: 6 }), weight: 3 },
          { arbitrary: fc.array(fc.oneof(validEdit, otherEdit), { maxLength: 6 }), weight: 1 },
        ),
        (shape, lineEnd, bom, earlierLineEnd, edits) => {
          const earlier = earlierFor(shape, earlierLineEnd ?? lineEnd);
          const after = textOf(SHAPES[shape].header, applied(SHAPES[shape].rows, edits), lineEnd, bom);
          const full = validated(after);
          const quick = loadAgainstEarlier(decoded(after), FILE, earlier.validation);
          if (full.problems.length > 0) {
            expect(quick).toBeUndefined();
            return;
          }
          // The fast path may decline a file with rows of empty cells, bare line breaks, or other line ends than before; nothing else.
          if ((earlierLineEnd ?? lineEnd) === lineEnd && edits.every((change) => VALID_KINDS.has(change.kind))) expect(quick).toBeDefined();
          if (quick === undefined) return;
          answered += 1;
          expect(sameBytes(quick.records, full.records)).toBe(true);
          expectPositionalCopySound(quick, earlier);
          expectChangedFieldsSound(quick, earlier);
          expectCountsAddUp(quick, earlier);
          // Only the rows no earlier row has were validated.
          const rows = spanTexts(decoded(after).body, recordSpans(decoded(after).body)).slice(1);
          const earlierRows = new Set(earlier.rows);
          expect(quick.changed).toEqual(rows.flatMap((row, position) => (earlierRows.has(row) ? [] : [position])));
        },
      ),
      { numRuns: 500 },
    );
    expect(answered).toBeGreaterThan(250);
  }, 60_000);

  it('checks only the rows whose text changed when rows changed in place, and says they stayed in place', () => {
    for (const shape of shapeNames) {
      for (const lineEnd of LINE_ENDS) {
        const { header, rows } = SHAPES[shape];
        const earlier = earlierFor(shape, lineEnd);
        fc.assert(
          fc.property(fc.uniqueArray(fc.nat({ max: rows.length - 1 }), { maxLength: 8 }), (positions) => {
            const after = textOf(
              header,
              applied(
                rows,
                positions.map((at) => ({ kind: 'price', at, by: 1000 })),
              ),
              lineEnd,
            );
            const quick = loadAgainstEarlier(decoded(after), FILE, earlier.validation);
            expect(quick?.changed).toEqual([...positions].sort((a, b) => a - b));
            expect(quick?.inPlace).toBe(true);
            // What a make table is made of (the names, the logos) is told unchanged: see summaryOf.
            expect(quick?.changedFields?.sort()).toEqual(positions.length === 0 ? [] : ['max_price', 'min_price']);
            expect(quick?.counts).toEqual({
              validated: positions.length,
              changed: positions.length,
              added: 0,
              unchanged: rows.length - positions.length,
              removed: 0,
            });
            expect(sameBytes(quick?.records ?? [], validated(after).records)).toBe(true);
          }),
          { numRuns: 30 },
        );
      }
    }
  }, 60_000);

  it('finds the unchanged rows wherever they moved, and says they moved', () => {
    for (const shape of shapeNames) {
      for (const lineEnd of LINE_ENDS) {
        const { header, rows } = SHAPES[shape];
        const earlier = earlierFor(shape, lineEnd);
        const inserted = withCell(rows[3]!, 0, '123456');
        // One row inserted near the top, one deleted near the end, one changed in between.
        const after = [
          ...rows.slice(0, 2),
          inserted,
          ...rows.slice(2, 20),
          withCell(rows[20]!, 7, '111111'),
          ...rows.slice(21, -3),
          ...rows.slice(-2),
        ];
        const quick = loadAgainstEarlier(decoded(textOf(header, after, lineEnd)), FILE, earlier.validation);
        expect(quick?.changed).toEqual([2, 21]);
        expect(quick?.inPlace).toBe(false);
        expect(quick?.counts).toEqual({ validated: 2, changed: 1, added: 1, unchanged: rows.length - 2, removed: 1 });
        expect(sameBytes(quick?.records ?? [], validated(textOf(header, after, lineEnd)).records)).toBe(true);
        // A row only inserted, or only deleted: the rows after it moved, all by as much.
        const insertedOnly = [...rows.slice(0, 5), inserted, ...rows.slice(5)];
        const quickInserted = loadAgainstEarlier(decoded(textOf(header, insertedOnly, lineEnd)), FILE, earlier.validation);
        expect(quickInserted?.changed).toEqual([5]);
        expect(quickInserted?.inPlace).toBe(false);
        expect(quickInserted?.counts).toEqual({ validated: 1, changed: 0, added: 1, unchanged: rows.length, removed: 0 });
        expect(sameBytes(quickInserted?.records ?? [], validated(textOf(header, insertedOnly, lineEnd)).records)).toBe(true);
        const deletedOnly = [...rows.slice(0, 5), ...rows.slice(6)];
        const deleted = loadAgainstEarlier(decoded(textOf(header, deletedOnly, lineEnd)), FILE, earlier.validation);
        expect(deleted?.changed).toEqual([]);
        expect(deleted?.inPlace).toBe(false);
        expect(deleted?.counts).toEqual({ validated: 0, changed: 0, added: 0, unchanged: rows.length - 1, removed: 1 });
        expect(sameBytes(deleted?.records ?? [], validated(textOf(header, deletedOnly, lineEnd)).records)).toBe(true);
      }
    }
  });

  it('checks the rows after the earlier ones when rows were added at the end, which moves none', () => {
    const { header, rows } = SHAPES['quoted where needed'];
    const earlier = earlierFor('quoted where needed', '\n');
    const quick = loadAgainstEarlier(decoded(textOf(header, [...rows, ...embeddedRows.slice(60, 70)])), FILE, earlier.validation);
    expect(quick?.changed).toEqual(Array.from({ length: 10 }, (_, index) => rows.length + index));
    expect(quick?.inPlace).toBe(true);
    const cut = loadAgainstEarlier(decoded(textOf(header, rows.slice(0, -3))), FILE, earlier.validation);
    expect(cut?.changed).toEqual([]);
    expect(cut?.inPlace).toBe(true);
  });

  it('leaves it to a full validation where the result could differ', () => {
    const { header, rows } = SHAPES['quoted where needed'];
    const earlier = earlierFor('quoted where needed', '\n');
    const problems = {
      'a problem': applied(rows, [{ kind: 'bad value', at: 3, column: 4 }]),
      'a repeated id': [...rows, rows[5]!],
      'a row repeated where an earlier row was': [rows[5]!, ...rows.slice(1)],
      'an unclosed quote': applied(rows, [{ kind: 'stray quote', at: 9 }]),
    };
    for (const [name, after] of Object.entries(problems)) {
      expect(validated(textOf(header, after)).problems, name).not.toEqual([]);
      expect(loadAgainstEarlier(decoded(textOf(header, after)), FILE, earlier.validation), name).toBeUndefined();
    }
    // Valid, but a row that is no record: the rows and the records would not line up.
    expect(
      loadAgainstEarlier(decoded(textOf(header, applied(rows, [{ kind: 'empty cells', at: 7 }]))), FILE, earlier.validation),
    ).toBeUndefined();
    const reordered = header.split(',').reverse().join(',');
    const swapped = `${reordered}\n${rows.map((row) => stringify([cellsOf(row).reverse()]).trim()).join('\n')}\n`;
    expect(loadAgainstEarlier(decoded(Buffer.from(swapped)), FILE, earlier.validation)).toBeUndefined();
  });
});
