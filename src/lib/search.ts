/**
 * Search over the whole listing in the browser: the compact index the build publishes, the
 * criteria a search URL carries, and the filter itself. Pure functions, shared by the build (which
 * writes the index), the search script (which runs it) and the tests.
 */
import type { CarModel } from './schema.ts';

/**
 * One entry of the index: [id, name, min seat, max seat, min engine, max engine, min price,
 * max price, transmissions (1 auto, 2 manual, 3 both), logo (index into `logos`, or -1)].
 */
export type IndexEntry = [number, string, number, number, number, number, number, number, number, number];

export interface SearchIndex {
  /** The listing's order; the position of an entry is its place in the listing. */
  entries: IndexEntry[];
  /** Logo URLs, each once (a make's models share one). */
  logos: string[];
}

export const AUTO = 1;
export const MANUAL = 2;

/** Logo URLs, each once, and where each record's logo is among them (-1 for none). */
function logoTable(records: readonly CarModel[], logoUrl: (logo: string) => string): { logos: string[]; logoOf: (record: CarModel) => number } {
  const logos: string[] = [];
  const positions = new Map<string, number>();
  for (const record of records) {
    if (record.logo !== null && !positions.has(record.logo)) positions.set(record.logo, logos.push(logoUrl(record.logo)) - 1);
  }
  return { logos, logoOf: (record) => (record.logo === null ? -1 : (positions.get(record.logo) ?? -1)) };
}

function indexEntry(record: CarModel, logo: number): IndexEntry {
  return [
    record.id,
    record.combined_car_model,
    record.min_seat,
    record.max_seat,
    record.min_engine_size,
    record.max_engine_size,
    record.min_price,
    record.max_price,
    (record.has_operation_type_auto ? AUTO : 0) | (record.has_operation_type_hand ? MANUAL : 0),
    logo,
  ];
}

/** The index (a SearchIndex) as JSON text, in pieces, so a large listing is written without one giant string. */
export function* searchIndexJsonChunks(records: readonly CarModel[], logoUrl: (logo: string) => string): Generator<string> {
  const { logos, logoOf } = logoTable(records, logoUrl);
  yield '{"entries":[';
  for (let start = 0; start < records.length; start += 10_000) {
    const chunk = records.slice(start, start + 10_000).map((record) => JSON.stringify(indexEntry(record, logoOf(record))));
    yield `${start === 0 ? '' : ','}${chunk.join(',')}`;
  }
  yield `],"logos":${JSON.stringify(logos)}}`;
}

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
}

/** URL parameter names of the criteria (a shared search URL carries them). */
export const CRITERIA_PARAMS = {
  q: 'q',
  seats: 'seats',
  priceMin: 'price_min',
  priceMax: 'price_max',
  transmission: 'transmission',
  electric: 'electric',
} as const;

const positiveNumber = (text: string | null): number | undefined => {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** Criteria from a URL's query; unknown or malformed values are ignored. */
export function criteriaFromQuery(query: URLSearchParams): Criteria {
  const criteria: Criteria = {};
  const q = query.get(CRITERIA_PARAMS.q)?.trim();
  if (q) criteria.q = q;
  const seats = positiveNumber(query.get(CRITERIA_PARAMS.seats));
  if (seats !== undefined) criteria.seats = Math.floor(seats);
  const priceMin = positiveNumber(query.get(CRITERIA_PARAMS.priceMin));
  if (priceMin !== undefined) criteria.priceMin = priceMin;
  const priceMax = positiveNumber(query.get(CRITERIA_PARAMS.priceMax));
  if (priceMax !== undefined) criteria.priceMax = priceMax;
  const transmission = query.get(CRITERIA_PARAMS.transmission);
  if (transmission === 'auto' || transmission === 'manual') criteria.transmission = transmission;
  if (query.get(CRITERIA_PARAMS.electric) === '1') criteria.electric = true;
  return criteria;
}

/** The query string of criteria, parameters in a fixed order so equal searches share a URL. */
export function queryFromCriteria(criteria: Criteria): URLSearchParams {
  const query = new URLSearchParams();
  if (criteria.q) query.set(CRITERIA_PARAMS.q, criteria.q);
  if (criteria.seats !== undefined) query.set(CRITERIA_PARAMS.seats, String(criteria.seats));
  if (criteria.priceMin !== undefined) query.set(CRITERIA_PARAMS.priceMin, String(criteria.priceMin));
  if (criteria.priceMax !== undefined) query.set(CRITERIA_PARAMS.priceMax, String(criteria.priceMax));
  if (criteria.transmission) query.set(CRITERIA_PARAMS.transmission, criteria.transmission);
  if (criteria.electric) query.set(CRITERIA_PARAMS.electric, '1');
  return query;
}

export function hasCriteria(criteria: Criteria): boolean {
  return Object.keys(criteria).length > 0;
}

/** Case- and width-insensitive form of text for matching (ｔｏｙｏｔａ finds Toyota). */
export function normalise(text: string): string {
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

/** The entries that meet every criterion, in listing order. */
export function filterEntries(entries: readonly IndexEntry[], criteria: Criteria): IndexEntry[] {
  const terms = criteria.q ? normalise(criteria.q).split(/\s+/).filter(Boolean) : [];
  const names = terms.length > 0 ? haystacks(entries) : [];
  return entries.filter(([, , minSeat, maxSeat, , maxEngine, minPrice, maxPrice, transmissions], position) => {
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
