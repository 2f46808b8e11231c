/**
 * The search index's filter values (a make, a seat count, a transmission, electric): which rows meet
 * each, its list in listing order and in every other order (`sortedListChunkPath`), and its document
 * (`FilterDocument`: its list, its count, the counts of it with other filters, its files in name
 * order, a make's stretches of the others' lists in name order). A filter and a sort
 * read the filter's own list in that order: a step of results costs a file whatever the filter's
 * share of the listing, where the listing's order read for it cost a file for every few results.
 */
import { FilterCombinations } from './search-counts.ts';
import {
  AUTO,
  CHUNK_ROWS,
  filterId,
  filterPath,
  listChunkPath,
  MANUAL,
  nameListStarts,
  sortedListChunkPath,
  sortedListStarts,
  type FilterDocument,
  type MakeStretches,
  type NameSpan,
  type Order,
} from '../listing/search.ts';

/**
 * A growing typed array: a million rows' lists (seven million positions for the words) and sort
 * keys at four or eight bytes a value, without a JS array's spare capacity and element kinds.
 */
export class Growing<T extends Uint32Array | Uint16Array | Uint8Array | Float64Array> {
  private array: T;
  private readonly make: (length: number) => T;
  length = 0;

  constructor(make: (length: number) => T) {
    this.make = make;
    this.array = make(16);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = this.make(2 * this.length);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }

