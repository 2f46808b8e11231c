/**
 * Page math: how many pages a listing has, which records a page holds, and which page a request's
 * `page` parameter means, the way Django REST Framework's PageNumberPagination reads it.
 */

/** Entries on a full page (the origin's fixed page size). */
export const PAGE_SIZE = 10;

/** Pages in a listing of `count` entries; an empty listing still has its (empty) page 1. */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / PAGE_SIZE));
}

export function pageNumbers(count: number): number[] {
  return Array.from({ length: pageCount(count) }, (_, index) => index + 1);
}

/** The records page `page` holds, in listing order. */
export function pageSlice<T>(records: readonly T[], page: number): T[] {
  const { first, end } = pageRange(page, records.length);
  return records.slice(first, end);
}

/** The positions (0-based, in listing order) page `page` of a listing of `count` holds: `first` up to, not including, `end`. */
export function pageRange(page: number, count: number): { first: number; end: number } {
  const first = (page - 1) * PAGE_SIZE;
  return { first, end: Math.max(first, Math.min(first + PAGE_SIZE, count)) };
}

/** The page that holds the record at `position` (0-based, in listing order). */
export function pageOfPosition(position: number): number {
  return Math.floor(position / PAGE_SIZE) + 1;
}

/** The neighbours of a page: null before the first and after the last. */
export function neighbours(page: number, count: number): { next: number | null; previous: number | null } {
  return { next: page < pageCount(count) ? page + 1 : null, previous: page > 1 ? page - 1 : null };
}

/** DRF's value for the last page (`page=last`). */
export const LAST_PAGE_STRING = 'last';

/**
 * The page a `page` query value selects, or null for "Invalid page." (a 404).
 * DRF reads the value with Python's int(): surrounding white space, a sign, leading zeros and
 * underscores between digits are accepted; `1.5`, `2.0`, `abc` are not. Missing or empty is page 1.
 */
export function pageFromQuery(value: string | null | undefined, count: number): number | null {
  const last = pageCount(count);
  if (value === null || value === undefined || value === '') return 1;
  if (value === LAST_PAGE_STRING) return last;
  const match = /^[ \t\n\r\f\v]*([+-]?)([0-9](?:_?[0-9])*)[ \t\n\r\f\v]*$/.exec(value);
  if (!match) return null;
  const page = Number(match[2]!.replaceAll('_', '')) * (match[1] === '-' ? -1 : 1);
  return page >= 1 && page <= last ? page : null;
}
