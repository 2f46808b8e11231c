import { describe, expect, it } from 'vitest';
import { neighbours, PAGE_SIZE, pageCount, pageFromQuery, pageNumbers, pageSlice } from '../../src/listing/pagination.ts';

describe('page math', () => {
  it('has page size 10, and one (empty) page for an empty listing', () => {
    expect(PAGE_SIZE).toBe(10);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(1)).toBe(1);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(259)).toBe(26);
    expect(pageNumbers(23)).toEqual([1, 2, 3]);
  });

  it('slices pages in listing order and leaves the last one short', () => {
    const records = Array.from({ length: 259 }, (_, index) => index);
    expect(pageSlice(records, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageSlice(records, 26)).toHaveLength(9);
    expect(pageSlice(records, 27)).toEqual([]);
  });

  it('links neighbours, with none before the first page or after the last', () => {
    expect(neighbours(1, 23)).toEqual({ next: 2, previous: null });
    expect(neighbours(3, 23)).toEqual({ next: null, previous: 2 });
    expect(neighbours(1, 0)).toEqual({ next: null, previous: null });
  });
});

describe('pageFromQuery reads `page` as DRF does', () => {
  it.each([
    [undefined, 1],
    [null, 1],
    ['', 1],
    ['1', 1],
    ['3', 3],
    ['03', 3],
    [' 2 ', 2],
    ['+2', 2],
    ['1_0', 10],
    ['last', 26],
  ])('%j → page %d', (value, page) => {
    expect(pageFromQuery(value, 259)).toBe(page);
  });

  it.each(['0', '-1', '-0', 'abc', '1.5', '2.0', '27', '1e1', 'LAST', 'Last', '0x1', '1__0', '_1', '1_'])('%j → Invalid page', (value) => {
    expect(pageFromQuery(value, 259)).toBeNull();
  });

  it('accepts page 1 of an empty listing and nothing past it', () => {
    expect(pageFromQuery('1', 0)).toBe(1);
    expect(pageFromQuery('last', 0)).toBe(1);
    expect(pageFromQuery('2', 0)).toBeNull();
  });
});
