/**
 * The search index as the build writes it, read as the browser reads it (src/listing/search-reader.ts
 * with the files read from disk): every search finds exactly the rows that meet it, in its order,
 * a step at a time within STEP_FILES files, and says its count exactly wherever it says it is exact.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { carModel } from '../support/models.ts';
import { tempDir } from '../support/site.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { writeSearchFiles } from '../../src/outputs/search-files.ts';
import { countOf, readStep, searchable, startSearch, STEP_FILES, type IndexReader } from '../../src/listing/search-reader.ts';
import {
  entryOf,
  effectiveSort,
  entryMatches,
  filterId,
  filterPath,
  orderChunkPath,
  PRICE_FROM_PATH,
  SHARDS_PATH,
  SORT_KEYS,
  sortEntries,
  tokensOf,
  WHOLE_LISTING_UP_TO,
  type Criteria,
  type Entry,
  type FilterDocument,
  type PriceFrom,
  type SortKey,
} from '../../src/listing/search.ts';
import { makeKeyOf } from '../../src/listing/makes.ts';
import { wideRecords } from '../../scripts/lib/wide-shape.ts';

/** What the reader asks for ahead at most (MOST_AHEAD in search-reader.ts). */
const MOST_FILES_AHEAD = 8;

const workspace = tempDir('search-files');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const MAKES = [
  ['豐田', 'Toyota'],
  ['本田', 'Honda'],
  ['雪鐵龍', 'Citroën'],
  ['阿爾法·羅密歐', 'Alfa Romeo'],
  ['特斯拉', 'Tesla'],
  ['平治', 'Mercedes-Benz'],
] as const;
const MODELS = ['Alphard', 'Civic', 'C5 Aircross', 'Giulia', 'Model Y', 'C 200', 'Yaris', 'e:HEV', 'GR86', 'Rare One'];

/** A listing of `rows` rows of a skewed shape: a few common makes and words, rare ones, ranges and ties. */
function listing(rows: number, seed: number): CarModel[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: rows }, (_, index) => {
    const [local, latin] = MAKES[Math.floor(random() ** 2 * MAKES.length)]!;
    const model = MODELS[Math.floor(random() ** 3 * MODELS.length)]!;
    const seats = 2 + Math.floor(random() * 7);
    // Some prices on a round price (a price step), some with cents.
    const roll = random();
    const price =
      roll < 0.05 ? [500_000, 600_000, 1_000_000][index % 3]! : Math.round(100_000 + random() * 2_000_000) + (roll < 0.08 ? 0.5 : 0);
    const ranged = random();
    const electric = random() < 0.1;
    return carModel(index + 1, `${local} ${latin} ${model}${random() < 0.01 ? ` Edition ${index}` : ''}`, {
      min_seat: seats,
      max_seat: seats + (random() < 0.2 ? 2 : 0),
      min_engine_size: electric ? 0 : 1500,
      max_engine_size: electric ? 0 : random() < 0.1 ? 3000 : 1500,
      min_price: price,
      max_price: ranged < 0.05 && price <= 600_000 ? 600_000 : price + (ranged < 0.3 ? Math.round(random() * 300_000) : 0),
      has_operation_type_auto: random() < 0.9,
      has_operation_type_hand: random() < 0.2,
      logo: random() < 0.05 ? null : `media/brand/logo/${latin.toLowerCase()}.svg`,
    });
  }).map((record) =>
    record.has_operation_type_auto || record.has_operation_type_hand ? record : { ...record, has_operation_type_auto: true },
  );
}

