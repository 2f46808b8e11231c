import { describe, expect, it } from 'vitest';
import { carModel as model } from '../support/models.ts';
import {
  entryOf,
  criteriaFromQuery,
  effectiveSort,
  entryMatches,
  filtersOf,
  fold,
  indexWordsOf,
  nameSortKey,
  queryFromCriteria,
  shardOf,
  nameListStarts,
  sortedListStarts,
  sortEntries,
  tokensOf,
  wordShardPath,
  wordsOf,
  type Criteria,
} from '../../src/listing/search.ts';

const records = [
  model(1, '豐田 Toyota Alphard 2.5 Hybrid', { min_seat: 7, max_seat: 8, min_price: 549000, max_price: 689000 }),
  model(2, '本田 Honda Civic Type R', { has_operation_type_auto: false, has_operation_type_hand: true }),
  model(3, '特斯拉 Tesla Model Y', { min_engine_size: 0, max_engine_size: 0, min_seat: 5, max_seat: 7, logo: null }),
  model(4, '豐田 Toyota GR86', { min_seat: 4, max_seat: 4, has_operation_type_hand: true }),
  model(5, '雪鐵龍 Citroën C5 Aircross', { min_price: 250000, max_price: 260000 }),
  model(6, '阿爾法·羅密歐 Alfa Romeo Giulia 2.0', { min_engine_size: 1995, max_engine_size: 2995 }),
];
const entries = records.map(entryOf);
/** The positions (1-based, as the records' ids) of the entries a search finds, in its order. */
const found = (criteria: Criteria) =>
  sortEntries(
    entries.filter((entry) => entryMatches(entry, criteria, tokensOf(criteria.q ?? ''))),
    effectiveSort(criteria),
  ).map(([position]) => position + 1);

describe('text as it is matched', () => {
  it('folds case, width and accents', () => {
    expect(fold('ＴＯＹＯＴＡ')).toBe('toyota');
    expect(fold('Citroën')).toBe('citroen');
    expect(fold('Škoda')).toBe('skoda');
  });

  it('splits typed text into words at spaces, punctuation and where Han meets Latin, dropping joiners', () => {
    expect(tokensOf('豐田Toyota  C-HR e:HEV 2.0,"Limited"')).toEqual(['豐田', 'toyota', 'chr', 'ehev', '20', 'limited']);
  });

  it('finds a name by each of its words, the parts after a joiner or between letters and digits, and every ending of its Chinese words', () => {
    expect(wordsOf('阿爾法·羅密歐 Alfa Romeo Giulia')).toEqual(
      expect.arrayContaining(['阿爾法', '爾法', '法', '羅密歐', '密歐', '歐', 'alfa', 'romeo', 'giulia']),
    );
    expect(wordsOf('豐田 Toyota C-HR e:HEV')).toEqual(expect.arrayContaining(['chr', 'hr', 'ehev', 'hev']));
    expect(wordsOf('豐田 Toyota RAV4 2.5')).toEqual(expect.arrayContaining(['rav4', '4', '25', '5']));
  });

  it('finds a model code typed without its joiners or spaces, as people type them (crv, cx5, ehev, c200)', () => {
    expect(wordsOf('本田 Honda CR-V e:HEV')).toEqual(expect.arrayContaining(['crv', 'ehev']));
    expect(wordsOf('萬事得 Mazda CX-5 2.5')).toEqual(expect.arrayContaining(['cx5', '25']));
    expect(wordsOf('捷豹 Jaguar I-Pace')).toContain('ipace');
    // Across one space or punctuation, in either script: each such word knows the length of its first run.
    expect(indexWordsOf('平治 Mercedes-Benz C 200')).toEqual(
      new Map([
        ['平治', 0],
        ['治', 0],
        ['mercedesbenz', 0],
        ['benz', 0],
        ['c', 0],
        ['mercedesbenzc', 12],
        ['200', 0],
        ['c200', 1],
      ]),
    );
    expect(indexWordsOf('阿爾法·羅密歐').get('法羅密歐')).toBe(1);
    // Two numbers side by side stay two numbers.
    expect(wordsOf('平治 Mercedes-Benz C 200 1.5')).not.toContain('20015');
  });

  it('takes hyphens, spaces and joiners typed or stored as the same, in both scripts (RAV-4 finds RAV4, c200 finds C 200)', () => {
    const spellings = {
      latin: ['RAV4', 'RAV-4', 'RAV 4', 'rav‐4', 'RAV–4', 'RAV.4', 'RAV\u00AD4'],
      code: ['C200', 'C-200', 'C 200', 'C/200'],
      han: ['阿爾法羅密歐', '阿爾法·羅密歐', '阿爾法 羅密歐', '阿爾法-羅密歐', '阿爾法‧羅密歐'],
    };
    for (const [kind, forms] of Object.entries(spellings)) {
      const stored = forms.map((form, at) => entryOf(model(at + 1, `車 Make ${form} Sport`), at));
      for (const typed of forms) {
        const hits = stored.filter((entry) => entryMatches(entry, {}, tokensOf(typed))).map(([, name]) => name);
        expect(hits, `${kind}: ${typed}`).toEqual(stored.map(([, name]) => name));
      }
    }
    // Still the beginning of a word: a typed space does not make an inner part a word.
    expect(found({ q: 'oyota' })).toEqual([]);
    expect(found({ q: 'lfa romeo' })).toEqual([]);
  });

  it('looks a word up by its first Han character or its first two characters; a lone letter is not looked up', () => {
    expect(shardOf('豐田')).toBe('豐');
    expect(shardOf('toyota')).toBe('to');
    expect(shardOf('t')).toBeUndefined();
    expect(shardOf('5')).toBeUndefined();
    expect(wordShardPath('to')).toBe('/search/words/74-6f.json');
    expect(wordShardPath('豐')).toBe('/search/words/8c50.json');
  });
});

