/**
 * The search index the browsable pages read (its shape and names: src/listing/search.ts), written
 * from the listing a chunk at a time: every row's text is made once and written into each list it
 * belongs to. Its bytes depend on the records alone (logos are paths under the assets address), so
 * an unchanged file keeps its bytes from build to build and is not uploaded again.
 *
 * An edit in place (no row moved) costs the files it changes, not every file: a list's file is
 * the earlier index's file (a hard link to it) where it holds the same positions (`SLICES_FILE`
 * keeps a hash of each file's) and none of its rows changed. The lists and orders are still made
 * from every row; the bytes of the others are neither made nor written.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { serialize, deserialize } from 'node:v8';
import type { RecordChunks } from '../data/records-file.ts';
import { linkOrCopy } from '../files/links.ts';
import { FilterLists, Growing, positionList, type WriteList } from './search-filters.ts';
import { makeKeyOf } from '../listing/makes.ts';
import {
  CHUNK_ROWS,
  FILTER_LIST_SHARE,
  filterId,
  HEAD_ROWS,
  KEYS_PER_GROUP,
  LIST_ALWAYS_BELOW,
  listChunkPath,
  nameSortKey,
  orderChunkPath,
  orderStarts,
  ORDER_KEYS,
  ORDERS,
  HIGH_PRICE_KEYS_PATH,
  highPriceKeysGroupPath,
  PRICE_FROM_PATH,
  priceStepList,
  priceSteps,
  shardOf,
  SHARDS_PATH,
  WHOLE_LISTING_UP_TO,
  WORD_LIST_SHARE,
  wordShardPath,
  indexWordsOf,
  entryOf,
  type NameSpan,
  type Order,
  type PriceFrom,
  type PriceKeys,
  type WordShard,
} from '../listing/search.ts';

/**
 * What sorts the listing's orders, by position: each row's numbers by Entry field (ORDER_KEYS),
 * and its name, as an index into `names`, the names there are (a few thousand at a million rows).
 */
interface SortColumns {
  numbers: Float64Array[];
  nameOf: Uint32Array;
  names: string[];
}

/** Bytes of row texts a block holds; a row (a name and a logo path of at most 255 characters each) takes at most about 2 kB. */
const TEXT_BLOCK_BYTES = 4 << 20;

/**
 * Every row's text in the index, UTF-8 in blocks of TEXT_BLOCK_BYTES: as a million strings (two
 * bytes a character where the name is Chinese) they would be the largest part of the writer's memory.
 * A row is never split between blocks, and no block is copied as the texts grow.
 */
class RowTexts {
  private readonly blocks: Buffer[] = [];
  private used = TEXT_BLOCK_BYTES;
  /** Each row's first byte and the byte after its last, as block * TEXT_BLOCK_BYTES + offset. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  get count(): number {
    return this.ends.length;
  }

  add(text: string): void {
    // At most three bytes a UTF-16 unit.
    if (3 * text.length > TEXT_BLOCK_BYTES) throw new Error(`a search index row of ${text.length} characters is longer than a block`);
    if (this.used + 3 * text.length > TEXT_BLOCK_BYTES) {
      this.blocks.push(Buffer.allocUnsafe(TEXT_BLOCK_BYTES));
      this.used = 0;
    }
    const base = (this.blocks.length - 1) * TEXT_BLOCK_BYTES;
    this.starts.push(base + this.used);
    this.used += this.blocks.at(-1)!.write(text, this.used);
    this.ends.push(base + this.used);
  }

  /** The JSON array of the rows at `positions[start]` to `positions[end - 1]`. */
  array(positions: ArrayLike<number>, start: number, end: number): Buffer {
    let length = 2 + Math.max(0, end - start - 1);
    for (let at = start; at < end; at += 1) length += this.ends[positions[at]!]! - this.starts[positions[at]!]!;
    const array = Buffer.allocUnsafe(length);
    let written = array.write('[');
    for (let at = start; at < end; at += 1) {
      if (at > start) written += array.write(',', written);
      const [from, to] = [this.starts[positions[at]!]!, this.ends[positions[at]!]!];
      const block = Math.floor(from / TEXT_BLOCK_BYTES);
      written += this.blocks[block]!.copy(array, written, from - block * TEXT_BLOCK_BYTES, to - block * TEXT_BLOCK_BYTES);
    }
    array.write(']', written);
    return array;
  }
}

const MIN_PRICE = ORDER_KEYS.price[0];
const MAX_PRICE = ORDER_KEYS['high-price'][0];

