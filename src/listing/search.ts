/**
 * Search over the whole listing at any size, from the sharded index the build publishes under
 * `/search/` (src/outputs/search-files.ts writes it, src/scripts/search.ts reads it): the files'
 * names and shapes, the criteria a search URL carries, how text is folded and split into words,
 * what a row must meet, and the orders. Pure, so that the build and the browser agree on every
 * one of them; docs/search.md says what the index's lists hold.
 */
import { makeKeyOf } from './makes.ts';
import { splitName } from './format.ts';
import type { CarModel } from '../data/schema.ts';

/** Where the index's files are in the site. */
export const SEARCH_FOLDER = '/search/';
/** Rows in each file of a list: one file holds more than a step of results. */
export const CHUNK_ROWS = 64;
/** Files of the high-price order under each entry of its range directory's top. */
export const KEYS_PER_GROUP = 64;
/** A filter value's rows are a list of their own unless they are more than this share of the listing (reading the listing finds them as fast). */
export const FILTER_LIST_SHARE = 0.4;
/** A word's rows are a list of their own unless they are more than this share of the listing. */
export const WORD_LIST_SHARE = 0.05;
/** Below this many rows a filter value or word always has its list. */
export const LIST_ALWAYS_BELOW = 4 * CHUNK_ROWS;
/**
 * The rows a common word's list holds, its first in listing order: a first search for the word
 * alone reads one file of them, where the listing would take a file for every few matches.
 */
export const HEAD_ROWS = 4 * CHUNK_ROWS;
/**
 * Up to this many rows a search reads the whole listing (16 files at most, about 35 KB compressed,
 * in one step), so no filter value or word has a
 * list of its own and there are no word shards: a small listing's index is its orders.
 */
export const WHOLE_LISTING_UP_TO = 16 * CHUNK_ROWS;

/**
 * One row of the index: [position in the listing (from 0), name, min seat, max seat, min engine,
 * max engine, min price, max price, transmissions (AUTO | MANUAL), logo path under the assets
 * address or null]. The make is the name's first word (`makeKeyOf`).
 */
export type Entry = [number, string, number, number, number, number, number, number, number, string | null];

export const AUTO = 1;
export const MANUAL = 2;

/** A record's row of the index, at `position` in the listing. */
export const entryOf = (record: CarModel, position: number): Entry => [
  position,
  record.combined_car_model,
  record.min_seat,
  record.max_seat,
  record.min_engine_size,
  record.max_engine_size,
  record.min_price,
  record.max_price,
  (record.has_operation_type_auto ? AUTO : 0) | (record.has_operation_type_hand ? MANUAL : 0),
  record.logo,
];

/**
 * The orders the listing is kept in, each a list of its own: `price` from the lowest min price up,
 * `high-price` from the highest max price down (the same for seats and engine sizes), ties in
 * listing order. No name is another's followed by a character before '/' (S3's key order).
 */
export const ORDERS = ['listing', 'name', 'price', 'high-price', 'seats', 'high-seats', 'engine', 'high-engine'] as const;
export type Order = (typeof ORDERS)[number];
/**
 * The sorts a search can ask for, as the URL writes them: prices, seats and engine sizes low to
 * high by their lower bound, high to low (`-`) by their upper bound, ties in listing order; names
 * by their Latin part (numbers by value), then their Chinese part, `-name` that order backwards.
 */
