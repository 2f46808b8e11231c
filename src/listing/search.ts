/**
 * Search over the whole listing in the browser: the shape of the index the build publishes
 * (`search-index.ts` writes it), the criteria and sort order a search URL carries, and the filter
 * and sort themselves. Pure functions, bundled into the search script and unit-tested.
 */
import { splitName } from './format.ts';

/**
 * One entry of the index: [id, name, min seat, max seat, min engine, max engine, min price,
 * max price, transmissions (1 auto, 2 manual, 3 both), logo (index into `logos`, or -1),
 * make (index into `makes`)].
 */
export type IndexEntry = [number, string, number, number, number, number, number, number, number, number, number];

export interface SearchIndex {
  /** The listing's order; the position of an entry is its place in the listing. */
  entries: IndexEntry[];
  /** Logo paths under the assets address, as the data gives them, each once (a make's models share one). */
  logos: string[];
  /** Each make once, as [local-script make (the `make=` value), Latin make], in Latin alphabetical order. */
  makes: [string, string][];
}

export const AUTO = 1;
export const MANUAL = 2;

/** What a search asks for; every part optional. */
export interface Criteria {
  /** Free text, matched against the Chinese and the Latin part of the name, ignoring case. */
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
  /** The order of the results; without it, listing order. */
  sort?: SortKey;
}

/**
 * Sort orders, as the URL writes them: a leading `-` is descending. Ranges sort by their lower
 * bound ascending and by their upper bound descending (cheapest first: the lowest starting price;
 * dearest first: the highest top price). Ties keep listing order.
 */
export const SORT_LABELS = {
  price: 'Price, low to high',
  '-price': 'Price, high to low',
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  seats: 'Seats, fewest first',
  '-seats': 'Seats, most first',
  engine: 'Engine size, smallest first',
  '-engine': 'Engine size, largest first',
} as const;

export type SortKey = keyof typeof SORT_LABELS;

const isSortKey = (text: string | null): text is SortKey => text !== null && Object.hasOwn(SORT_LABELS, text);

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

export function hasCriteria(criteria: Criteria): boolean {
  return Object.keys(criteria).length > 0;
}

/** Case- and width-insensitive form of text for matching (ｔｏｙｏｔａ finds Toyota). */
function normalise(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en');
}

/** Normalised names of an index's entries, computed on its first text search, not on every keystroke. */
const haystacksOf = new WeakMap<readonly IndexEntry[], string[]>();

function haystacks(entries: readonly IndexEntry[]): string[] {
  let names = haystacksOf.get(entries);
  if (!names) {
    names = entries.map(([, name]) => normalise(name));
    haystacksOf.set(entries, names);
  }
  return names;
}

/**
 * The entries that meet every criterion, in listing order. `makes` is the index's make table: a
 * `make` criterion that names no make of it matches nothing.
 */
export function filterEntries(entries: readonly IndexEntry[], criteria: Criteria, makes: SearchIndex['makes'] = []): IndexEntry[] {
  const terms = criteria.q ? normalise(criteria.q).split(/\s+/).filter(Boolean) : [];
  const names = terms.length > 0 ? haystacks(entries) : [];
  const make = criteria.make === undefined ? undefined : makes.findIndex(([key]) => key === criteria.make);
  return entries.filter(([, , minSeat, maxSeat, , maxEngine, minPrice, maxPrice, transmissions, , makeOf], position) => {
    if (make !== undefined && makeOf !== make) return false;
    if (terms.length > 0 && !terms.every((term) => names[position]!.includes(term))) return false;
    if (criteria.seats !== undefined && (criteria.seats < minSeat || criteria.seats > maxSeat)) return false;
    if (criteria.priceMin !== undefined && maxPrice < criteria.priceMin) return false;
    if (criteria.priceMax !== undefined && minPrice > criteria.priceMax) return false;
    if (criteria.transmission === 'auto' && !(transmissions & AUTO)) return false;
    if (criteria.transmission === 'manual' && !(transmissions & MANUAL)) return false;
    if (criteria.electric && maxEngine !== 0) return false;
    return true;
  });
}

const nameOrder = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const localNameOrder = new Intl.Collator('zh-Hant-HK');

/** Where each sort key reads a range: [lower bound, upper bound] positions in an entry. */
const RANGE_OF = { price: [6, 7], seats: [2, 3], engine: [4, 5] } as const;

/**
 * The entries in the order `sort` asks for (a new array); ties keep their order in `entries`.
 * Names sort by their Latin part (the make, then the model; numbers by value: Model 3 before
 * Model 10), then by the local-script part.
 */
export function sortEntries(entries: readonly IndexEntry[], sort: SortKey | undefined): IndexEntry[] {
  if (sort === undefined) return [...entries];
  const descending = sort.startsWith('-');
  const key = (descending ? sort.slice(1) : sort) as 'price' | 'name' | 'seats' | 'engine';
  if (key === 'name') {
    const parts = new Map(entries.map((entry) => [entry, splitName(entry[1])]));
    const compare = (a: IndexEntry, b: IndexEntry) => {
      const first = parts.get(a)!;
      const second = parts.get(b)!;
      return nameOrder.compare(first.latin, second.latin) || localNameOrder.compare(first.local, second.local);
    };
    return [...entries].sort(descending ? (a, b) => compare(b, a) : compare);
  }
  const [low, high] = RANGE_OF[key];
  return [...entries].sort(descending ? (a, b) => b[high] - a[high] : (a, b) => a[low] - b[low]);
}