  get all(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

export const positionList = (): Growing<Uint32Array> => new Growing((length) => new Uint32Array(length));

/** Writes a list's rows at `positions` into files, a file from each of `starts` (CHUNK_ROWS each without). */
export type WriteList = (pathOf: (chunk: number) => string, positions: Uint32Array, starts?: readonly number[]) => void;

const ELECTRIC = 4;

export class FilterLists {
  private readonly rowsOf = new Map<string, Growing<Uint32Array>>();
  private readonly combinations = new FilterCombinations();
  /** Each row's make (an index into `makes`), seat range, and transmissions (AUTO | MANUAL) and ELECTRIC: what decides its filters. */
  private readonly makeOf = positionList();
  private readonly makes: string[] = [];
  private readonly makeIndex = new Map<string, number>();
  private readonly minSeat = new Growing((length) => new Uint16Array(length));
  private readonly maxSeat = new Growing((length) => new Uint16Array(length));
  private readonly kinds = new Growing((length) => new Uint8Array(length));
  /** Each filter's list name, or null where it has none; set by `settle`. */
  private readonly listOf = new Map<string, string | null>();
  /** `filterId.seats(n)` by n, made once. */
  private readonly seatIds: string[] = [];
  /** Each filter's count of files in name order, and each make's stretches of the other filters' lists in that order (by make index): set by `writeSorted`. */
  private readonly nameFiles = new Map<string, number>();
  private readonly stretchesOf: (MakeStretches | undefined)[] = [];

  /** The row at the next position: its make filter (`filterId.make`), seat range, transmissions and whether it is electric. */
  add(make: string, minSeat: number, maxSeat: number, transmissions: number, electric: boolean): void {
    let makeAt = this.makeIndex.get(make);
    if (makeAt === undefined) this.makeIndex.set(make, (makeAt = this.makes.push(make) - 1));
    const position = this.makeOf.length;
    this.makeOf.push(makeAt);
    this.minSeat.push(minSeat);
    this.maxSeat.push(maxSeat);
    const kind = transmissions | (electric ? ELECTRIC : 0);
    this.kinds.push(kind);
    this.eachFilterOf(makeAt, minSeat, maxSeat, kind, (id) =>
      (this.rowsOf.get(id) ?? this.rowsOf.set(id, positionList()).get(id)!).push(position),
    );
    this.combinations.add(make, minSeat, maxSeat, transmissions, electric);
  }

  /** Calls `visit` with each filter a row of this make, seat range and kind (transmissions and ELECTRIC) meets. */
  private eachFilterOf(makeAt: number, minSeat: number, maxSeat: number, kind: number, visit: (id: string) => void): void {
    visit(this.makes[makeAt]!);
    for (let seats = minSeat; seats <= maxSeat; seats += 1) visit((this.seatIds[seats] ??= filterId.seats(seats)));
    if (kind & AUTO) visit(filterId.auto);
    if (kind & MANUAL) visit(filterId.manual);
    if (kind & ELECTRIC) visit(filterId.electric);
  }

  /** Names each filter's list, where `listName` gives it one (from its id and its count): the others are read from the listing's orders. */
  settle(listName: (id: string, rows: number) => string | null): void {
    for (const [id, { length }] of this.rowsOf) this.listOf.set(id, listName(id, length));
  }

  /** Writes each filter's list in listing order, cut as its sorted lists are: it is read from its start alone. */
  writeLists(writeList: WriteList): void {
    for (const [id, list] of this.listOf) {
      const { all: positions } = this.rowsOf.get(id)!;
      if (list !== null) writeList((chunk) => listChunkPath(list, chunk), positions, sortedListStarts(positions.length));
    }
  }

  /**
   * Writes each filter's list in `order` (any but listing order), given the listing's positions in
   * that order, where it has more rows than a file holds (a file is read whole and sorted as well).
   */
  writeSorted(order: Order, positions: Uint32Array, writeList: WriteList): void {
    const sorted = new Map<string, Growing<Uint32Array>>();
    for (const [id, list] of this.listOf) if (list !== null && this.rowsOf.get(id)!.length > CHUNK_ROWS) sorted.set(id, positionList());
    if (sorted.size === 0) return;
    // The rows' columns read once, and one visitor for every row: this runs for every row in each order.
    const [makeOf, minSeat, maxSeat, kinds] = [this.makeOf.all, this.minSeat.all, this.maxSeat.all, this.kinds.all];
    let position = 0;
    const visit = (id: string) => sorted.get(id)?.push(position);
    for (position of positions) this.eachFilterOf(makeOf[position]!, minSeat[position]!, maxSeat[position]!, kinds[position]!, visit);
    for (const [id, rows] of sorted) {
      const list = this.listOf.get(id)!;
      const starts = order === 'name' ? this.cutByMake(id, rows.all) : sortedListStarts(rows.length);
      writeList((chunk) => sortedListChunkPath(list, order, chunk), rows.all, starts);
    }
  }

  /** The files of filter `id`'s list in name order, at `positions` (`nameListStarts`), and its makes' stretches of them (`MakeStretches`). */
  private cutByMake(id: string, positions: Uint32Array): number[] {
    const makeOf = this.makeOf.all;
    const starts = nameListStarts((at) => makeOf[positions[at]!]!, positions.length);
    this.nameFiles.set(id, starts.length - 1);
    if (this.makeIndex.has(id)) return starts;
    for (let file = 0; file < starts.length - 1; file += 1) {
      for (let at = starts[file]!; at < starts[file + 1]!; at += 1) {
        const stretches = (this.stretchesOf[makeOf[positions[at]!]!] ??= {});
        const stretch = (stretches[id] ??= [file, file, 0]);
        stretch[1] = file;
      }
    }
    for (const stretches of this.stretchesOf) {
      const stretch = stretches?.[id];
      if (stretch) stretch[2] = starts[stretch[1] + 1]! - starts[stretch[0]]!;
    }
    return starts;
  }

  /** Writes each filter's document (`FilterDocument`) with `write`; `spanOf` gives the name order's files that hold rows at positions. */
  writeDocuments(write: (path: string, text: string) => void, spanOf: (positions: Uint32Array) => NameSpan): void {
    const counts = this.combinations.byFirst();
    for (const [id, list] of this.listOf) {
      const { all: positions } = this.rowsOf.get(id)!;
      const makeAt = this.makeIndex.get(id);
      // A stretch as long as the make's own list saves it nothing.
      const stretches = Object.entries(makeAt === undefined ? {} : (this.stretchesOf[makeAt] ?? {})).filter(
        ([, [, , rows]]) => rows < positions.length,
      );
      const document: FilterDocument = [
        list,
        positions.length,
        ...spanOf(positions),
        counts.get(id) ?? {},
        this.nameFiles.get(id) ?? 0,
        Object.fromEntries(stretches.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      ];
      write(filterPath(id), JSON.stringify(document));
    }
  }
}