/** Writes a file of the index at its site path. */
type Write = (path: string, text: string | Buffer) => void;

/** Beside the index (at the downloads' root): a hash of the positions each list file holds, by its name (`SearchSlices`). */
export const SLICES_FILE = 'search-slices.v8';
type SearchSlices = Record<string, string>;

/** What the index of an edit in place may take from the earlier index. */
export interface EarlierSearch {
  /**
   * The earlier downloads folder: the index at its site paths, and its `SLICES_FILE` (checked whole
   * by the caller; the index's files are taken unread: see downloads-worker.ts).
   */
  dir: string;
  /** The earlier files' SHA-256, by name. */
  files: Readonly<Record<string, string>>;
  /** 0-based positions of the rows that differ from the earlier row at the same position: every other row is where it was. */
  changed: readonly number[];
}

/** What `writeSearchFiles` wrote: each file's SHA-256 by name (the index's by site path without the leading slash), and the names taken from the earlier index unread. */
export interface WrittenSearch {
  files: Record<string, string>;
  reused: string[];
}

/** A hash of the positions a list file holds: the same positions and rows, the same bytes. */
const sliceHash = (positions: Uint32Array) =>
  createHash('sha256')
    .update(new Uint8Array(positions.buffer, positions.byteOffset, positions.byteLength))
    .digest('base64');

