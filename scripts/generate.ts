/**
 * `npm run generate -- ROWS FILE [--quote=none|shipped|all] [--crlf] [--shape=wide]`: deterministic
 * synthetic data of the same shape as the embedded dataset, for the benchmarks and for tests that
 * need many rows; with `--shape=wide`, of another shape (scripts/lib/wide-shape.ts: 600 makes, one
 * of them 30 % of the rows, long mixed-script names), to measure the search on data it was not tuned to.
 *
 * Real exports differ in how much they quote, so the quoting is a choice (the rows' numbers are the
 * same whichever is chosen, only the names and the quotes differ):
 * - no `--quote`: quoted where needed, 1 name in 8 holding a comma and quotes (12.5 % of lines);
 * - `none`: no quote at all, no name holding a comma or a quote;
 * - `shipped`: data/captured-car-models.csv's ratio, 2 quoted lines in 259, spread evenly, their
 *   names holding a comma or doubled quotes as the shipped ones do;
 * - `all`: every text field quoted (the header, the names, the logos, empty ones too), numbers and
 *   booleans bare, as spreadsheets do when told to quote text cells.
 * `--crlf` ends lines with CR LF, as Excel and most Windows tools write them.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FIELDS, type CarModel } from '../src/data/schema.ts';
import { wideRecords } from './lib/wide-shape.ts';
import { random } from './lib/random.ts';

export const QUOTE_SHAPES = ['none', 'shipped', 'all'] as const;
export type QuoteShape = (typeof QUOTE_SHAPES)[number];

export function isQuoteShape(text: string): text is QuoteShape {
  return (QUOTE_SHAPES as readonly string[]).includes(text);
}

/** How the file is written; everything left out is the generator's original output. */
export interface CsvStyle {
  quote?: QuoteShape | undefined;
  crlf?: boolean;
  /** The rows' shape: the shipped file's (the default), or `wide` (scripts/lib/wide-shape.ts). */
  shape?: 'wide' | undefined;
}

