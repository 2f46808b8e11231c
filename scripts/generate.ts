/**
 * `npm run generate -- ROWS FILE`: deterministic synthetic data of the same shape as the embedded
 * dataset, for the benchmarks and for tests that need many rows.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { FIELDS } from '../src/data/schema.ts';

const MAKES: readonly (readonly [local: string, latin: string, logo: string | null])[] = [
  ['豐田', 'Toyota', 'toyota'], ['本田', 'Honda', 'honda'], ['日產', 'Nissan', 'nissan'], ['萬事得', 'Mazda', 'mazda'],
  ['凌志', 'Lexus', 'lexus'], ['平治', 'Mercedes-Benz', 'mercedes-benz'], ['寶馬', 'BMW', 'bmw'], ['奧迪', 'Audi', 'audi'],
  ['福士', 'Volkswagen', 'volkswagen'], ['保時捷', 'Porsche', 'porsche'], ['富豪', 'Volvo', 'volvo'], ['特斯拉', 'Tesla', 'tesla'],
  ['比亞迪', 'BYD', 'byd'], ['現代', 'Hyundai', 'hyundai'], ['起亞', 'Kia', 'kia'], ['法拉利', 'Ferrari', null],
  ['小鵬', 'XPeng', null], ['阿爾法·羅密歐', 'Alfa Romeo', 'alfa-romeo'],
];
const MODELS = ['Alphard', 'Civic', 'Serena', 'CX-5', 'RX', 'C 200', 'X5', 'Q7', 'Golf', 'Cayenne', 'XC90', 'Model Y', 'Seal', 'Ioniq 5', 'EV9'];
const VARIANTS = ['2.0', '2.5 Hybrid', '1.5 Turbo', 'Executive Lounge', 'AMG Line', 'Long Range', 'e:HEV', '"Limited", 7-Seater'];

/** A small fast PRNG (mulberry32): the same seed gives the same file on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The CSV cells of `rows` synthetic models, one array a row. */
function* syntheticRows(rows: number, seed = 20261122): Generator<string[]> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
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
    yield [
      String(id),
      `${local} ${latin} ${pick(MODELS)} ${pick(VARIANTS)}`,
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

/** Writes `rows` synthetic models to `file`, header first, quoted where csv-stringify needs to. */
export async function writeSyntheticCsv(file: string, rows: number, seed?: number): Promise<void> {
  await pipeline(Readable.from(syntheticRows(rows, seed)), stringify({ header: true, columns: [...FIELDS] }), createWriteStream(file));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [rows, file] = process.argv.slice(2);
  if (!rows || !file || !/^\d+$/.test(rows)) {
    console.error('usage: npm run generate -- ROWS FILE');
    process.exit(2);
  }
  await writeSyntheticCsv(file, Number(rows));
}
