/**
 * The search index's counts of rows meeting two filters or more (`FilterCounts`, src/listing/search.ts),
 * so that a search of filters alone says its count exactly from the start: for each filter value
 * that comes first among them (a make, a seat count, a transmission), a count for each combination
 * of the filters after it, written in that value's document. Rows are counted by what decides their
 * filters (their make, seat range, transmissions and whether electric): a million rows have a few
 * thousand such kinds.
 */
import { AUTO, FILTER_JOINER, filterId, MANUAL, type FilterCounts } from '../listing/search.ts';

/** What decides a row's filters, and how many rows are of that kind. */
interface Kind {
  make: string;
  minSeat: number;
  maxSeat: number;
  transmissions: number;
  electric: boolean;
  rows: number;
}

export class FilterCombinations {
  private readonly kinds = new Map<string, Kind>();

  /** Counts a row with make filter `make` (`filterId.make`), its seat range, transmissions (AUTO | MANUAL) and whether it is electric. */
  add(make: string, minSeat: number, maxSeat: number, transmissions: number, electric: boolean): void {
    const key = `${make}\u0000${minSeat}\u0000${maxSeat}\u0000${transmissions}\u0000${electric ? 1 : 0}`;
    const kind = this.kinds.get(key);
    if (kind) kind.rows += 1;
    else this.kinds.set(key, { make, minSeat, maxSeat, transmissions, electric, rows: 1 });
  }

  /** The counts by the first filter's id, their keys in code unit order (the same rows, the same bytes). */
  byFirst(): Map<string, FilterCounts> {
    const counts = new Map<string, FilterCounts>();
    for (const { make, minSeat, maxSeat, transmissions, electric, rows } of this.kinds.values()) {
      // The filters of each kind, in `filtersOf`'s order: a search asks for at most one of each.
      const kinds: string[][] = [
        [make],
        Array.from({ length: maxSeat - minSeat + 1 }, (_, at) => filterId.seats(minSeat + at)),
        [...(transmissions & AUTO ? [filterId.auto] : []), ...(transmissions & MANUAL ? [filterId.manual] : [])],
        electric ? [filterId.electric] : [],
      ];
      const choose = (from: number, chosen: string[]): void => {
        if (from === kinds.length) {
          if (chosen.length < 2) return;
          const [first, ...others] = chosen as [string, ...string[]];
          const file = counts.get(first) ?? counts.set(first, {}).get(first)!;
          const key = others.join(FILTER_JOINER);
          file[key] = (file[key] ?? 0) + rows;
          return;
        }
        choose(from + 1, chosen);
        for (const value of kinds[from]!) choose(from + 1, [...chosen, value]);
      };
      choose(0, []);
    }
    return new Map(
      [...counts].map(([first, file]) => [
        first,
        Object.fromEntries(Object.entries(file).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      ]),
    );
  }
}