/** A stable, path-safe name for a list of a value the data gives (a make, a word): not its text, which may be any script. */
const listName = (prefix: string, value: string) => `${prefix}-${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;

/**
 * Writes the index into `siteDir` (at its site paths) from the listing's records, in order, and
 * its `SLICES_FILE`; with `earlier`, the list files it can take from there are hard links to them.
 */
export function writeSearchFiles(siteDir: string, chunks: RecordChunks, earlier?: EarlierSearch): WrittenSearch {
  const hashes: Record<string, string> = {};
  const reused: string[] = [];
  const slices: SearchSlices = {};
  const earlierSlices = earlier && (deserialize(readFileSync(join(earlier.dir, SLICES_FILE))) as SearchSlices);
  const changed = new Uint8Array(earlier === undefined ? 0 : earlier.changed.reduce((last, position) => Math.max(last, position + 1), 0));
  for (const position of earlier?.changed ?? []) changed[position] = 1;
  const folders = new Set<string>();
  const placed = (path: string) => {
    const file = join(siteDir, path.slice(1));
    if (!folders.has(dirname(file))) {
      mkdirSync(dirname(file), { recursive: true });
      folders.add(dirname(file));
    }
    return file;
  };
  const write: Write = (path, text) => {
    writeFileSync(placed(path), text);
    hashes[path.slice(1)] = createHash('sha256').update(text).digest('hex');
  };
  /** Takes the earlier index's file at `path` where it holds the positions `slice` (hashed) and none of them changed. */
  const reusedFile = (path: string, positions: Uint32Array, slice: string): boolean => {
    const name = path.slice(1);
    const sha256 = earlier?.files[name];
    if (sha256 === undefined || earlierSlices?.[name] !== slice) return false;
    for (const position of positions) if (changed[position] === 1) return false;
    try {
      linkOrCopy(join(earlier!.dir, name), placed(path));
    } catch (error) {
      // Gone from the earlier folder (removed by hand, or its preparation pruned meanwhile): written instead.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    hashes[name] = sha256;
    reused.push(name);
    return true;
  };

  const texts = new RowTexts();
  const numbers = Array.from({ length: MAX_PRICE + 1 }, () => new Growing((length) => new Float64Array(length)));
  const nameOf = new Growing((length) => new Uint32Array(length));
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  /** Each name's make filter and words, by its index in `names`: a million rows share a few thousand names, and splitting one into words was the writer's largest cost. */
  const makeFilterOf: string[] = [];
  const wordsOfName: Map<string, number>[] = [];
  const filters = new FilterLists();
  const words = new Map<string, Growing<Uint32Array>>();
  /**
   * Each word's bridge (`indexWordsOf`): the least of any name's, so that a typed word reads it
   * wherever one needs it; and the words that names give different bridges (each has its own list).
   */
  const bridges = new Map<string, number>();
  const mixedBridges = new Set<string>();
  const add = (lists: Map<string, Growing<Uint32Array>>, key: string, position: number) =>
    (lists.get(key) ?? lists.set(key, positionList()).get(key)!).push(position);
  for (const chunk of chunks) {
    for (const record of chunk) {
      const position = texts.count;
      const name = record.combined_car_model;
      const entry = entryOf(record, position);
      const transmissions = entry[8];
      texts.add(JSON.stringify(entry));
      for (const [field] of Object.values(ORDER_KEYS)) numbers[field]!.push(entry[field] as number);
      let nameAt = nameIndex.get(name);
      if (nameAt === undefined) {
        nameIndex.set(name, (nameAt = names.push(name) - 1));
        makeFilterOf.push(filterId.make(makeKeyOf(name)));
        const wordsOfThisName = indexWordsOf(name);
        wordsOfName.push(wordsOfThisName);
        for (const [word, bridge] of wordsOfThisName) {
          const known = bridges.get(word) ?? bridge;
          if (known !== bridge) mixedBridges.add(word);
          bridges.set(word, Math.min(bridge, known));
        }
      }
      nameOf.push(nameAt);
      filters.add(makeFilterOf[nameAt]!, record.min_seat, record.max_seat, transmissions, record.max_engine_size === 0);
      for (const word of wordsOfName[nameAt]!.keys()) add(words, word, position);
    }
  }
  const rows = texts.count;
  const columns: SortColumns = { numbers: numbers.map((column) => column.all), nameOf: nameOf.all, names };

  const writeList: WriteList = (pathOf, positions, starts) => {
    for (let start = 0, chunk = 0; start < positions.length; chunk += 1) {
      const end = Math.min(starts?.[chunk + 1] ?? start + CHUNK_ROWS, positions.length);
      const path = pathOf(chunk);
      const held = positions.subarray(start, end);
      const slice = sliceHash(held);
      slices[path.slice(1)] = slice;
      if (!reusedFile(path, held, slice)) write(path, texts.array(positions, start, end));
      start = end;
    }
  };

  const kept = (count: number, share: number) => rows > WHOLE_LISTING_UP_TO && (count <= share * rows || count < LIST_ALWAYS_BELOW);
  filters.settle((id, count) => (kept(count, FILTER_LIST_SHARE) ? listName('filter', id) : null));
  /** Each row's file in the name order, for the name spans. */
  const nameChunkOf = new Uint32Array(rows);
  for (const order of ORDERS) {
    const positions = orderPositions(order, rows, columns);
    if (order === 'name') for (let at = 0; at < rows; at += 1) nameChunkOf[positions[at]!] = Math.floor(at / CHUNK_ROWS);
    writeList((chunk) => orderChunkPath(order, chunk), positions, orderStarts(order, rows));
    if (rows <= WHOLE_LISTING_UP_TO) continue;
    if (order !== 'listing') filters.writeSorted(order, positions, writeList);
    if (order === 'price') writePriceSteps(write, writeList, positions, columns);
    if (order === 'high-price') writeHighPriceKeys(write, positions, columns);
  }
  filters.writeLists(writeList);

  const nameSpanOf = (positions: Uint32Array): NameSpan => {
    let [first, last] = [Infinity, -Infinity];
    for (const position of positions) {
      first = Math.min(first, nameChunkOf[position]!);
      last = Math.max(last, nameChunkOf[position]!);
    }
    return [first, last];
  };
  const shards = new Map<string, WordShard>();
  for (const [word, { all: positions }] of words) {
    const shard = shardOf(word);
    if (shard === undefined || rows <= WHOLE_LISTING_UP_TO) continue;
    const bridge = bridges.get(word)!;
    const entries = shards.get(shard) ?? shards.set(shard, []).get(shard)!;
    // A word across two runs is read from its first run's list, in the same shard (every one of its rows is there), unless no single run holds it.
    if (bridge > 0 && !mixedBridges.has(word) && shardOf(word.slice(0, bridge)) === shard) {
      entries.push([word, positions.length, null, ...nameSpanOf(positions), 0, bridge]);
      continue;
    }
    const list = listName('word', word);
    const listed = kept(positions.length, WORD_LIST_SHARE) ? positions : positions.subarray(0, HEAD_ROWS);
    writeList((chunk) => listChunkPath(list, chunk), listed);
    entries.push([word, positions.length, list, ...nameSpanOf(positions), listed.length, bridge]);
  }
  for (const [shard, entries] of shards) {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    write(wordShardPath(shard), JSON.stringify(entries));
  }
  if (rows > WHOLE_LISTING_UP_TO) {
    filters.writeDocuments(write, nameSpanOf);
    write(SHARDS_PATH, JSON.stringify([...shards.keys()].sort()));
  }
  const slicesFile = serialize(slices);
  writeFileSync(join(siteDir, SLICES_FILE), slicesFile);
  return { files: { ...hashes, [SLICES_FILE]: createHash('sha256').update(slicesFile).digest('hex') }, reused };
}

/** The listing's positions in `order`, as `compareIn` orders entries (ties in listing order). */
function orderPositions(order: Order, rows: number, columns: SortColumns): Uint32Array {
  const positions = new Uint32Array(rows);
  for (let position = 0; position < rows; position += 1) positions[position] = position;
  if (order === 'listing') return positions;
  if (order === 'name') {
    // Each name's rank among the names there are (equal keys, equal ranks), then the rows by rank.
    const keys = columns.names.map(nameSortKey);
    const byKey = keys.map((_, at) => at).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
    const rank = new Uint32Array(keys.length);
    for (let at = 1; at < byKey.length; at += 1)
      rank[byKey[at]!] = rank[byKey[at - 1]!]! + (keys[byKey[at]!] === keys[byKey[at - 1]!] ? 0 : 1);
    const { nameOf } = columns;
    return positions.sort((a, b) => rank[nameOf[a]!]! - rank[nameOf[b]!]! || a - b);
  }
  const [field, direction] = ORDER_KEYS[order];
  const key = columns.numbers[field]!;
  return positions.sort((a, b) => direction * (key[a]! - key[b]!) || a - b);
}

/**
 * The price steps' lists and `from.json` (`PriceFrom`): each step's list holds the rows whose range
 * spans it (min price below it, max price at or above it), taken from the price order so each is
 * in that order.
 */
function writePriceSteps(write: Write, writeList: WriteList, positions: Uint32Array, { numbers }: SortColumns): void {
  const [minPrice, maxPrice] = [numbers[MIN_PRICE]!, numbers[MAX_PRICE]!];
  const steps = priceSteps(positions.length === 0 ? 0 : minPrice[positions[positions.length - 1]!]!);
  const spanning = steps.map(() => positionList());
  const firstFile = steps.map(() => Math.ceil(positions.length / CHUNK_ROWS));
  let next = 0;
  for (let at = 0; at < positions.length; at += 1) {
    const [min, max] = [minPrice[positions[at]!]!, maxPrice[positions[at]!]!];
    // The steps the rows so far start at or above (min prices only grow along the order).
    for (; next < steps.length && steps[next]! <= min; next += 1) firstFile[next] = Math.floor(at / CHUNK_ROWS);
    for (let step = next; step < steps.length && steps[step]! <= max; step += 1) spanning[step]!.push(positions[at]!);
  }
  const from: PriceFrom = [];
  for (const [index, step] of steps.entries()) {
    // A step no row spans, read from the same file as the one before, reads as that one does (below the lowest price).
    if (index > 0 && spanning[index]!.length === 0 && firstFile[index] === from.at(-1)![2]) continue;
    from.push([step, spanning[index]!.length, firstFile[index]!]);
    writeList((chunk) => listChunkPath(priceStepList(step), chunk), spanning[index]!.all);
  }
  write(PRICE_FROM_PATH, JSON.stringify(from));
}

/**
 * The high-price order's range directory: for each file, the lowest min price and the highest max
 * price in it, in groups of KEYS_PER_GROUP files under a top of the same for each group. A row
 * reaches a range only where its file's and its group's do, and in that order the highest max
 * prices are sorted: a price range sorted high to low reads the top, then the groups and files
 * that can hold a row of it.
 */
function writeHighPriceKeys(write: Write, positions: Uint32Array, { numbers }: SortColumns): void {
  const [minPrice, maxPrice] = [numbers[MIN_PRICE]!, numbers[MAX_PRICE]!];
  const files: PriceKeys = [];
  for (let start = 0; start < positions.length; start += CHUNK_ROWS) {
    const end = Math.min(start + CHUNK_ROWS, positions.length);
    let [lowest, highest] = [Infinity, -Infinity];
    for (let at = start; at < end; at += 1) {
      lowest = Math.min(lowest, minPrice[positions[at]!]!);
      highest = Math.max(highest, maxPrice[positions[at]!]!);
    }
    files.push([lowest, highest]);
  }
  const top: PriceKeys = [];
  for (let group = 0; group * KEYS_PER_GROUP < files.length; group += 1) {
    const keys = files.slice(group * KEYS_PER_GROUP, (group + 1) * KEYS_PER_GROUP);
    write(highPriceKeysGroupPath(group), JSON.stringify(keys));
    top.push([Math.min(...keys.map(([lowest]) => lowest)), Math.max(...keys.map(([, highest]) => highest))]);
  }
  write(HIGH_PRICE_KEYS_PATH, JSON.stringify(top));
}