/** The index of `records` written to disk, and a reader of it that counts the files each step reads and their bytes, gzipped as a host sends them. */
function writtenIndex(records: CarModel[], name: string) {
  const dir = join(workspace, name);
  const hashes = writeSearchFiles(dir, [records.slice(0, 1000), records.slice(1000)]).files;
  // The files read (the browser keeps what it fetched: a file asked for twice is fetched once), and their bytes.
  const paths = new Map<string, number>();
  const read: IndexReader = async <T>(path: string, ifThere = false) => {
    const file = join(dir, path.slice(1));
    if (ifThere && !existsSync(file)) return undefined as T;
    const bytes = readFileSync(file);
    paths.set(path, gzipSync(bytes).length);
    return JSON.parse(bytes.toString('utf8')) as T;
  };
  const readSince = (action: () => Promise<unknown>) => {
    paths.clear();
    return action().then(() => paths.size);
  };
  const bytesRead = () => [...paths.values()].reduce((sum, bytes) => sum + bytes, 0);
  const pathsRead = () => [...paths.keys()];
  const entries = records.map(entryOf);
  /** The positions a search of `criteria` finds, step by step to its end, and those every row says it should, in its order. */
  const foundToTheEnd = async (criteria: Criteria) => {
    const search = await startSearch(read, criteria, records.length);
    while (!search.ended) {
      await readStep(search);
      search.shown = search.matches.length;
    }
    const expected = sortEntries(
      entries.filter((entry) => entryMatches(entry, criteria, [])),
      effectiveSort(criteria),
    );
    return { found: search.matches.map(([position]) => position), expected: expected.map(([position]) => position) };
  };
  return { dir, hashes, read, readSince, bytesRead, pathsRead, entries, foundToTheEnd };
}

const criteriaArbitrary = fc.record(
  {
    q: fc.constantFrom(
      ...['toy', 'TOYOTA', 'citroen', '羅密歐', '豐田', 'civic', 'c', 'rare', 'model y', 'edition', 'zzz', 'c 2', 'alf gi'],
      // Spelt across a stored space or hyphen: read from the list of the run before it.
      ...['modely', 'c200', 'c-20', 'toyotaal', '阿爾法羅密歐', 'gr-86', 'mercedesbenzc', 'alfaromeogiu'],
    ),
    make: fc.constantFrom('豐田', '本田', '阿爾法·羅密歐', '福特'),
    seats: fc.integer({ min: 1, max: 10 }),
    priceMin: fc.integer({ min: 0, max: 2_500_000 }),
    priceMax: fc.integer({ min: 0, max: 2_500_000 }),
    transmission: fc.constantFrom('auto' as const, 'manual' as const),
    electric: fc.constant(true),
    sort: fc.constantFrom(...SORT_KEYS),
  },
  { requiredKeys: [] },
);

describe.each([
  { rows: 300, seed: 7 },
  { rows: 5000, seed: 11 },
])('the search index of $rows rows', ({ rows, seed }) => {
  const index = writtenIndex(listing(rows, seed), `rows-${rows}`);

  it(`${rows <= WHOLE_LISTING_UP_TO ? 'is the orders alone (no filter or word lists, no filter documents, no word shards)' : 'has filter and word lists, filter documents and word shards'}`, () => {
    const written = Object.keys(index.hashes);
    if (rows <= WHOLE_LISTING_UP_TO) {
      expect(written.filter((path) => !path.startsWith('search/order/') && path.startsWith('search/'))).toEqual([]);
      return;
    }
    const toyota = JSON.parse(readFileSync(join(index.dir, filterPath(filterId.make('豐田')).slice(1)), 'utf8')) as FilterDocument;
    expect(toyota[1]).toBe(index.entries.filter((entry) => entryMatches(entry, { make: '豐田' }, [])).length);
    expect(written.filter((path) => path.startsWith('search/in/filter-')).length).toBeGreaterThan(0);
    expect((JSON.parse(readFileSync(join(index.dir, SHARDS_PATH.slice(1)), 'utf8')) as string[]).length).toBeGreaterThan(0);
  });

  it('finds exactly the rows every search meets, in its order, a step at a time within STEP_FILES files, with an exact count where it says so', async () => {
    await fc.assert(
      fc.asyncProperty(criteriaArbitrary, async (criteria: Criteria) => {
        const expected = sortEntries(
          index.entries.filter((entry) => entryMatches(entry, criteria, tokensOf(criteria.q ?? ''))),
          effectiveSort(criteria),
        ).map(([position]) => position);
        if (!searchable(criteria)) return;
        const search = await startSearch(index.read, criteria, rows);
        for (let step = 0; !search.ended; step += 1) {
          // Its files and those asked for ahead (the lists, shards and directories looked up come before).
          const files = await index.readSince(() => readStep(search));
          expect(files, 'files read in one step').toBeLessThanOrEqual(STEP_FILES + MOST_FILES_AHEAD);
          const { count, kind } = countOf(search);
          if (kind === 'exact') expect(count, JSON.stringify(criteria)).toBe(expected.length);
          search.shown = search.matches.length;
          expect(step).toBeLessThan(rows);
        }
        expect(
          search.matches.map(([position]) => position),
          JSON.stringify(criteria),
        ).toEqual(expected);
      }),
      // Besides the random ones: common words alone (each read from its head, then the listing) and with a filter, and price ranges.
      {
        numRuns: 300,
        seed,
        examples: [
          [{ q: 'toyota' }],
          [{ q: 'toy', seats: 5 }],
          [{ q: 'alphard' }],
          [{ q: 'honda', transmission: 'manual' }],
          // Price ranges from a step and between steps (the rows spanning it, then the price order), and the two ends alone.
          [{ priceMin: 500_000, priceMax: 520_000 }],
          [{ priceMin: 540_000 }],
          [{ priceMax: 300_000, seats: 5 }],
          [{ priceMin: 1_000_000, priceMax: 900_000 }],
          [{ priceMin: 2_050_000, sort: 'price' }],
          [{ priceMin: 600_000, priceMax: 600_000 }],
          [{ priceMax: 50_000 }],
        ],
      },
    );
  });

  it('writes the same bytes for the same listing', () => {
    const again = writeSearchFiles(join(workspace, `again-${rows}`), [listing(rows, seed)]).files;
    expect(again).toEqual(index.hashes);
  });
});