export const SORT_KEYS = ['price', '-price', 'name', '-name', 'seats', '-seats', 'engine', '-engine'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const orderOf = (sort: SortKey): { order: Order; descending: boolean } =>
  sort === '-name'
    ? { order: 'name', descending: true }
    : { order: sort.startsWith('-') ? (`high-${sort.slice(1)}` as Order) : (sort as Order), descending: false };

// The index's files.

export const orderChunkPath = (order: Order, chunk: number): string => `${SEARCH_FOLDER}order/${order}/${chunk}.json`;
export const listChunkPath = (list: string, chunk: number): string => `${SEARCH_FOLDER}in/${list}/${chunk}.json`;
/**
 * A file of a filter value's list in `order`, one of ORDERS but listing order: a filter and a sort
 * read the filter's rows in that order, not the whole listing's, whatever its share of it. Its
 * files start at `sortedListStarts`, in name order at `nameListStarts`.
 */
export const sortedListChunkPath = (list: string, order: Order, chunk: number): string =>
  `${SEARCH_FOLDER}in/${list}/${order}/${chunk}.json`;
/** Rows in each file of a sorted list's middle (`sortedListStarts`): no list file holds more. */
export const SORTED_MIDDLE_ROWS = 8 * CHUNK_ROWS;

/** The sizes of a sorted list's files from either end, in rows: a step reads one, and each step further twice the rows. */
const SORTED_EDGE_ROWS = [1, 1, 2, 4].map((files) => files * CHUNK_ROWS);

/**
 * Where each file of a filter value's sorted list of `rows` rows starts, then `rows`: from each end
 * files of 64, 64, 128 and 256 rows (SORTED_EDGE_ROWS: a step of results, the first in either
 * direction, reads one whole file where every row is a result, and where a second filter drops
 * most rows, about the rows it needs, not a file of 512), between them files of SORTED_MIDDLE_ROWS
 * (a step further in reads one for several steps), so that a long list costs about an eighth of
 * the files it would at CHUNK_ROWS each. Where the list is short the files from the start are
 * whole, and those from the end as far as they do not reach into them.
 */
export function sortedListStarts(rows: number): number[] {
  const front: number[] = [];
  let middle = 0;
  for (const size of SORTED_EDGE_ROWS) {
    if (middle >= rows) break;
    front.push(middle);
    middle += size;
  }
  const back: number[] = [];
  let end = rows;
  for (const size of SORTED_EDGE_ROWS) {
    if (end - size < middle) break;
    end -= size;
    back.unshift(end);
  }
  const between: number[] = [];
  for (let start = middle; start < end; start += SORTED_MIDDLE_ROWS) between.push(start);
  return [...front, ...between, ...back, rows];
}

/**
 * Where each file of a filter value's list in name order starts, then its length, given the make
 * of the row at each place in it: each run of one make's rows is cut as a list of its own
 * (`sortedListStarts`), so that a make's stretch of it (`MakeStretches`) is read from either end a
 * file of 64 rows at a time; runs shorter than a file share files, a run never split between two.
 * A make's own list is one run, cut as any sorted list is.
 */
export function nameListStarts(makeAt: (at: number) => number, rows: number): number[] {
  const starts: number[] = [];
  /** Where the file of short runs being filled starts, or -1. */
  let shared = -1;
  for (let start = 0, end = 0; start < rows; start = end) {
    for (end = start + 1; end < rows && makeAt(end) === makeAt(start); end += 1);
    if (end - start >= CHUNK_ROWS) {
      shared = -1;
      for (const at of sortedListStarts(end - start).slice(0, -1)) starts.push(start + at);
    } else if (shared < 0 || end - shared > CHUNK_ROWS) starts.push((shared = start));
  }
  starts.push(rows);
  return starts;
}

/**
 * The orders a search reads only from their start, a step further each time (a sort alone, or with
 * a word, a price range or a filter of most rows): cut as a filter value's sorted list is. The
 * others are read from a file in their middle too (a make's or a word's span by name, a price range
 * by price, the listing after a common word's head), in files of CHUNK_ROWS.
 */
const READ_FROM_THE_ENDS: ReadonlySet<Order> = new Set(['seats', 'high-seats', 'engine', 'high-engine']);

/** Where each file of the listing's `order` starts, then `rows`; undefined where each holds CHUNK_ROWS. */
export const orderStarts = (order: Order, rows: number): number[] | undefined =>
  READ_FROM_THE_ENDS.has(order) ? sortedListStarts(rows) : undefined;

/** The word shards there are (`shardOf`), in code point order: none up to WHOLE_LISTING_UP_TO rows, where words are not looked up. */
export const SHARDS_PATH = `${SEARCH_FOLDER}shards.json`;
/**
 * The `high-price` order's range directory (`PriceKeys`): its top, one entry a group of
 * KEYS_PER_GROUP files, and each group's, one entry a file. (A range in the `price` order is
 * found from its steps: PRICE_FROM_PATH.)
 */
export const HIGH_PRICE_KEYS_PATH = `${SEARCH_FOLDER}range/high-price/top.json`;
export const highPriceKeysGroupPath = (group: number): string => `${SEARCH_FOLDER}range/high-price/${group}.json`;
/**
 * Text as a file name: its characters' code points, in hexadecimal, joined by `-`, a folder every
 * 32 characters (no part of the path longer than 200 characters, whatever the make).
 */
const codePointsOf = (text: string) =>
  [...text].map((character, at) => `${at === 0 ? '' : at % 32 === 0 ? '/' : '-'}${character.codePointAt(0)!.toString(16)}`).join('');
/** The words that begin with `shard` (`shardOf`), in a file named by its characters' code points. */
export const wordShardPath = (shard: string): string => `${SEARCH_FOLDER}words/${codePointsOf(shard)}.json`;
/**
 * A filter value's document (`FilterDocument`), named by its id's code points (`filterId`): only
 * the values some row has, and only in listings of more than WHOLE_LISTING_UP_TO rows.
 */
export const filterPath = (id: string): string => `${SEARCH_FOLDER}filter/${codePointsOf(id)}.json`;
/**
 * A filter value's document: [its list's name, or null where its rows are most of the listing (a
 * search reads the listing's orders for them); how many rows meet it; the first and last file of
 * the name order that hold one of them (`NameSpan`); how many meet it together with each
 * combination of the filters after it in `filtersOf`'s order (`FilterCounts`); how many files its
 * list in name order has (`nameListStarts`; 0 where it has none); a make's `MakeStretches`].
 */
export type FilterDocument = [string | null, number, ...NameSpan, FilterCounts, number, MakeStretches];
/**
 * A make's rows in another filter's list in name order, by that filter's id, where they are fewer
 * rows to read than the make's own list: [the first and the last file that hold them, the rows those
 * files hold]. A make's rows are together in a list in name order where its names begin alike
 * (`NameSpan`), so a make, a seat count and a sort by name read the stretch of the seat count's list
 * that is that make's, not the make's whole list for the few of its rows with that seat count.
 */
export type MakeStretches = Record<string, [number, number, number]>;
/**
 * By the other filters' ids in `filtersOf`'s order, joined by FILTER_JOINER: how many rows meet them
 * and the document's filter (none where none does). A search of several filters says its count
 * exactly from the first one's document, where their lists' sizes only bound it.
 */
export type FilterCounts = Record<string, number>;
export const FILTER_JOINER = '&';

/**
 * Where a price range from a price is found in price order: the listing's rows whose range spans
 * each step (`PriceFrom`), then the price order from the first file holding a row that starts at
 * the step. Only in listings of more than WHOLE_LISTING_UP_TO rows.
 */
export const PRICE_FROM_PATH = `${SEARCH_FOLDER}range/price/from.json`;
/** The list of the rows whose price range spans `step` (starts below it and reaches it), in price order. */
export const priceStepList = (step: number): string => `from-${step}`;

/** Round prices about 1.25 apart (10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, …): a price as people type it is one. */
const STEP_MANTISSAS = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80];

