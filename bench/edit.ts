/**
 * `node bench/edit.ts [--sizes=100000,1000000] [--runs=3]`: validating an edited file against an
 * earlier version of it (src/data/edit.ts) must cost time linear in the file's size, whatever its
 * quoting. Times `recordSpans` and `loadAgainstEarlier` (a few rows changed in place; the same with a row
 * inserted near the top, which moves every row after it; and with a row inserted near the top and
 * one deleted near the end, which moves every row between: the rows are then found by their hash)
 * on synthetic files of each size and shape, beside one full validation of the same file, and prints the medians
 * and the ratio of the largest size to the smallest: linear is the ratio of the sizes (10 for 1M
 * against 100k), quadratic its square. Not a test: the figures are for reading.
 */
import { decodeCsv, loadText, type CsvText } from '../src/data/load.ts';
import { loadAgainstEarlier, recordSpans, type EarlierValidation } from '../src/data/edit.ts';
import { inChunks } from '../src/data/records-file.ts';
import { FIELDS } from '../src/data/schema.ts';
import { counted } from '../src/listing/format.ts';

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const sizes = (option('sizes') ?? '100000,1000000').split(',').map(Number);
const runs = Number(option('runs') ?? 3);

interface Shape {
  lineEnd: '\n' | '\r\n';
  /** The name and logo cells of row `id` (1-based) of a file of `rows` rows, as written in the file. */
  text: (id: number, rows: number) => [name: string, logo: string];
}
const plain = (id: number): [string, string] => [`豐田 Toyota Alphard 2.5 Hybrid ${id}`, 'media/brand/logo/toyota.svg'];
const oneQuoted = (id: number, rows: number): [string, string] =>
  id === Math.ceil(rows / 2) ? ['"豐田 Toyota Alphard ""Limited"", 7-Seater"', 'media/brand/logo/toyota.svg'] : plain(id);
// Every tenth name holds a line break, as a spreadsheet cell with two lines does.
const allQuoted = (id: number): [string, string] => [
  `"豐田 Toyota Alphard${id % 10 === 0 ? '\n' : ' '}2.5 Hybrid ${id}"`,
  '"media/brand/logo/toyota.svg"',
];
const SHAPES: Record<string, Shape> = {
  'no quotes': { lineEnd: '\n', text: plain },
  'one quoted field': { lineEnd: '\n', text: oneQuoted },
  'every text field quoted': { lineEnd: '\n', text: allQuoted },
  'one quoted field, CRLF': { lineEnd: '\r\n', text: oneQuoted },
  'every text field quoted, CRLF': { lineEnd: '\r\n', text: allQuoted },
};

const rowOf = (shape: Shape, id: number, rows: number, priceBy = 0) => {
  const [name, logo] = shape.text(id, rows);
  const price = 150_000 + ((id * 7919) % 3_000_000) + priceBy;
  return `${id},${name},${100_000 + id},5,7,1496,1998,${price},${price + 50_000},true,false,${100_000 + id},${logo}`;
};
const fileOf = (shape: Shape, rows: readonly string[]): CsvText => {
  const decoded = decodeCsv(Buffer.from(`${[FIELDS.join(','), ...rows].join(shape.lineEnd)}${shape.lineEnd}`), 'bench.csv');
  if ('problems' in decoded) throw new Error('the synthetic file is not text');
  return decoded;
};

/**
 * The earlier file of `size` rows and its edits. Made in a function of their own, so that the rows'
 * strings are garbage by the time anything is timed (a heap they kept full would be timed too).
 */