describe('the cost of a search on a large listing', () => {
  const index = writtenIndex(listing(20_000, 3), 'rows-20000');

  it.each<[string, number, Criteria]>([
    // Its first file: every row of it is a result.
    ['a sort alone', 1, { sort: '-price' }],
    // Read backwards, the name order's last file is short: that one, then two more asked for at once.
    ['a sort alone, backwards', 3, { sort: '-name' }],
    // The make's document and its list's first file.
    ['a make alone', 2, { make: '阿爾法·羅密歐' }],
    // The make's document and the last file of its list in name order.
    ['a make sorted by name, backwards', 2, { make: '阿爾法·羅密歐', sort: '-name' }],
    // The documents of both, and the first file of the make's stretch of the seat count's list in name order: every row of it is a result.
    ['a make and a seat count sorted by name', 3, { make: '阿爾法·羅密歐', seats: 5, sort: 'name' }],
    // shards.json, the word's shard, its list.
    ['a rare word', 6, { q: 'edition' }],
    // shards.json, the word's shard, the first file of its head (the word is in most rows).
    ['a common word', 3, { q: 'toyota' }],
    // The same, with a filter that few of its rows meet: the head's files, asked for at once.
    ['a common word and a filter', 2 + MOST_FILES_AHEAD, { q: 'toyota', electric: true }],
    // The price steps and the first file of the list of rows spanning 500,000 (a step): each of them is a result.
    ['a price range', 2, { priceMin: 500_000, priceMax: 520_000 }],
    // From a price between steps: the list of the step below, whose rows ending below the range are read and dropped.
    ['a price range between steps', 4, { priceMin: 540_000, priceMax: 560_000 }],
    // High to low: the high-price order's directory, one group's, and the files that can hold the range.
    ['a price range, high to low', 2 + MOST_FILES_AHEAD, { priceMin: 500_000, priceMax: 520_000, sort: '-price' }],
  ])('%s reads at most %i files, those asked for ahead included, for its first step', async (_what, most, criteria) => {
    const files = await index.readSince(async () => {
      const search = await startSearch(index.read, criteria, 20_000);
      await readStep(search);
      expect(search.matches.length).toBeGreaterThan(0);
    });
    expect(files).toBeLessThanOrEqual(most);
  });

  it.each(['engine', '-engine'] as const)(
    'reads electric models sorted by %s in listing order, where their engine sizes (all 0) put them',
    async (sort) => {
      const criteria: Criteria = { make: '平治', electric: true, sort };
      await index.readSince(async () => {
        const search = await startSearch(index.read, criteria, 20_000);
        await readStep(search);
        expect(search.matches.map(([position]) => position)).toEqual(
          sortEntries(
            index.entries.filter((entry) => entryMatches(entry, criteria, [])),
            sort,
          )
            .slice(0, search.matches.length)
            .map(([position]) => position),
        );
        expect(search.matches.length).toBeGreaterThanOrEqual(50);
      });
      expect(index.pathsRead().filter((path) => /engine/.test(path))).toEqual([]);
    },
  );

  it('says a count a person can trust at every step: exact, or about one within 10 %, or at least one that is true', async () => {
    await fc.assert(
      fc.asyncProperty(criteriaArbitrary, async (criteria: Criteria) => {
        if (!searchable(criteria)) return;
        const truth = index.entries.filter((entry) => entryMatches(entry, criteria, tokensOf(criteria.q ?? ''))).length;
        const search = await startSearch(index.read, criteria, 20_000);
        for (let step = 0; !search.ended && step < 40; step += 1) {
          await readStep(search);
          const { count, kind } = countOf(search);
          const said = `${JSON.stringify(criteria)}, step ${step}: ${kind} ${count}, ${truth} match`;
          if (kind === 'exact') expect(count, said).toBe(truth);
          else if (kind === 'about') expect(Math.abs(count - truth), said).toBeLessThanOrEqual(0.1 * truth);
          else expect(count, said).toBeLessThanOrEqual(truth);
          search.shown = search.matches.length;
        }
      }),
      { numRuns: 150, seed: 20_000, examples: [[{ seats: 5, transmission: 'auto', sort: 'seats' }]] },
    );
  });

  it.each<[string, number, Criteria]>([
    ['below every price', 0, { priceMax: 50_000 }],
    // Those asked for ahead, at most GROWN_AHEAD (search-reader.ts) past the last.
    ['a narrow range', 4, { priceMin: 500_000, priceMax: 501_000 }],
  ])('a price range %s ends at the first file of the price order that ends above it', async (_what, ahead, criteria) => {
    const readJson = <T>(path: string) => JSON.parse(readFileSync(join(index.dir, path.slice(1)), 'utf8')) as T;
    const steps = readJson<PriceFrom>(PRICE_FROM_PATH);
    const [, spanning, first] = steps.findLast(([price]) => price <= (criteria.priceMin ?? 0))!;
    // The price order's files from the step's first to the first that ends past the range, as they are on disk.
    let last = first;
    while (readJson<Entry[]>(orderChunkPath('price', last)).at(-1)![6] <= criteria.priceMax!) last += 1;
    const files = await index.readSince(async () => {
      const search = await startSearch(index.read, criteria, 20_000);
      while (!search.ended) {
        search.shown = search.matches.length;
        await readStep(search);
      }
    });
    // from.json, the spanning list, those files, and those asked for ahead.
    expect(files).toBeLessThanOrEqual(1 + Math.ceil(spanning / 64) + (last - first + 1) + ahead);
  });
});