/** The price steps from 0 up to the first above `highest`, in order. */
export function priceSteps(highest: number): number[] {
  const steps = [0];
  for (let scale = 1; steps.at(-1)! <= highest; scale *= 10) {
    for (const mantissa of STEP_MANTISSAS) if (steps.at(-1)! <= highest) steps.push(mantissa * scale);
  }
  return steps;
}

/**
 * `from.json`: for each price step (`priceSteps` up to the highest min price; but 0, none that no row
 * spans and that starts at the same file as the one before, below the lowest price), [the step, how many
 * rows span it (the length of its list, `priceStepList`), the first file of the price order that
 * holds a row whose min price is at least the step (the order's file count where none does)].
 * A range from `min` reads the list of the last step at or below `min`, then the price order from
 * that step's file: every row it wants, in price order, without those before it that end below.
 */
export type PriceFrom = [number, number, number][];

/** How many files a list of `rows` rows is cut into. */
export const chunkCount = (rows: number): number => Math.ceil(rows / CHUNK_ROWS);

/**
 * The first and last file of the name order that hold a row of a filter value or a word: a make's
 * rows, and a make's name's, are together in the name order (names sort by their Latin part, which
 * begins with the make), so a sort by name reads only those files, not the listing up to them.
 */
export type NameSpan = [number, number];

/**
 * A word shard: its words in code point order, each [word, rows, its list's name, its `NameSpan`,
 * how many rows its list holds, its bridge (`indexWordsOf`)]. A common word's list is its head: its
 * first HEAD_ROWS rows, from where a search in listing order reads on in the listing itself. A word
 * across two runs has no list (null, 0) where its first run's word, in the same shard, is the same
 * for every name: that word's list holds each of its rows.
 */
