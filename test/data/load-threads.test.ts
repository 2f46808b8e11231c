import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCsv, loadText, type CsvText } from '../../src/data/load.ts';
import { loadTextOnThreads, readPart, type PartInput, type SplitOptions } from '../../src/data/load-threads.ts';

const FILE = 'cars.csv';
const embedded = readFileSync('data/captured-car-models.csv', 'utf8');
const [header, ...rows] = embedded.replace(/\n$/, '').split('\n') as [string, ...string[]];
const row = (id: number, name = `豐田 Toyota Model ${id}`) =>
  `${id},${name},${100 + id},5,7,1496,1998,200000,250000.50,true,false,${100 + id},media/brand/logo/toyota.svg`;
const quoteAll = (line: string) =>
  line
    .split(',')
    .map((cell) => `"${cell}"`)
    .join(',');

const decoded = (text: string): CsvText => {
  const result = decodeCsv(Buffer.from(text), FILE);
  if ('problems' in result) throw new Error('not text');
  return result;
};
/** A part read on this thread: the same function the worker runs, without the worker. */
const here: NonNullable<SplitOptions['readOther']> = async (input: PartInput) => readPart(input);
/** Whether a cut may fall at `at`: only each line break is a different cut. */
const isBreak = (body: Buffer, at: number) => at === 0 || body[at - 1] === 0x0a || body[at - 1] === 0x0d;

/** Files of the shapes exports have, good and bad, with rows that are more than one line. */
const files: Record<string, string> = {
  'quote-free, LF': [header, ...rows.filter((line) => !line.includes('"')).slice(0, 30)].join('\n'),
  'quoted where needed, CRLF, blank lines': [
    header,
    ...rows.slice(0, 12),
    '',
    row(9001, '"凌志 Lexus RX\r\nLong ""Range"", 7"'),
    ',,,,,,,,,,,,',
    ...rows.slice(12, 24),
    '',
  ].join('\r\n'),
  'every field quoted, a header over blank lines': [
    '',
    '',
    quoteAll(header),
    ...rows
      .filter((line) => !line.includes('"'))
      .slice(0, 20)
      .map(quoteAll),
  ].join('\n'),
  'bad rows in both halves, a duplicate in one': [
    header,
    row(1),
    row(2, ''),
    row(3),
    row(3),
    row(4).replace('true,false', 'yes,false'),
    row(5),
    row(6),
    row(7).replace('200000', '-1'),
    row(8),
    row(9),
  ].join('\n'),
  'an id in both halves': [header, row(1), row(2), row(3), row(4), row(5), row(6), row(2), row(7)].join('\n'),
  'a stray quote': [header, row(1), row(2), row(3, 'Toyota "GR" Yaris'), row(4), row(5), row(6), row(7), row(8)].join('\n'),
  'a quote never closed': [header, row(1), row(2), row(3), row(4), row(5, '"Toyota GR'), row(6), row(7)].join('\n'),
  'a bad header': [header.replace('min_seat', 'min_seats'), row(1), row(2), row(3), row(4)].join('\n'),
  // csv-parse takes the record delimiter from the first line break: in a CR LF file an LF alone is text in a field.
  'CR LF, an LF alone in a name': [header, ...rows.slice(0, 6), row(9001, 'Toyota\nCorolla'), ...rows.slice(6, 12)].join('\r\n'),
  'CR LF, a row ending in an LF alone, the name last': (() => {
    const nameLast = (line: string) => {
      const cells = line.split(',');
      return [...cells.slice(0, 1), ...cells.slice(2), cells[1]].join(',');
    };
    const lines = [nameLast(header), ...[1, 2, 3, 4, 5, 6].map((id) => nameLast(row(id)))];
    return `${lines.slice(0, 3).join('\r\n')}\r\n${lines[3]}\n${lines.slice(4).join('\r\n')}`;
  })(),
  'the header ending in CR LF, the rows in LF': `${header}\r\n${rows
    .filter((line) => !line.includes('"'))
    .slice(0, 8)
    .join('\n')}`,
  'CR alone': [header, ...rows.slice(0, 5), row(9002, '"A\nB"'), ...rows.slice(5, 10)].join('\r'),
  'a quoted name of many lines across the middle': [header, row(1), row(2, '"Toyota\n\n\nGR\nYaris\nHybrid"'), row(3), row(4)].join('\n'),
  'blank lines at the end': `${[header, row(1), row(2), row(3)].join('\n')}\n\n\n\n\n\n`,
  // Read again from the line after it: the later field's line break must not move a line number.
  'a quote left open, closed by a later multi-line field, CR LF': [
    header,
    row(1),
    row(2, '"Toyota GR'),
    row(3),
    row(4, '"Toyota\nGR"'),
    row(5).replace('200000', '-1'),
    row(6),
  ].join('\r\n'),
  'a bad row after a name with a CR LF, in a file with a lone CR in a name': [
    header,
    row(1, '"Toyota\rGR"'),
    row(2, '"Toyota\r\nGR"'),
    row(3),
    row(4).replace('200000', '-1'),
    row(5),
  ].join('\r\n'),
};