function filesOf(shape: Shape, size: number) {
  const rows = Array.from({ length: size }, (_, index) => rowOf(shape, index + 1, size));
  // Ten prices changed, spread over the file.
  const edited = [...rows];
  for (let at = 0; at < size; at += Math.floor(size / 10)) edited[at] = rowOf(shape, at + 1, size, 1);
  return {
    earlierText: fileOf(shape, rows),
    inPlace: fileOf(shape, edited),
    // The same, with a row inserted near the top (every row after it moves), and one deleted near the end too.
    inserted: fileOf(shape, [...edited.slice(0, 5), rowOf(shape, size + 1, size), ...edited.slice(5)]),
    moved: fileOf(shape, [...edited.slice(0, 5), rowOf(shape, size + 1, size), ...edited.slice(5, -5), ...edited.slice(-4)]),
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const seconds = (run: () => unknown) => {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
};
const medianOf = (run: () => unknown) => median(Array.from({ length: runs }, () => seconds(run)));
const milliseconds = (value: number) => `${(value * 1000).toFixed(1)} ms`;

const COLUMNS = [
  'recordSpans',
  'loadAgainstEarlier, in place',
  'loadAgainstEarlier, 1 inserted',
  'loadAgainstEarlier, 1 inserted 1 deleted',
  'full validation',
] as const;
type Timings = Record<(typeof COLUMNS)[number], number>;
const results = new Map<string, Map<number, Timings>>();

for (const [shapeName, shape] of Object.entries(SHAPES)) {
  const bySize = new Map<number, Timings>();
  results.set(shapeName, bySize);
  for (const size of sizes) {
    const { earlierText, inPlace, inserted, moved } = filesOf(shape, size);
    let full: ReturnType<typeof loadText> | undefined;
    const fullSeconds = seconds(() => (full = loadText(earlierText, 'bench.csv')));
    if (!full || full.problems.length > 0)
      throw new Error(`the synthetic file (${shapeName}) is not valid: ${JSON.stringify(full?.problems.slice(0, 3))}`);
    const { records } = full;
    const earlier: EarlierValidation = { body: earlierText.body, rows: records.length, records: () => inChunks(records) };

    const expected = (file: CsvText, validated: number, inPlaceExpected: boolean, removed: number) => {
      const result = loadAgainstEarlier(file, 'bench.csv', earlier);
      if (result?.counts.validated !== validated || result.inPlace !== inPlaceExpected || result.counts.removed !== removed) {
        throw new Error(`${shapeName}: an edit was not validated as expected: ${JSON.stringify(result?.counts)}`);
      }
    };
    expected(inPlace, 10, true, 0);
    expected(inserted, 11, false, 0);
    expected(moved, 11, false, 1);

    const timings: Timings = {
      recordSpans: medianOf(() => recordSpans(inPlace.body)),
      'loadAgainstEarlier, in place': medianOf(() => loadAgainstEarlier(inPlace, 'bench.csv', earlier)),
      'loadAgainstEarlier, 1 inserted': medianOf(() => loadAgainstEarlier(inserted, 'bench.csv', earlier)),
      'loadAgainstEarlier, 1 inserted 1 deleted': medianOf(() => loadAgainstEarlier(moved, 'bench.csv', earlier)),
      'full validation': fullSeconds,
    };
    bySize.set(size, timings);
    const figures = Object.entries(timings).map(([name, value]) => `${name} ${milliseconds(value)}`);
    console.error(`${shapeName}, ${counted(size)} rows (${(inPlace.body.length / 1e6).toFixed(0)} MB): ${figures.join(', ')}`);
  }
}

const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
console.log(
  `\nMedians of ${runs} run${runs === 1 ? '' : 's'} (full validation: 1 run), Node ${process.version}; ratio ${counted(largest)} ÷ ${counted(smallest)} rows (linear ≈ ${largest / smallest}).\n`,
);
console.log(`| shape | rows | ${COLUMNS.join(' | ')} |`);
console.log(`| --- | ---: | ${COLUMNS.map(() => '---:').join(' | ')} |`);
for (const [shapeName, bySize] of results) {
  for (const [size, timings] of bySize)
    console.log(`| ${shapeName} | ${counted(size)} | ${COLUMNS.map((column) => milliseconds(timings[column])).join(' | ')} |`);
  const [small, large] = [bySize.get(smallest), bySize.get(largest)];
  if (small && large && largest !== smallest)
    console.log(`| ${shapeName} | ratio | ${COLUMNS.map((column) => `${(large[column] / small[column]).toFixed(1)}×`).join(' | ')} |`);
}
