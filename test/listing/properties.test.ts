/** Property-based tests (fast-check): for any valid dataset, the page math and serialiser hold. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDownloadFiles } from '../../src/outputs/downloads.ts';
import { PAGE_SIZE, pageCount, pageFromQuery, pageNumbers } from '../../src/listing/pagination.ts';
import { readDataFile } from '../../src/data/read.ts';
import { inChunks } from '../../src/data/records-file.ts';
import { carModelSchema, LIMITS, type CarModel } from '../../src/data/schema.ts';
import { pythonFloat, serialisePage } from '../../src/listing/serialise.ts';

const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://assets.example.com/static' };

/** Every property run's downloads, in one folder removed after the file (hundreds of runs). */
const downloadsRoot = mkdtempSync(join(tmpdir(), 'properties-'));
afterAll(() => rmSync(downloadsRoot, { recursive: true, force: true }));

/** The downloads of `records` as the build writes them, in a new folder; returns the folder. */
function writtenDownloads(records: readonly CarModel[]): string {
  const dir = mkdtempSync(join(downloadsRoot, 'downloads-'));
  writeDownloadFiles(dir, { chunks: () => inChunks(records), slice: (start, end) => records.slice(start, end) }, addresses.assetsUrl);
  return dir;
}

const range = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.integer({ min, max })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
const priceRange = range(1, 99_999_999_999).map(([a, b]) => [a / 100, b / 100] as const);
const segment = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,11}$/).filter((text) => text !== '.' && text !== '..');
const logo = fc.option(
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
  { nil: null },
);
const name = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
  .filter((text) => carModelSchema.shape.combined_car_model.safeParse(text).success);

const carModel = fc
  .record({
    id: fc.integer({ min: 1, max: LIMITS.maxId }),
    name,
    uniqueId: fc.integer({ min: 1, max: LIMITS.maxId }),
    seats: range(1, LIMITS.maxSeats),
    engine: range(0, LIMITS.maxEngineSize),
    price: priceRange,
    transmissions: fc.constantFrom([true, false], [false, true], [true, true]),
    logo,
  })
  .map((draw): CarModel => ({
    id: draw.id,
    combined_car_model: draw.name,
    combined_car_model_unique_id: draw.uniqueId,
    min_seat: draw.seats[0],
    max_seat: draw.seats[1],
    min_engine_size: draw.engine[0],
    max_engine_size: draw.engine[1],
    min_price: draw.price[0],
    max_price: draw.price[1],
    has_operation_type_auto: draw.transmissions[0],
    has_operation_type_hand: draw.transmissions[1],
    capture_combined_car_model_yearly_unique_id: draw.uniqueId,
    logo: draw.logo,
  }));
// `size: 'max'`: fast-check's default size draws at most 10 records, one page, and the paging properties would check nothing.
const dataset = fc.uniqueArray(carModel, { selector: (model) => model.id, maxLength: 45, size: 'max' });

interface Envelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: (Omit<CarModel, 'logo'> & { logo: string | null })[];
}
const pagesOf = (records: CarModel[]) => pageNumbers(records.length).map((page) => serialisePage(records, page, addresses));
const pageNumberOf = (link: string) => Number(new URL(link).searchParams.get('page'));

describe('for any valid dataset', () => {
  it('draws listings of several pages, so that the properties below are tested across pages', () => {
    expect(Math.max(...fc.sample(dataset, 100).map((records) => pageCount(records.length)))).toBeGreaterThanOrEqual(3);
  });

  it('pages partition the listing in order, with the same count on every page', () => {
    fc.assert(
      fc.property(dataset, (records) => {
        const pages = pagesOf(records).map((text) => JSON.parse(text) as Envelope);
        expect(pages).toHaveLength(pageCount(records.length));
        expect(pages.flatMap((page) => page.results.map((result) => result.id))).toEqual(records.map((record) => record.id));
        pages.forEach((page, index) => {
          expect(page.count).toBe(records.length);
          if (index < pages.length - 1) expect(page.results).toHaveLength(PAGE_SIZE);
          else expect(page.results.length).toBeLessThanOrEqual(PAGE_SIZE);
        });
      }),
    );
  });

  it('next chains from the first page to the last and previous chains back', () => {
    fc.assert(
      fc.property(dataset, (records) => {
        const pages = pagesOf(records).map((text) => JSON.parse(text) as Envelope);
        const forward = [1];
        for (let page = pages[0]; page?.next; page = pages[pageNumberOf(page.next) - 1]) forward.push(pageNumberOf(page.next));
        expect(forward).toEqual(pageNumbers(records.length));
        const backward = [pages.length];
        for (let page = pages.at(-1); page?.previous; page = pages[pageNumberOf(page.previous) - 1])
          backward.push(pageNumberOf(page.previous));
        expect(backward).toEqual(pageNumbers(records.length).reverse());
        expect(pages[0]?.previous).toBeNull();
        expect(pages.at(-1)?.next).toBeNull();
      }),
    );
  });

  it('every page parses and re-serialises to the same bytes', () => {
    fc.assert(
      fc.property(dataset, (records) => {
        const pages = pagesOf(records);
        const parsed = pages.flatMap((text) => (JSON.parse(text) as Envelope).results);
        const back = parsed.map((result) => ({
          ...result,
          logo: result.logo === null ? null : result.logo.slice(addresses.assetsUrl.length + 1),
        }));
        expect(pagesOf(back)).toEqual(pages);
      }),
    );
  });

  it('the CSV export loads back into the same records, so the same pages', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, async (records) => {
        // Read as soon as it is written: not waited for as a file a maintainer is saving.
        const { records: loaded, problems } = await readDataFile(join(writtenDownloads(records), 'all.csv'), { quietMs: 0 });
        expect(problems).toEqual([]);
        expect(loaded).toEqual(records);
      }),
      { numRuns: 60 },
    );
  });
});

describe('Python float rendering', () => {
  it('always reads back as the same number and always shows it is a float', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = pythonFloat(value);
        expect(Number(text)).toBe(value);
        expect(text).toMatch(/[.e]/);
      }),
      { numRuns: 2000 },
    );
  });

  it("writes what Python's own repr() writes, prices and doubles of every magnitude alike", () => {
    const prices = fc.sample(
      fc.integer({ min: 1, max: 99_999_999_999_999 }).map((cents) => cents / 100),
      3000,
    );
    const doubles = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), 3000);
    const edges = [1e-4, 9.999999999999999e-5, 1e16, 1e16 - 2, 0.1 + 0.2, -0, 5e-324, Number.MAX_VALUE];
    const values = [...prices, ...doubles, ...edges];
    // Each value goes to Python exactly, as the hex of its bits.
    const script = 'import sys,struct\nfor line in sys.stdin: print(repr(struct.unpack(">d", bytes.fromhex(line.strip()))[0]))';
    const input = values
      .map((value) =>
        Buffer.from(new Float64Array([value]).buffer)
          .reverse()
          .toString('hex'),
      )
      .join('\n');
    const python = execFileSync('python3', ['-c', script], { input, encoding: 'utf8' }).trim().split('\n');
    expect(values.map((value) => pythonFloat(value))).toEqual(python);
  });
});

describe('DRF page numbers', () => {
  it('accept every existing page, with or without leading zeros, and nothing past the last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 3 }), (count, zeros) => {
        const last = pageCount(count);
        const page = (count % last) + 1;
        expect(pageFromQuery(`${'0'.repeat(zeros)}${page}`, count)).toBe(page);
        expect(pageFromQuery(String(last + 1), count)).toBeNull();
      }),
    );
  });
});