describe('a data file read in parts', () => {
  it('gives what reading it whole gives, wherever the file is cut in two', async () => {
    for (const [name, text] of Object.entries(files)) {
      const csv = decoded(text);
      const whole = loadText(csv, FILE);
      for (let at = 0; at <= csv.body.length; at += 1) {
        if (!isBreak(csv.body, at)) continue;
        const halves = await loadTextOnThreads(csv, FILE, {}, { at: [at], readOther: here });
        expect(halves, `${name}, cut at byte ${at}`).toStrictEqual(whole);
      }
    }
  });

  it('gives what reading it whole gives, wherever the file is cut in three or four', async () => {
    for (const [name, text] of Object.entries(files)) {
      const csv = decoded(text);
      const whole = loadText(csv, FILE);
      const breaks = Array.from({ length: csv.body.length + 1 }, (_, at) => at).filter((at) => isBreak(csv.body, at));
      for (const [index, first] of breaks.entries()) {
        for (const second of breaks.slice(index + 1)) {
          const thirds = await loadTextOnThreads(csv, FILE, {}, { at: [first, second], readOther: here });
          expect(thirds, `${name}, cut at bytes ${first} and ${second}`).toStrictEqual(whole);
        }
        const last = breaks.at(-2) ?? 0;
        const quarters = await loadTextOnThreads(csv, FILE, {}, { at: [first, Math.floor((first + last) / 2), last], readOther: here });
        expect(quarters, `${name}, cut at bytes ${first}, about ${Math.floor((first + last) / 2)} and ${last}`).toStrictEqual(whole);
      }
    }
  });

  it('reads the file whole again where the other thread failed or could not start, and leaves no timer behind', async () => {
    const csv = decoded(files['quote-free, LF']!);
    const whole = loadText(csv, FILE);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const failures: NonNullable<SplitOptions['readOther']>[] = [
      () => Promise.reject(new Error('no thread')),
      async () => {
        throw new Error('no thread');
      },
    ];
    for (const readOther of failures) {
      const seen: number[] = [];
      expect(
        await loadTextOnThreads(csv, FILE, { every: 5, onRows: (count) => seen.push(count) }, { at: [csv.body.length >> 1], readOther }),
      ).toStrictEqual(whole);
      expect(seen).toEqual([5, 10, 15, 20, 25, 30]);
    }
    expect(timers()).toBe(before);
  });

  // Another thread's count joins the progress every thousand rows, so in a file this small only
  // its total could add its rows: not where the parts are not joined.
  it("does not count another part's rows where the parts are not joined (a quoted field of many lines across a cut)", async () => {
    const csv = decoded(files['a quoted name of many lines across the middle']!);
    for (let at = 0; at < csv.body.length; at += 1) {
      const seen: number[] = [];
      await loadTextOnThreads(csv, FILE, { every: 1, onRows: (count) => seen.push(count) }, { at: [at], readOther: here });
      expect(seen, `cut at byte ${at}`).toEqual([1, 2, 3, 4]);
    }
  });

  it('reads the other parts on worker threads, and says the rows read in order, each count once', async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => row(index + 1));
    lines[2500] = row(2501).replace('1496', '1496.5');
    const good = decoded([header, ...lines.slice(0, 2500)].join('\r\n'));
    const bad = decoded([header, ...lines].join('\n'));
    const seen: number[] = [];
    const thirds = (csv: CsvText) => [csv.body.length / 3, (csv.body.length * 2) / 3];
    const result = await loadTextOnThreads(good, FILE, { every: 500, onRows: (count) => seen.push(count) }, { at: thirds(good) });
    expect(result).toStrictEqual(loadText(good, FILE));
    expect(result.records).toHaveLength(2500);
    expect(seen).toEqual([500, 1000, 1500, 2000, 2500]);
    // Validation alone (`npm run check-data`): the same answer, without the records.
    const validated = await loadTextOnThreads(good, FILE, {}, { at: thirds(good), keepRecords: false });
    expect(validated).toStrictEqual({ ...result, records: [] });
    expect(validated.rows).toBe(2500);
    const problems = await loadTextOnThreads(bad, FILE, {}, { at: thirds(bad) });
    expect(problems).toStrictEqual(loadText(bad, FILE));
    expect(problems.problems).toMatchObject([{ line: 2502, field: 'min_engine_size' }]);
    expect(await loadTextOnThreads(bad, FILE, {}, { at: thirds(bad), keepRecords: false })).toStrictEqual(problems);
  });
});