describe.each([
  { shape: "the tests' skewed shape", records: () => listing(20_000, 5) },
  { shape: "the generator's wide shape (600 makes, one of them 30 %)", records: () => [...wideRecords(20_000, 5)] },
])('a filter and a sort at 20,000 rows of $shape', ({ records }) => {
  const listed = records();
  const index = writtenIndex(listed, `sorted-${listed[0]!.id}-${listed[1]!.combined_car_model.length}`);
  const documentOf = (id: string) => JSON.parse(readFileSync(join(index.dir, filterPath(id).slice(1)), 'utf8')) as FilterDocument;
  const makes = new Map<string, number>();
  for (const entry of index.entries) makes.set(makeKeyOf(entry[1]), (makes.get(makeKeyOf(entry[1])) ?? 0) + 1);
  // Those with a list of their own (at most 40 % of the rows: the others are read from the listing's orders), by size.
  const bySize = [...makes].filter(([make]) => documentOf(filterId.make(make))[0] !== null).sort(([, a], [, b]) => b - a);
  // The largest, and the smallest of more than 100 rows (1 % of the rows in the wide shape).
  const chosen = [bySize[0]![0], bySize.findLast(([, count]) => count > 100)![0]];

  /** Files a filter and a sort read for the first step: its document and a file of its list (two backwards, where its last is short). */
  const filesFor = (sort: SortKey) => (sort === '-name' ? 3 : 2);

  it.each(chosen.flatMap((make) => SORT_KEYS.map((sort): Criteria => ({ make, sort }))))(
    'a make and a sort read its document and one file of its list in that order, 5 kB at most: %j',
    async (criteria) => {
      const files = await index.readSince(async () => {
        const search = await startSearch(index.read, criteria, listed.length);
        await readStep(search);
        expect(search.matches.length).toBeGreaterThanOrEqual(50);
        expect(countOf(search).kind).toBe('exact');
      });
      expect(files).toBeLessThanOrEqual(filesFor(criteria.sort!));
      expect(index.bytesRead()).toBeLessThanOrEqual(5_000);
    },
  );

  it.each<Criteria>([
    { electric: true, sort: 'price' },
    { transmission: 'manual', sort: '-engine' },
    { seats: 3, sort: 'seats' },
    { seats: 7, sort: '-name' },
  ])('another filter and a sort read its document and one file of its list, 5 kB at most: %j', async (criteria) => {
    const files = await index.readSince(async () => {
      const search = await startSearch(index.read, criteria, listed.length);
      await readStep(search);
      expect(search.matches.length).toBeGreaterThanOrEqual(50);
    });
    expect(files).toBeLessThanOrEqual(filesFor(criteria.sort!));
    expect(index.bytesRead()).toBeLessThanOrEqual(5_000);
  });

  it.each(['name', '-name'] as const)(
    "a make and a seat count sorted by %s read the make's stretch of the seat count's list in name order: the documents and a file, 5 kB at most",
    async (sort) => {
      const [make] = chosen as [string];
      const [seatsList] = documentOf(filterId.seats(5));
      const files = await index.readSince(async () => {
        const search = await startSearch(index.read, { make, seats: 5, sort }, listed.length);
        await readStep(search);
        expect(search.matches.length).toBeGreaterThanOrEqual(50);
        expect(countOf(search).kind).toBe('exact');
      });
      expect(index.pathsRead().filter((path) => path.startsWith('/search/in/'))).toEqual([
        expect.stringMatching(new RegExp(`^/search/in/${seatsList}/name/`)),
      ]);
      expect(files).toBe(3);
      expect(index.bytesRead()).toBeLessThanOrEqual(5_000);
    },
  );

  it('finds the rows a make and another filter meet by name, in their order, step by step to the end', async () => {
    for (const criteria of [
      { make: chosen[0]!, seats: 5, sort: '-name' },
      { make: chosen[0]!, seats: 7, transmission: 'manual', sort: 'name' },
      { make: chosen[1]!, seats: 5, sort: 'name' },
    ] satisfies Criteria[]) {
      const { found, expected } = await index.foundToTheEnd(criteria);
      expect(found).toEqual(expected);
    }
  });

  it('finds the rows a make and a sort meet, in their order, step by step to the end', async () => {
    for (const sort of ['-price', 'name', 'seats'] as const) {
      const { found, expected } = await index.foundToTheEnd({ make: chosen[1]!, sort });
      expect(found).toEqual(expected);
    }
  });
});