const MAKES: readonly (readonly [local: string, latin: string, logo: string | null])[] = [
  ['豐田', 'Toyota', 'toyota'],
  ['本田', 'Honda', 'honda'],
  ['日產', 'Nissan', 'nissan'],
  ['萬事得', 'Mazda', 'mazda'],
  ['凌志', 'Lexus', 'lexus'],
  ['平治', 'Mercedes-Benz', 'mercedes-benz'],
  ['寶馬', 'BMW', 'bmw'],
  ['奧迪', 'Audi', 'audi'],
  ['福士', 'Volkswagen', 'volkswagen'],
  ['保時捷', 'Porsche', 'porsche'],
  ['富豪', 'Volvo', 'volvo'],
  ['特斯拉', 'Tesla', 'tesla'],
  ['比亞迪', 'BYD', 'byd'],
  ['現代', 'Hyundai', 'hyundai'],
  ['起亞', 'Kia', 'kia'],
  ['法拉利', 'Ferrari', null],
  ['小鵬', 'XPeng', null],
  ['阿爾法·羅密歐', 'Alfa Romeo', 'alfa-romeo'],
];
const MODELS = [
  'Alphard',
  'Civic',
  'Serena',
  'CX-5',
  'RX',
  'C 200',
  'X5',
  'Q7',
  'Golf',
  'Cayenne',
  'XC90',
  'Model Y',
  'Seal',
  'Ioniq 5',
  'EV9',
];
const VARIANTS = ['2.0', '2.5 Hybrid', '1.5 Turbo', 'Executive Lounge', 'AMG Line', 'Long Range', 'e:HEV', '"Limited", 7-Seater'];
/** The same variants with nothing a CSV must quote, index for index, so the random draws stay the same. */
const PLAIN_VARIANTS = VARIANTS.map((variant) => variant.replace(/[",]/g, ''));
/** What makes the shipped file's two quoted names quoted: a comma, and quotes inside the name. */
const QUOTED_SUFFIXES = [', 7-Seater', ' "Dynamic SE"'];
/** data/captured-car-models.csv: 2 of its 259 rows are quoted. */
const SHIPPED_QUOTED = { rows: 2, of: 259 };
/** Field indexes of the text fields (quoted in `all`); the others are numbers and booleans. */
const TEXT_FIELDS = new Set<number>([FIELDS.indexOf('combined_car_model'), FIELDS.indexOf('logo')]);
/** Lines a chunk: one stream chunk a line makes writing a million rows several times slower. */
const LINES_PER_CHUNK = 1000;

/** Whether row `index` is one of the shipped ratio's quoted rows: the ratio holds in every stretch of 259 rows. */
const shippedQuoted = (index: number) =>
  Math.floor(((index + 1) * SHIPPED_QUOTED.rows) / SHIPPED_QUOTED.of) > Math.floor((index * SHIPPED_QUOTED.rows) / SHIPPED_QUOTED.of);

/** The name of row `index`, drawn with the same random numbers whatever the shape. */
function nameOf(
  index: number,
  { make, model, variant }: { make: string; model: string; variant: number },
  quote: QuoteShape | undefined,
): string {
  if (quote === undefined || quote === 'all') return `${make} ${model} ${VARIANTS[variant]!}`;
  const plain = `${make} ${model} ${PLAIN_VARIANTS[variant]!}`;
  if (quote === 'none' || !shippedQuoted(index)) return plain;
  return `${plain}${QUOTED_SUFFIXES[Math.floor((index * SHIPPED_QUOTED.rows) / SHIPPED_QUOTED.of) % QUOTED_SUFFIXES.length]!}`;
}

/** The CSV cells of `rows` synthetic models, one array a row. */
function* syntheticRows(rows: number, seed: number, quote: QuoteShape | undefined): Generator<string[]> {
  const next = random(seed);
  const pickIndex = (length: number) => Math.floor(next() * length);
  const pick = <T>(items: readonly T[]): T => items[pickIndex(items.length)]!;
  for (let index = 0; index < rows; index += 1) {
    const [local, latin, logo] = pick(MAKES);
    const electric = next() < 0.15;
    const minSeat = pick([2, 4, 5, 5, 5, 7]);
    const maxSeat = minSeat + (next() < 0.2 ? pick([1, 2, 3]) : 0);
    const minEngine = electric ? 0 : 1000 + Math.floor(next() * 4000);
    const maxEngine = electric ? 0 : minEngine + (next() < 0.3 ? Math.floor(next() * 1000) : 0);
    const minPrice = 150_000 + Math.floor(next() * 3_000_000);
    const maxPrice = minPrice + (next() < 0.6 ? Math.floor(next() * 500_000) : 0) + (next() < 0.1 ? 0.5 : 0);
    const auto = next() < 0.95;
    const hand = !auto || next() < 0.1;
    const id = index + 1;
    const uniqueId = 100_000 + id;
    // Drawn here, after the numbers: the same seed gives the same rows, whatever the quoting.
    const model = pick(MODELS);
    const name = nameOf(index, { make: `${local} ${latin}`, model, variant: pickIndex(VARIANTS.length) }, quote);
    yield [
      String(id),
      name,
      String(uniqueId),
      String(minSeat),
      String(maxSeat),
      String(minEngine),
      String(maxEngine),
      next() < 0.5 ? minPrice.toFixed(2) : String(minPrice),
      next() < 0.5 ? maxPrice.toFixed(2) : String(maxPrice),
      String(auto),
      String(hand),
      String(uniqueId),
      logo === null ? '' : `media/brand/logo/${logo}.svg`,
    ];
  }
}

const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
/** What csv-stringify quotes by default, so that the original output stays byte for byte what it was. */
const needsQuotes = (cell: string) => /[",\r\n]/.test(cell);

/** One CSV line (without its end) of `cells`, quoted as `quote` says. */
const lineOf = (cells: readonly string[], quote: QuoteShape | undefined) =>
  cells.map((cell, field) => (needsQuotes(cell) || (quote === 'all' && TEXT_FIELDS.has(field)) ? quoted(cell) : cell)).join(',');

/** A record's CSV cells, in FIELDS' order (null as an empty cell). */
function* cellsOf(records: Iterable<CarModel>): Generator<string[]> {
  for (const record of records) yield FIELDS.map((field) => String(record[field] ?? ''));
}

/** The file's text, header first, a chunk of lines at a time. */
function* csvChunks(rows: number, seed: number, { quote, crlf = false, shape }: CsvStyle): Generator<string> {
  const end = crlf ? '\r\n' : '\n';
  // A spreadsheet quoting its text cells quotes the header's too: they are text.
  let chunk = `${quote === 'all' ? FIELDS.map(quoted).join(',') : FIELDS.join(',')}${end}`;
  let lines = 0;
  for (const cells of shape === 'wide' ? cellsOf(wideRecords(rows, seed)) : syntheticRows(rows, seed, quote)) {
    chunk += `${lineOf(cells, quote)}${end}`;
    if (++lines % LINES_PER_CHUNK === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** Writes `rows` synthetic models to `file`, header first, quoted and ended as `style` says. */
export async function writeSyntheticCsv(file: string, rows: number, seed = 20261122, style: CsvStyle = {}): Promise<void> {
  await pipeline(Readable.from(csvChunks(rows, seed, style)), createWriteStream(file));
}

// Run as a script (`import.meta.main`: whatever the path's spaces or drive letter), not imported by the tests and the bench.
if (import.meta.main) {
  const args = process.argv.slice(2);
  const positional = args.filter((arg) => !arg.startsWith('--'));
  const flags = args.filter((arg) => arg.startsWith('--'));
  const quote = flags.find((flag) => flag.startsWith('--quote='))?.slice('--quote='.length);
  const shape = flags.find((flag) => flag.startsWith('--shape='))?.slice('--shape='.length);
  const known = (flag: string) => flag === '--crlf' || flag.startsWith('--quote=') || flag.startsWith('--shape=');
  const [rows, file] = positional;
  if (
    !rows ||
    !file ||
    positional.length > 2 ||
    !/^\d+$/.test(rows) ||
    !flags.every(known) ||
    (quote !== undefined && !isQuoteShape(quote)) ||
    (shape !== undefined && shape !== 'wide')
  ) {
    console.error(`usage: npm run generate -- ROWS FILE [--quote=${QUOTE_SHAPES.join('|')}] [--crlf] [--shape=wide]`);
    process.exit(2);
  }
  try {
    await writeSyntheticCsv(file, Number(rows), undefined, { quote, crlf: flags.includes('--crlf'), shape });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(`${file}: cannot be written (${code ?? String(error)}): check that its folder exists and can be written.`);
    process.exit(1);
  }
}