describe('what a row must meet', () => {
  it('matches each typed word as the beginning of a word of the name, in either script, any case, width or accent', () => {
    expect(found({ q: '豐田' })).toEqual([1, 4]);
    expect(found({ q: 'toy' })).toEqual([1, 4]);
    expect(found({ q: 'ＨＯＮＤＡ' })).toEqual([2]);
    expect(found({ q: 'toyota gr' })).toEqual([4]);
    expect(found({ q: 'citroen' })).toEqual([5]);
    expect(found({ q: '羅密歐' })).toEqual([6]);
    expect(found({ q: 'oyota' })).toEqual([]);
  });

  it('filters by a seat count within the range, a price range, transmission, electric and make', () => {
    expect(found({ seats: 7 })).toEqual([1, 3]);
    expect(found({ priceMin: 600000 })).toEqual([1]);
    expect(found({ priceMax: 320000 })).toEqual([5, 2, 3, 4, 6]);
    expect(found({ transmission: 'manual' })).toEqual([2, 4]);
    expect(found({ electric: true })).toEqual([3]);
    expect(found({ make: '豐田' })).toEqual([1, 4]);
    expect(found({ make: '豐田', transmission: 'manual' })).toEqual([4]);
    expect(found({ make: 'Toyota' })).toEqual([]);
  });

  it('names the filters a search asks for', () => {
    expect(filtersOf({ make: '豐田', seats: 7, transmission: 'auto', electric: true, q: 'x', priceMin: 1 })).toEqual([
      'make:豐田',
      'seats:7',
      'auto',
      'electric',
    ]);
  });
});