export type WordShard = [string, number, string | null, ...NameSpan, number, number][];

/** Whether a typed token needs a word of a shard: the token begins it, and spans its bridge where it has one. */
export const tokenNeeds = (token: string, [word, , , , , , bridge]: WordShard[number]): boolean =>
  word.startsWith(token) && (bridge === 0 || token.length > bridge);

/** The high-price order's directory: for each file (or group of files), [the lowest min price and the highest max price in it]. */
export type PriceKeys = [number, number][];

/** The filters a row has a value of: its make, each seat count it offers, its transmissions, electric. */
export const filterId = {
  make: (key: string) => `make:${key}`,
  seats: (seats: number) => `seats:${seats}`,
  auto: 'auto',
  manual: 'manual',
  electric: 'electric',
} as const;

// Text.

/**
 * Text as it is matched: compatibility forms folded (ｔｏｙｏｔａ is toyota), accents dropped (Citroën
 * is citroen), invisible format characters (a soft hyphen, a zero-width joiner) dropped, lower case.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]+/gu, '')
    .normalize('NFKC')
    .toLowerCase();
}

/** What joins the parts of a word (cx-5, 2.0, e:hev): any dash, . : / + and apostrophes. */
const JOINER = String.raw`\p{Pd}.:/+'’`;
/** A word: letters and digits, joined by joiners within it. */
const WORD = new RegExp(String.raw`[\p{L}\p{N}]+(?:[${JOINER}][\p{L}\p{N}]+)*`, 'gu');
const JOINERS = new RegExp(`[${JOINER}]+`, 'gu');
const HAN_OR_NOT = /\p{Script=Han}+|[^\p{Script=Han}]+/gu;
const HAN = /^\p{Script=Han}/u;
const [DIGIT_AT_START, DIGIT_AT_END] = [/^\p{N}/u, /\p{N}$/u];
/** Where a code's letters meet its digits (rav|4, xc|90, 4|orce). */
const LETTERS_OR_DIGITS = /\p{N}+|[^\p{N}]+/gu;

/**
 * Text cut into runs: each word split where Han meets another script, each run's parts in order
 * (the characters of a Han run; else the pieces between joiners, cut again where letters meet
 * digits). Two runs of one script side by side in the list were parted by a space or punctuation.
 */
function runsOf(text: string): { han: boolean; parts: string[] }[] {
  const runs: { han: boolean; parts: string[] }[] = [];
  for (const [word] of fold(text).matchAll(WORD))
    for (const [run] of word.matchAll(HAN_OR_NOT)) {
      const han = HAN.test(run);
      const parts = han ? [...run] : run.split(JOINERS).flatMap((piece) => piece.match(LETTERS_OR_DIGITS) ?? []);
      if (parts.length > 0) runs.push({ han, parts });
    }
  return runs;
}

/**
 * The words of text as typed: folded, split at spaces and punctuation and where Han meets another
 * script, joiners dropped (RAV-4 is rav4, e:HEV ehev, 阿爾法-羅密歐 阿爾法羅密歐).
 */
export function tokensOf(text: string): string[] {
  return runsOf(text).map(({ parts }) => parts.join(''));
}

/**
 * Every word a name is found by, by prefix, and for each the length of its first run where it
 * spans two (its `bridge`; 0 for the others). A typed word begins one of them wherever hyphens,
 * spaces and joiners were typed or stored: each run from each of its parts on, without joiners (the
 * run, `crv` and `v` of CR-V; `rav4` and `4` of RAV4; every ending of a Han run, since Chinese is
 * written without spaces); and each of those of a run followed by the next run of its script across
 * a space or punctuation (`c200` of C 200, `阿爾法羅密歐` and `法羅密歐` of 阿爾法·羅密歐). A word that
 * spans two is needed only by a typed word longer than its bridge: a shorter one begins the first
 * run's word itself.
 */
export function indexWordsOf(name: string): Map<string, number> {
  const words = new Map<string, number>();
  const add = (word: string, bridge: number) => words.set(word, Math.min(bridge, words.get(word) ?? bridge));
  let before: { han: boolean; endings: string[] } | undefined;
  for (const { han, parts } of runsOf(name)) {
    const endings = parts.map((_, from) => parts.slice(from).join(''));
    for (const ending of endings) add(ending, 0);
    // Two numbers side by side are two numbers (200 1.5 is not 2001.5).
    if (before?.han === han && !(DIGIT_AT_END.test(before.endings[0]!) && DIGIT_AT_START.test(endings[0]!)))
      for (const ending of han ? before.endings : before.endings.slice(0, 1)) add(`${ending}${endings[0]!}`, ending.length);
    before = { han, endings };
  }
  return words;
}

