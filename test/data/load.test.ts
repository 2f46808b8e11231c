import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDataFile } from '../../src/data/read.ts';
import { formatProblem } from '../../src/data/problems.ts';
import { FIELDS } from '../../src/data/schema.ts';
import { dataFiles } from '../support/data-files.ts';
import { fixture } from '../support/site.ts';

const header = FIELDS.join(',');
const goodRow = (id: number, name = `豐田 Toyota Model ${id}`) =>
  `${id},${name},${100 + id},5,7,1496,1998,200000,250000.50,true,false,${100 + id},media/brand/logo/toyota.svg`;
const files = dataFiles();
const CARS = join(files.dir, 'cars.csv');
const load = (text: string | Uint8Array) => readDataFile(files.save(text));

type Expected = [line: number, field: string | null, rule: string][];
/** Each bad file and its problems; null for the garbage file, checked on its own below. */
const expected = JSON.parse(readFileSync(fixture('bad/expected.json'), 'utf8')) as Record<string, Expected | null>;
const listed = Object.entries(expected).filter((entry): entry is [string, Expected] => entry[1] !== null);

describe('every bad-file fixture gives exactly the expected problems', () => {
  it('reads 3 MB of random bytes as not UTF-8 in one problem that names the first bad lines', async () => {
    const { records, problems } = await readDataFile(fixture('bad/garbage-3mb.csv'));
    expect(records).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.rule).toMatch(/^is not UTF-8 text: \d+ lines \((\d+, ){5}… \d+\) have bytes/);
  });

  it.each(listed)('%s', async (name, problems) => {
    const result = await readDataFile(fixture(`bad/${name}`));
    expect(result.records).toEqual([]);
    expect(result.problems).toHaveLength(problems.length);
    result.problems.forEach((problem, index) => {
      const [line, field, rule] = problems[index]!;
      expect(problem.line).toBe(line);
      expect(problem.field ?? null).toBe(field);
      expect(problem.rule).toContain(rule);
      expect(problem.file).toBe(fixture(`bad/${name}`));
    });
  });

  it('covers at least 50 distinct bad files', () => {
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(50);
  });
});

describe('good variants are accepted', () => {
  it.each([
    'bom-crlf.csv',
    'reordered-columns.csv',
    'quoted-fields.csv',
    'uppercase-booleans.csv',
    'html-payloads.csv',
    'utf16-le-bom.csv',
    'utf16-le-without-bom.csv',
    'trailing-empty-cells.csv',
  ])('%s', async (name) => {
    const result = await readDataFile(fixture(`good/${name}`));
    expect(result.problems).toEqual([]);
    expect(result.records.length).toBeGreaterThan(0);
  });

  it('reads reordered columns by name', async () => {
    const [first] = (await readDataFile(fixture('good/reordered-columns.csv'))).records;
    expect(first).toMatchObject({ id: 1, min_seat: 5, max_seat: 7, max_price: 250000.5, logo: 'media/brand/logo/toyota.svg' });
  });

  it('keeps quoted commas, quotes, line breaks and markup exactly', async () => {
    const records = (await readDataFile(fixture('good/quoted-fields.csv'))).records;
    expect(records.map((record) => record.combined_car_model)).toEqual([
      '平治 Mercedes-Benz V 260 L, "Avantgarde"\nLong',
      '<script>alert("x")</script> & Co',
    ]);
  });

  it('reads a header-only file as an empty listing', async () => {
    expect(await readDataFile(fixture('good/header-only.csv'))).toMatchObject({ records: [], problems: [] });
  });

  it('reads UTF-16 with or without a byte-order mark as the same records as UTF-8', async () => {
    const text = readFileSync(fixture('good/utf16-le-bom.csv')).toString('utf16le').slice(1);
    const { records } = await load(text);
    expect(records).toHaveLength(1);
    expect(await readDataFile(fixture('good/utf16-le-bom.csv'))).toMatchObject({ records, text: { format: { encoding: 'UTF-16LE' } } });
    expect(await readDataFile(fixture('good/utf16-le-without-bom.csv'))).toMatchObject({
      records,
      text: { format: { encoding: 'UTF-16LE' } },
    });
    const bigEndian = Buffer.from(text, 'utf16le').swap16();
    expect(await load(bigEndian)).toMatchObject({ problems: [], records, text: { format: { encoding: 'UTF-16BE' } } });
  });

  it('ignores empty trailing columns and rows, as spreadsheets write them', async () => {
    const { records, problems } = await readDataFile(fixture('good/trailing-empty-cells.csv'));
    expect(problems).toEqual([]);
    expect(records.map((record) => record.id)).toEqual([1, 2]);
  });
});