describe("a make whose names' Latin parts begin otherwise, scattered through the name order", () => {
  // 豐田's names are Toyota's, and some Lexus' and Nissan's: its rows in a seat count's list in name order lie apart, with 凌志's and 日產's between.
  const NAMES = [
    '豐田 Toyota Alphard',
    '凌志 Lexus ES',
    '豐田 Lexus LM',
    '日產 Nissan Serena',
    '豐田 Nissan Toyota-built',
    '豐田 Toyota Yaris',
  ];
  const records = Array.from({ length: 4_000 }, (_, at) =>
    carModel(at + 1, `${NAMES[(at * 7) % NAMES.length]!} ${at % 90}`, {
      min_seat: 4 + (Math.floor(at / 6) % 3),
      max_seat: 4 + (Math.floor(at / 6) % 3),
    }),
  );
  const index = writtenIndex(records, 'scattered');

  it("has 豐田's stretch of the five seats' list in name order span the other makes' rows between its own", () => {
    const document = JSON.parse(readFileSync(join(index.dir, filterPath(filterId.make('豐田')).slice(1)), 'utf8')) as FilterDocument;
    const [, , , , counts, , stretches] = document;
    expect(stretches[filterId.seats(5)]![2]).toBeGreaterThan(counts[filterId.seats(5)]!);
  });

  it.each<Criteria>([
    { make: '豐田', seats: 5, sort: 'name' },
    { make: '豐田', seats: 5, sort: '-name' },
    { make: '凌志', seats: 6, sort: '-name' },
    { make: '日產', seats: 4, sort: 'name' },
  ])('finds every row of %j, in its order, step by step to the end', async (criteria) => {
    const { found, expected } = await index.foundToTheEnd(criteria);
    expect(found).toEqual(expected);
    expect(expected.length).toBeGreaterThan(200);
  });
});