/** Names' words, made once each: a search checks each row it reads, and a listing repeats its names (a few thousand at a million rows). */
const wordsOfNames = new Map<string, string[]>();

/** Every word a name is found by (`indexWordsOf`). */
export function wordsOf(name: string): string[] {
  let words = wordsOfNames.get(name);
  if (words === undefined) {
    // Bounded, for a listing of many names searched for long.
    if (wordsOfNames.size >= 10_000) wordsOfNames.clear();
    wordsOfNames.set(name, (words = [...indexWordsOf(name).keys()]));
  }
  return words;
}

/** The shard a word (or a typed token) is in: its first Han character, or its first two characters; none for one non-Han character. */
export function shardOf(word: string): string | undefined {
  const characters = [...word];
  if (HAN.test(word)) return characters[0];
  return characters.length >= 2 ? characters.slice(0, 2).join('') : undefined;
}

/** Whether every token begins one of `words`. */
const matchesTokens = (words: readonly string[], tokens: readonly string[]): boolean =>
  tokens.every((token) => words.some((word) => word.startsWith(token)));

// Criteria.

/** What a search asks for; every part optional. */
export interface Criteria {
  /** Words, each the beginning of a word of the name, in either script. */
  q?: string;
  /** A seat count the model offers (within its seat range). */
  seats?: number;
  /** Price bounds: models whose price range reaches into [priceMin, priceMax]. */
  priceMin?: number;
  priceMax?: number;
  transmission?: 'auto' | 'manual';
  electric?: boolean;
  /** The make in its local script, e.g. `豐田`. */
  make?: string;
  /** The order of the results; without it, listing order (price order where a price is asked for). */
  sort?: SortKey;
}

const isSortKey = (text: string | null): text is SortKey => text !== null && (SORT_KEYS as readonly string[]).includes(text);

/** URL parameter names of the criteria (a shared search URL carries them). */
export const CRITERIA_PARAMS = {
  q: 'q',
  seats: 'seats',
  priceMin: 'price_min',
  priceMax: 'price_max',
  transmission: 'transmission',
  electric: 'electric',
  make: 'make',
  sort: 'sort',
} as const;

