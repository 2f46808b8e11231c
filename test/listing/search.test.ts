import { describe, expect, it } from 'vitest';
import { textOf } from '../support/downloads.ts';
import { carModel as model } from '../support/models.ts';
import { searchIndexText, searchTablesOf } from '../../src/outputs/search-index.ts';
import type { CarModel } from '../../src/data/schema.ts';
import {
  criteriaFromQuery,
  filterEntries,
  queryFromCriteria,
  sortEntries,
  type Criteria,
  type SearchIndex,
} from '../../src/listing/search.ts';

const records = [
  model(1, '豐田 Toyota Alphard 2.5 Hybrid', { min_seat: 7, max_seat: 8, min_price: 549000, max_price: 689000 }),
  model(2, '本田 Honda Civic Type R', {
    has_operation_type_auto: false,
    has_operation_type_hand: true,
    logo: 'media/brand/logo/honda.svg',
  }),
  model(3, '特斯拉 Tesla Model Y', { min_engine_size: 0, max_engine_size: 0, min_seat: 5, max_seat: 7, logo: null }),
  model(4, '豐田 Toyota GR86', { min_seat: 4, max_seat: 4, has_operation_type_hand: true }),
];
/** The index as the build publishes it: the JSON text the search script fetches. */
const indexOf = (listing: readonly CarModel[]) => JSON.parse(textOf(searchIndexText(searchTablesOf(listing)), listing)) as SearchIndex;
const index = indexOf(records);
const ids = (criteria: Criteria) => sortEntries(filterEntries(index.entries, criteria, index.makes), criteria.sort).map(([id]) => id);

describe('the search index', () => {
  it('keeps listing order and stores each logo once, as its path under the assets address (the page gives the address)', () => {
    expect(index.entries.map(([id]) => id)).toEqual([1, 2, 3, 4]);
    expect(index.logos).toEqual(['media/brand/logo/x.svg', 'media/brand/logo/honda.svg']);
    expect(index.entries.map((entry) => entry[9])).toEqual([0, 1, -1, 0]);
  });

  it("stores each make once, in Latin order, and each entry's make by position", () => {
    expect(index.makes).toEqual([
      ['本田', 'Honda'],
      ['特斯拉', 'Tesla'],
      ['豐田', 'Toyota'],
    ]);
    expect(index.entries.map((entry) => index.makes[entry[10]]?.[1])).toEqual(['Toyota', 'Honda', 'Tesla', 'Toyota']);
  });

  it('stays one JSON document across the pieces it is written in', () => {
    const many = Array.from({ length: 20_001 }, (_, position) => model(position + 1, `Model ${position + 1}`));
    const large = indexOf(many);
    expect(large.entries.map(([id]) => id)).toEqual(many.map(({ id }) => id));
    expect(large.logos).toEqual(['media/brand/logo/x.svg']);
  });
});

describe('filterEntries', () => {
  it('matches free text in the Chinese or Latin part, ignoring case and width', () => {
    expect(ids({ q: '豐田' })).toEqual([1, 4]);
    expect(ids({ q: 'toyota' })).toEqual([1, 4]);
    expect(ids({ q: 'ＨＯＮＤＡ' })).toEqual([2]);
    expect(ids({ q: 'toyota gr' })).toEqual([4]);
    expect(ids({ q: 'nothing' })).toEqual([]);
  });

  it('filters by a seat count within the range, a price range, transmission and electric', () => {
    expect(ids({ seats: 7 })).toEqual([1, 3]);
    expect(ids({ priceMin: 600000 })).toEqual([1]);
    expect(ids({ priceMax: 320000 })).toEqual([2, 3, 4]);
    expect(ids({ transmission: 'manual' })).toEqual([2, 4]);
    expect(ids({ transmission: 'auto' })).toEqual([1, 3, 4]);
    expect(ids({ electric: true })).toEqual([3]);
  });

  it('combines criteria', () => {
    expect(ids({ q: 'toyota', transmission: 'manual' })).toEqual([4]);
    expect(ids({ seats: 5, electric: true, priceMax: 400000 })).toEqual([3]);
  });

  it('filters by make (the local-script make), alone and with other criteria; an unknown make matches nothing', () => {
    expect(ids({ make: '豐田' })).toEqual([1, 4]);
    expect(ids({ make: '豐田', transmission: 'manual' })).toEqual([4]);
    expect(ids({ make: 'Toyota' })).toEqual([]);
    expect(ids({ make: '福特' })).toEqual([]);
  });
});

describe('sortEntries', () => {
  // Ties and ranges on purpose: prices 300000–350000 three times, seats 5, 5–7, 4 and 7–8.
  it('sorts by price: lower bound ascending, upper bound descending, ties in listing order', () => {
    expect(ids({ sort: 'price' })).toEqual([2, 3, 4, 1]);
    expect(ids({ sort: '-price' })).toEqual([1, 2, 3, 4]);
  });

  it('sorts by seats and engine size the same way', () => {
    expect(ids({ sort: 'seats' })).toEqual([4, 2, 3, 1]);
    expect(ids({ sort: '-seats' })).toEqual([1, 3, 2, 4]);
    expect(ids({ sort: 'engine' })).toEqual([3, 1, 2, 4]);
    expect(ids({ sort: '-engine' })).toEqual([1, 2, 4, 3]);
  });

  it('sorts names by their Latin part, numbers by value, then the local part', () => {
    expect(ids({ sort: 'name' })).toEqual([2, 3, 1, 4]);
    expect(ids({ sort: '-name' })).toEqual([4, 1, 3, 2]);
    const numbered = [model(1, '豐田 Toyota Model 10'), model(2, '豐田 Toyota Model 9'), model(3, 'toyota model 9')];
    const numberedIndex = indexOf(numbered);
    expect(sortEntries(numberedIndex.entries, 'name').map(([id]) => id)).toEqual([3, 2, 1]);
  });

  it('sorts the filtered entries only, and leaves listing order without a sort', () => {
    expect(ids({ make: '豐田', sort: '-price' })).toEqual([1, 4]);
    expect(ids({})).toEqual([1, 2, 3, 4]);
  });
});

describe('criteria in the URL', () => {
  it('round-trip through a query string in a fixed order', () => {
    const criteria: Criteria = {
      q: 'gr',
      make: '豐田',
      seats: 7,
      priceMin: 1000,
      priceMax: 2000.5,
      transmission: 'manual',
      electric: true,
      sort: '-price',
    };
    const query = queryFromCriteria(criteria);
    expect(query.toString()).toBe(
      'q=gr&make=%E8%B1%90%E7%94%B0&seats=7&price_min=1000&price_max=2000.5&transmission=manual&electric=1&sort=-price',
    );
    expect(criteriaFromQuery(query)).toEqual(criteria);
  });

  it('ignore malformed values', () => {
    expect(
      criteriaFromQuery(
        new URLSearchParams('seats=abc&price_min=-5&transmission=cvt&electric=yes&q=%20&make=&sort=price_desc&sort=toString'),
      ),
    ).toEqual({});
  });
});