describe('orders', () => {
  it('sorts low to high by a lower bound, high to low by an upper bound, ties in listing order both ways', () => {
    expect(found({ sort: 'price' })).toEqual([5, 2, 3, 4, 6, 1]);
    expect(found({ sort: '-price' })).toEqual([1, 2, 3, 4, 6, 5]);
    expect(found({ sort: 'seats' })).toEqual([4, 2, 3, 5, 6, 1]);
    expect(found({ sort: '-seats' })).toEqual([1, 3, 2, 5, 6, 4]);
    expect(found({ sort: 'engine' })).toEqual([3, 6, 1, 2, 4, 5]);
    expect(found({ sort: '-engine' })).toEqual([6, 1, 2, 4, 5, 3]);
    expect(found({ sort: '-name' })).toEqual([4, 1, 3, 2, 5, 6]);
  });

  it('sorts names by their Latin part folded, numbers by value, then the Chinese part', () => {
    expect(found({ sort: 'name' })).toEqual([6, 5, 2, 3, 1, 4]);
    const numbered = [model(1, '豐田 Toyota Model 10'), model(2, '豐田 Toyota Model 9'), model(3, 'toyota model 9')].map(entryOf);
    expect(sortEntries(numbered, 'name').map(([position]) => position)).toEqual([2, 1, 0]);
    expect(nameSortKey('Citroën C5') < nameSortKey('Civic')).toBe(true);
  });

  it('shows a price search in price order unless another is asked for', () => {
    expect(effectiveSort({ priceMin: 1 })).toBe('price');
    expect(effectiveSort({ priceMax: 1, sort: 'name' })).toBe('name');
    expect(effectiveSort({ seats: 4 })).toBeUndefined();
  });
});

describe("a filter value's sorted lists", () => {
  const sizesOf = (rows: number) => {
    const starts = sortedListStarts(rows);
    return starts.slice(1).map((end, at) => end - starts[at]!);
  };

  it.each([65, 101, 200, 300, 513, 1_000, 1_025, 4_321, 30_000])('cut %i rows into files that hold each row once, in order', (rows) => {
    const starts = sortedListStarts(rows);
    expect(starts[0]).toBe(0);
    expect(starts.at(-1)).toBe(rows);
    expect(sizesOf(rows).every((size) => size > 0 && size <= 512)).toBe(true);
  });

  it('have files of 64, 64, 128 and 256 rows from each end of a long list, and of 512 between', () => {
    const sizes = sizesOf(30_000);
    expect(sizes.slice(0, 4)).toEqual([64, 64, 128, 256]);
    expect(sizes.slice(-4)).toEqual([256, 128, 64, 64]);
    expect(sizes.slice(4, -5).every((size) => size === 512)).toBe(true);
    expect(sizes.length).toBe(65);
  });

  it('keep the files from the start whole where a list is short, and those from the end as far as they do not reach into them', () => {
    expect(sizesOf(101)).toEqual([64, 37]);
    expect(sizesOf(1_000)).toEqual([64, 64, 128, 256, 232, 128, 64, 64]);
  });

  it('in name order, cut each run of one make as a list of its own, and share files between runs shorter than a file', () => {
    // Makes by place: 3 rows of 0, 200 of 1, 10 of 2, 50 of 3, 5 of 4, 64 of 5, 2 of 6.
    const makes = [
      [0, 3],
      [1, 200],
      [2, 10],
      [3, 50],
      [4, 5],
      [5, 64],
      [6, 2],
    ].flatMap(([make, rows]) => Array<number>(rows!).fill(make!));
    const starts = nameListStarts((at) => makes[at]!, makes.length);
    const run = (from: number, rows: number) =>
      sortedListStarts(rows)
        .slice(0, -1)
        .map((at) => from + at);
    // 0 alone (a long run follows); 2 and 3 share a file, which 4 would take past 64 rows; 5 in its own; 6 after it.
    expect(starts).toEqual([0, ...run(3, 200), 203, 263, 268, 332, 334]);
    expect(nameListStarts(() => 7, 1_000)).toEqual(sortedListStarts(1_000));
    expect(nameListStarts(() => 7, 0)).toEqual([0]);
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