const nonNegativeNumber = (text: string | null): number | undefined => {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** Criteria from a URL's query; unknown or malformed values are ignored. */
export function criteriaFromQuery(query: URLSearchParams): Criteria {
  const criteria: Criteria = {};
  const q = query.get(CRITERIA_PARAMS.q)?.trim();
  if (q) criteria.q = q;
  const seats = nonNegativeNumber(query.get(CRITERIA_PARAMS.seats));
  if (seats !== undefined) criteria.seats = Math.floor(seats);
  const priceMin = nonNegativeNumber(query.get(CRITERIA_PARAMS.priceMin));
  if (priceMin !== undefined) criteria.priceMin = priceMin;
  const priceMax = nonNegativeNumber(query.get(CRITERIA_PARAMS.priceMax));
  if (priceMax !== undefined) criteria.priceMax = priceMax;
  const transmission = query.get(CRITERIA_PARAMS.transmission);
  if (transmission === 'auto' || transmission === 'manual') criteria.transmission = transmission;
  if (query.get(CRITERIA_PARAMS.electric) === '1') criteria.electric = true;
  const make = query.get(CRITERIA_PARAMS.make)?.trim();
  if (make) criteria.make = make;
  const sort = query.get(CRITERIA_PARAMS.sort);
  if (isSortKey(sort)) criteria.sort = sort;
  return criteria;
}

/** The query string of criteria, parameters in a fixed order so equal searches share a URL. */
export function queryFromCriteria(criteria: Criteria): URLSearchParams {
  const query = new URLSearchParams();
  if (criteria.q) query.set(CRITERIA_PARAMS.q, criteria.q);
  if (criteria.make) query.set(CRITERIA_PARAMS.make, criteria.make);
  if (criteria.seats !== undefined) query.set(CRITERIA_PARAMS.seats, String(criteria.seats));
  if (criteria.priceMin !== undefined) query.set(CRITERIA_PARAMS.priceMin, String(criteria.priceMin));
  if (criteria.priceMax !== undefined) query.set(CRITERIA_PARAMS.priceMax, String(criteria.priceMax));
  if (criteria.transmission) query.set(CRITERIA_PARAMS.transmission, criteria.transmission);
  if (criteria.electric) query.set(CRITERIA_PARAMS.electric, '1');
  if (criteria.sort) query.set(CRITERIA_PARAMS.sort, criteria.sort);
  return query;
}

export const hasCriteria = (criteria: Criteria): boolean => Object.keys(criteria).length > 0;

/** The sort a search is shown in: the one asked for, else price order where a price bound is given. */
export const effectiveSort = (criteria: Criteria): SortKey | undefined =>
  criteria.sort ?? (criteria.priceMin !== undefined || criteria.priceMax !== undefined ? 'price' : undefined);

/** The filters (`filterId`) a search asks for, each a set of rows every result is in. */
export function filtersOf(criteria: Criteria): string[] {
  const filters: string[] = [];
  if (criteria.make !== undefined) filters.push(filterId.make(criteria.make));
  if (criteria.seats !== undefined) filters.push(filterId.seats(criteria.seats));
  if (criteria.transmission !== undefined) filters.push(filterId[criteria.transmission]);
  if (criteria.electric) filters.push(filterId.electric);
  return filters;
}

/** Whether an entry meets every criterion but the words; the words (`tokensOf` the query) by `matchesTokens`. */
export function entryMatches(entry: Entry, criteria: Criteria, tokens: readonly string[]): boolean {
  const [, name, minSeat, maxSeat, , maxEngine, minPrice, maxPrice, transmissions] = entry;
  if (criteria.make !== undefined && makeKeyOf(name) !== criteria.make) return false;
  if (criteria.seats !== undefined && (criteria.seats < minSeat || criteria.seats > maxSeat)) return false;
  if (criteria.priceMin !== undefined && maxPrice < criteria.priceMin) return false;
  if (criteria.priceMax !== undefined && minPrice > criteria.priceMax) return false;
  if (criteria.transmission === 'auto' && !(transmissions & AUTO)) return false;
  if (criteria.transmission === 'manual' && !(transmissions & MANUAL)) return false;
  if (criteria.electric && maxEngine !== 0) return false;
  return tokens.length === 0 || matchesTokens(wordsOf(name), tokens);
}

// Orders.

/** A name's place in name order: its Latin part folded, numbers by value (Model 3 before Model 10), then its Chinese part. */
export function nameSortKey(name: string): string {
  const { local, latin } = splitName(name);
  return `${fold(latin).replace(/\d+/g, (digits) => digits.padStart(12, '0'))}\u0000${local}`;
}

/** Each numeric order's key: the Entry field it sorts by, and its direction (1 up, -1 down). */
export const ORDER_KEYS = {
  price: [6, 1],
  'high-price': [7, -1],
  seats: [2, 1],
  'high-seats': [3, -1],
  engine: [4, 1],
  'high-engine': [5, -1],
} as const satisfies Record<Exclude<Order, 'listing' | 'name'>, readonly [number, 1 | -1]>;

/** Compares entries in `order`, ties in listing order: the order of the build's lists. */
function compareIn(order: Order): (a: Entry, b: Entry) => number {
  if (order === 'listing') return (a, b) => a[0] - b[0];
  if (order === 'name') {
    const keys = new Map<Entry, string>();
    const keyOf = (entry: Entry) => keys.get(entry) ?? keys.set(entry, nameSortKey(entry[1])).get(entry)!;
    return (a, b) => {
      const [first, second] = [keyOf(a), keyOf(b)];
      return first < second ? -1 : first > second ? 1 : a[0] - b[0];
    };
  }
  const [at, direction] = ORDER_KEYS[order];
  return (a, b) => direction * ((a[at] as number) - (b[at] as number)) || a[0] - b[0];
}

/** Entries in the order a sort asks for, as the build's list read forwards or backwards gives them (a new array). */
export function sortEntries(entries: readonly Entry[], sort: SortKey | undefined): Entry[] {
  const { order, descending } = sort === undefined ? { order: 'listing' as const, descending: false } : orderOf(sort);
  const sorted = [...entries].sort(compareIn(order));
  return descending ? sorted.reverse() : sorted;
}