describe('a model code spelt with or without its hyphens and spaces, through the index', () => {
  const SPELT = [
    ['豐田 Toyota RAV4 2.5 Hybrid', '豐田 Toyota RAV-4 2.5', '豐田 Toyota RAV 4 Adventure'],
    ['平治 Mercedes-Benz C200', '平治 Mercedes-Benz C 200 AMG Line', '平治 Mercedes-Benz C-200 Estate'],
    ['阿爾法·羅密歐 Alfa Romeo Giulia', '阿爾法羅密歐 Alfa Romeo Stelvio', '阿爾法 羅密歐 Alfa Romeo Tonale'],
  ] as const;
  // Past WHOLE_LISTING_UP_TO rows, so each typed word is looked up in the word shards; most rows are of other names.
  const records = Array.from({ length: 3_000 }, (_, at) => {
    const spelt = SPELT[at % 7]?.[Math.floor(at / 7) % 3];
    return carModel(at + 1, spelt ?? `本田 Honda Civic ${at % 50}`);
  });
  const index = writtenIndex(records, 'spelt');

  it.each<[string, number]>([
    ['rav4', 0],
    ['RAV-4', 0],
    ['rav 4', 0],
    ['toyota rav‐4', 0],
    ['c200', 1],
    ['C-200', 1],
    ['c 200', 1],
    ['benz c200', 1],
    ['阿爾法羅密歐', 2],
    ['阿爾法-羅密歐', 2],
    ['阿爾法·羅密歐', 2],
    ['法羅密', 2],
  ])('%s finds every spelling', async (q, spelling) => {
    const expected = records.flatMap((record, position) =>
      (SPELT[spelling] as readonly string[]).includes(record.combined_car_model) ? [position] : [],
    );
    const search = await startSearch(index.read, { q }, records.length);
    while (!search.ended) {
      search.shown = search.matches.length;
      await readStep(search);
    }
    expect(search.matches.map(([position]) => position)).toEqual(expected);
    expect(countOf(search)).toEqual({ kind: 'exact', count: expected.length });
  });
});

describe('the index of an edit in place', () => {
  /** The listing with `count` rows spread through it edited: prices raised (each moves in the price orders), some renamed (they change lists and word shards). */
  function edited(records: readonly CarModel[], count: number) {
    // Spread through the listing, not evenly.
    const changed = new Set(Array.from({ length: count }, (_, at) => Math.floor(((at + 0.37) / count) ** 1.5 * records.length)));
    const next = records.map((record, position) => {
      if (!changed.has(position)) return record;
      if (position % 3 === 0) return { ...record, combined_car_model: `${record.combined_car_model} Zyx` };
      return { ...record, min_price: record.min_price + 1_000, max_price: record.max_price + 1_000 };
    });
    return { next, changed: [...changed].sort((a, b) => a - b) };
  }

  it.each([
    ['one row', 1],
    ['1 % of the rows', 30],
    ['a third of the rows', 1_000],
  ])('%s: the bytes and hashes written from scratch, the files it did not change taken from the earlier index', (_, count) => {
    const records = listing(3_000, 11);
    const before = join(workspace, `in-place-before-${count}`);
    const earlier = writeSearchFiles(before, [records]);
    expect(earlier.reused).toEqual([]);
    const { next, changed } = edited(records, count);
    const after = writeSearchFiles(join(workspace, `in-place-after-${count}`), [next], { dir: before, files: earlier.files, changed });
    const scratch = writeSearchFiles(join(workspace, `in-place-scratch-${count}`), [next]);
    expect(after.files).toEqual(scratch.files);
    for (const name of Object.keys(scratch.files))
      expect(readFileSync(join(workspace, `in-place-after-${count}`, name), 'utf8'), name).toBe(
        readFileSync(join(workspace, `in-place-scratch-${count}`, name), 'utf8'),
      );
    // Taken: hard links to the earlier files, each unchanged.
    expect(after.reused.length).toBeGreaterThan(0);
    for (const name of after.reused) {
      expect(statSync(join(workspace, `in-place-after-${count}`, name)).ino, name).toBe(statSync(join(before, name)).ino);
      expect(earlier.files[name], name).toBe(after.files[name]);
    }
    // A list file is written again only where it holds a changed row or other positions: for one row, a few of each list it is in.
    const listFiles = Object.keys(after.files).filter((name) => /\/(in|order)\//.test(name));
    const written = listFiles.filter((name) => !after.reused.includes(name));
    if (count === 1) expect(written.length).toBeLessThan(0.05 * listFiles.length);
  });
});