describe('readDataFile', () => {
  it('keeps rows in file order and converts types', async () => {
    const { records, problems } = await load([header, goodRow(3), goodRow(1), goodRow(2)].join('\n'));
    expect(problems).toEqual([]);
    expect(records.map((record) => record.id)).toEqual([3, 1, 2]);
    expect(records[0]).toMatchObject({
      min_price: 200000,
      max_price: 250000.5,
      has_operation_type_auto: true,
      logo: 'media/brand/logo/toyota.svg',
    });
  });

  it('counts lines right after quoted fields with CRLF line breaks and blank lines', async () => {
    const text = [header, `1,"Two\r\nLines",101,5,7,1,2,1,2,true,false,101,`, '', goodRow(2).replace('200000', '-1'), ''].join('\r\n');
    const { problems } = await load(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 5, field: 'min_price', column: 8, value: '-1' });
  });

  it('reports every problem of every row, in line order', async () => {
    const rows = [header, goodRow(1).replace(',5,7,', ',0,7,'), goodRow(2), goodRow(3).replace('true,false', 'false,false'), goodRow(1)];
    const lines = (await load(rows.join('\n'))).problems.map((problem) => [problem.line, problem.field]);
    expect(lines).toEqual([
      [2, 'min_seat'],
      [4, 'has_operation_type_hand'],
    ]);
  });

  it('finds a duplicate id only among valid rows, naming the first line', async () => {
    const { problems } = await load([header, goodRow(1), goodRow(2), goodRow(1)].join('\n'));
    expect(problems.map(formatProblem)).toEqual([`${CARS}:4: column 1 (id): must be unique: line 2 has the same id; got "1"`]);
  });

  it('writes problems with file, line, column, field, rule and value', async () => {
    const { problems } = await load([header, goodRow(1).replace('250000.50', '-1')].join('\n'));
    expect(problems.map(formatProblem)).toEqual([
      `${CARS}:2: column 9 (max_price): must be a plain decimal number such as 549000 or 549000.00 ` +
        '(no sign, spaces, commas or exponent); got "-1"',
    ]);
  });

  it('says a row with a stray comma has too many fields instead of guessing its columns', async () => {
    const { problems } = await load([header, goodRow(1).replace('250000.50', '1,250,000')].join('\n'));
    expect(problems.map(formatProblem)).toEqual([`${CARS}:2: has 15 fields but the header has 13`]);
  });

  it('names the line with bytes that are not UTF-8 and says how to export', async () => {
    const bytes = Buffer.concat([Buffer.from(`${header}\n${goodRow(1)}\n`), Buffer.from([0xc2, 0xa8, 0xa4]), Buffer.from('\n')]);
    const { problems } = await load(bytes);
    expect(problems.map(formatProblem)).toEqual([
      `${CARS}:3: is not UTF-8 text: line 3 has bytes that UTF-8 does not allow; it looks like a legacy encoding such as ` +
        'Windows-1252 (what a Western Excel saves as plain "CSV"), Big5, Big5-HKSCS, GBK or TIS-620: export the sheet as "CSV UTF-8" (Excel: CSV UTF-8; LibreOffice: character set Unicode (UTF-8))',
    ]);
  });

  it('says a long run of bad lines in one problem: the first five, the count and the last', async () => {
    const garbage = Buffer.alloc(50 * 3, 0xff);
    for (let index = 2; index < garbage.length; index += 3) garbage[index] = 0x0a;
    const { problems } = await load(garbage);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 1, rule: expect.stringContaining('50 lines (1, 2, 3, 4, 5, … 50) have bytes') });
  });

  it('names a quote inside an unquoted field once per row, in words a maintainer can act on', async () => {
    const { problems } = await load([header, goodRow(1, '豐田 "Toyota" "Model" 1')].join('\n'));
    expect(problems.map(formatProblem)).toEqual([
      `${CARS}:2: a quote appears inside an unquoted field: quote the whole field and double the inner quote ("")`,
    ]);
  });

  it('reads on past text after a closing quote: every later problem is found, and no false unclosed quote', async () => {
    const badSeats = (id: number) => goodRow(id).replace(',5,7,', ',x,7,');
    const rows = [
      header,
      goodRow(1),
      '2,"豐田 Toyota" Model 2,102,5,7,1496,1998,200000,250000.50,true,false,102,',
      badSeats(3),
      goodRow(4),
    ];
    rows.push('5,"Q" x,105,5,7,1496,1998,200000,250000.50,true,false,105,', goodRow(6), badSeats(7));
    for (const lineEnd of ['\n', '\r\n']) {
      const { problems, rows: read } = await load(rows.join(lineEnd));
      expect(problems.map((problem) => [problem.line, problem.field ?? null])).toEqual([
        [3, null],
        [4, 'min_seat'],
        [6, null],
        [8, 'min_seat'],
      ]);
      expect(problems[0]!.rule).toMatch(/^text follows the closing quote of a field/);
      // Every other row was read and checked, those after each broken one too.
      expect(read).toBe(5);
    }
  });

  it('names the line of a stray quote and reads on from the next, after a quoted line break, with LF or CR LF', async () => {
    const badSeats = (id: number) => goodRow(id).replace(',5,7,', ',x,7,');
    for (const lineEnd of ['\n', '\r\n']) {
      const rows = [
        header,
        goodRow(1, `"豐田 Toyota${lineEnd}Model 1"`),
        goodRow(2),
        '3,"Q" x,103,5,7,1496,1998,200000,250000.50,true,false,103,',
        goodRow(4),
        badSeats(5),
      ];
      const { problems } = await load(rows.join(lineEnd));
      expect(
        problems.map((problem) => [problem.line, problem.field ?? null]),
        JSON.stringify(lineEnd),
      ).toEqual([
        [5, null],
        [7, 'min_seat'],
      ]);
    }
  });

  it('reads on from the line after a quoted field left open, even where a later multi-line field closes it, with LF or CR LF', async () => {
    const badSeats = (id: number, name?: string) => goodRow(id, name).replace(',5,7,', ',x,7,');
    for (const lineEnd of ['\n', '\r\n']) {
      const rows = [
        header,
        goodRow(1),
        '2,"Q x,102,5,7,1496,1998,200000,250000.50,true,false,102,',
        goodRow(3),
        goodRow(4, `"A${lineEnd}B"`),
        badSeats(5),
        badSeats(6, `"C${lineEnd}D"`),
        badSeats(7),
      ];
      const { problems, rows: read } = await load(rows.join(lineEnd));
      expect(
        problems.map((problem) => [problem.line, problem.field ?? null]),
        JSON.stringify(lineEnd),
      ).toEqual([
        [3, null],
        [7, 'min_seat'],
        [8, 'min_seat'],
        [10, 'min_seat'],
      ]);
      expect(problems[0]!.rule).toMatch(/^a quoted field opens on this line/);
      expect(read).toBe(6);
    }
  });

  it('reports every problem of a file on its own line, whatever its stray quotes, multi-line fields and line ends (random files)', async () => {
    type Kind = 'good' | 'quoted' | 'lines' | 'badValue' | 'badLines' | 'afterClose' | 'inUnquoted' | 'leftOpen' | 'blank';
    const STRAY: readonly Kind[] = ['afterClose', 'inUnquoted', 'leftOpen'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('\n', '\r\n', '\r'),
        // What a field's own line break is: the file's, or the LF that spreadsheets write inside a cell.
        fc.boolean(),
        fc.array(
          fc.constantFrom<Kind>('good', 'quoted', 'lines', 'badValue', 'badLines', 'afterClose', 'inUnquoted', 'leftOpen', 'blank'),
          { minLength: 1, maxLength: 30 },
        ),
        async (lineEnd, lfInCells, kinds) => {
          const inCell = lfInCells ? '\n' : lineEnd;
          const text: string[] = [header];
          let line = 2;
          const expected: [number, 'quote' | 'value'][] = [];
          let rows = 0;
          kinds.forEach((kind, at) => {
            const id = at + 1;
            const name = {
              good: undefined,
              quoted: `"豐田 Toyota, ""GR"" ${id}"`,
              lines: `"豐田 Toyota${inCell}GR ${id}${inCell}Hybrid"`,
              badValue: undefined,
              badLines: `"豐田${inCell}Toyota ${id}"`,
              afterClose: `"豐田 Toyota" GR ${id}`,
              inUnquoted: `豐田 Toyota "GR" ${id}`,
              leftOpen: `"豐田 Toyota GR ${id}`,
              blank: undefined,
            }[kind];
            if (kind === 'blank') {
              text.push('');
              line += 1;
              return;
            }
            const row = kind === 'badValue' || kind === 'badLines' ? goodRow(id, name).replace(',5,7,', ',x,7,') : goodRow(id, name);
            text.push(row);
            if (STRAY.includes(kind)) expected.push([line, 'quote']);
            else rows += 1;
            if (kind === 'badValue' || kind === 'badLines') expected.push([line, 'value']);
            line += 1 + (name?.split(inCell).length ?? 1) - 1;
          });
          const result = await load(text.join(lineEnd));
          const found = result.problems.map((problem) => [problem.line, problem.field === undefined ? 'quote' : 'value']);
          expect(found, JSON.stringify(text.join(lineEnd))).toEqual(expected);
          for (const problem of result.problems.filter(({ field }) => field === undefined)) expect(problem.rule).toMatch(/quote/);
          // Every row but the broken ones was read and checked.
          expect(result.rows).toBe(rows);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('counts lines in a file whose lines end in CR alone (an old Mac export)', async () => {
    const { problems } = await load([header, goodRow(1), goodRow(2).replace(',5,7,', ',x,7,'), goodRow(1)].join('\r'));
    expect(problems.map(formatProblem)).toEqual([
      `${CARS}:3: column 4 (min_seat): must be a whole number written with digits only; got "x"`,
      `${CARS}:4: column 1 (id): must be unique: line 2 has the same id; got "1"`,
    ]);
  });

  it('takes the separator from the header row: comma, semicolon or tab', async () => {
    for (const separator of [',', ';', '\t']) {
      const rows = [header, goodRow(1), goodRow(2, '"平治 Mercedes-Benz V 260, L; ""x"""')].map((row) => row.replaceAll(',', separator));
      // The name's own comma and semicolon stay inside its quotes.
      rows[2] = rows[2]!.replace(`260${separator} L`, '260, L');
      const result = await load(rows.join('\r\n'));
      expect(result.problems, separator).toEqual([]);
      expect(result.text?.format.separator).toBe(separator);
      expect(result.records.map((record) => record.combined_car_model)).toEqual([
        '豐田 Toyota Model 1',
        '平治 Mercedes-Benz V 260, L; "x"',
      ]);
    }
  });

  it('keeps a comma in a row of a semicolon file inside its field', async () => {
    const text = [header.replaceAll(',', ';'), goodRow(1).replaceAll(',', ';').replace('Toyota Model 1', 'Toyota Model 1, Hybrid')].join(
      '\n',
    );
    expect((await load(text)).records[0]?.combined_car_model).toBe('豐田 Toyota Model 1, Hybrid');
  });

  it('calls back with progress for long files', async () => {
    const seen: number[] = [];
    const rows = Array.from({ length: 25 }, (_, index) => goodRow(index + 1));
    await readDataFile(files.save([header, ...rows].join('\n')), { progress: { every: 10, onRows: (rows_) => seen.push(rows_) } });
    expect(seen).toEqual([10, 20]);
  });
});
