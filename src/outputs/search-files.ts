/**
 * The search index the browsable pages read (its shape and names: src/listing/search.ts), written
 * from the listing a chunk at a time: every row's text is made once and written into each list it
 * belongs to. Its bytes depend on the records alone (logos are paths under the assets address), so
 * an unchanged file keeps its bytes from build to build and is not uploaded again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RecordChunks } from '../data/records-file.ts';
import { makeKeyOf } from '../listing/makes.ts';
import {
  AUTO,
  CHUNK_ROWS,
  FILTER_LIST_SHARE,
  filterId,
  HEAD_ROWS,
  KEYS_PER_GROUP,
  LIST_ALWAYS_BELOW,
  listChunkPath,
  LISTS_PATH,
  MANUAL,
  nameSortKey,
  orderChunkPath,
  ORDER_KEYS,
  ORDERS,
  priceKeysGroupPath,
  priceKeysPath,
  shardOf,
  WHOLE_LISTING_UP_TO,
  WORD_LIST_SHARE,
  wordShardPath,
  wordsOf,
  entryOf,
  type ListsDocument,
  type NameSpan,
  type Order,
  type PriceKeys,
  type PriceOrder,
  type WordShard,
} from '../listing/search.ts';

/** What sorts the listing's orders, by position: each row's numbers by Entry field (ORDER_KEYS), and its name key. */
interface SortColumns {
  numbers: number[][];
  nameKey: string[];
}

const MIN_PRICE = ORDER_KEYS.price[0];
const MAX_PRICE = ORDER_KEYS['high-price'][0];

/** A stable, path-safe name for a list of a value the data gives (a make, a word): not its text, which may be any script. */
const listName = (prefix: string, value: string) => `${prefix}-${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;

/**
 * Writes the index into `siteDir` (at its site paths) from the listing's records, in order.
 * Returns every file's SHA-256 by site path (without the leading slash).
 */
export function writeSearchFiles(siteDir: string, chunks: RecordChunks): Record<string, string> {
  const hashes: Record<string, string> = {};
  const folders = new Set<string>();
  const write = (path: string, text: string) => {
    const file = join(siteDir, path.slice(1));
    if (!folders.has(dirname(file))) {
      mkdirSync(dirname(file), { recursive: true });
      folders.add(dirname(file));
    }
    writeFileSync(file, text);
    hashes[path.slice(1)] = createHash('sha256').update(text).digest('hex');
  };

  const texts: string[] = [];
  const columns: SortColumns = { numbers: Array.from({ length: MAX_PRICE + 1 }, () => []), nameKey: [] };
  const filters = new Map<string, number[]>();
  const words = new Map<string, number[]>();
  const add = (lists: Map<string, number[]>, key: string, position: number) => {
    const list = lists.get(key);
    if (list) list.push(position);
    else lists.set(key, [position]);
  };
  for (const chunk of chunks) {
    for (const record of chunk) {
      const position = texts.length;
      const name = record.combined_car_model;
      const entry = entryOf(record, position);
      const transmissions = entry[8];
      texts.push(JSON.stringify(entry));
      for (const [field] of Object.values(ORDER_KEYS)) columns.numbers[field]!.push(entry[field] as number);
      columns.nameKey.push(nameSortKey(name));
      add(filters, filterId.make(makeKeyOf(name)), position);
      for (let seats = record.min_seat; seats <= record.max_seat; seats += 1) add(filters, filterId.seats(seats), position);
      if (transmissions & AUTO) add(filters, filterId.auto, position);
      if (transmissions & MANUAL) add(filters, filterId.manual, position);
      if (record.max_engine_size === 0) add(filters, filterId.electric, position);
      for (const word of wordsOf(name)) add(words, word, position);
    }
  }
  const rows = texts.length;

  const writeList = (pathOf: (chunk: number) => string, positions: ArrayLike<number>) => {
    for (let start = 0, chunk = 0; start < positions.length; start += CHUNK_ROWS, chunk += 1) {
      const end = Math.min(start + CHUNK_ROWS, positions.length);
      const parts: string[] = [];
      for (let at = start; at < end; at += 1) parts.push(texts[positions[at]!]!);
      write(pathOf(chunk), `[${parts.join(',')}]`);
    }
  };

  /** Each row's file in the name order, for the name spans. */
  const nameChunkOf = new Uint32Array(rows);
  for (const order of ORDERS) {
    const positions = orderPositions(order, rows, columns);
    if (order === 'name') for (let at = 0; at < rows; at += 1) nameChunkOf[positions[at]!] = Math.floor(at / CHUNK_ROWS);
    writeList((chunk) => orderChunkPath(order, chunk), positions);
    if (order === 'price' || order === 'high-price') writePriceKeys(write, order, positions, columns);
  }

  const nameSpanOf = (positions: readonly number[]): NameSpan => {
    let [first, last] = [Infinity, -Infinity];
    for (const position of positions) {
      first = Math.min(first, nameChunkOf[position]!);
      last = Math.max(last, nameChunkOf[position]!);
    }
    return [first, last];
  };
  const kept = (count: number, share: number) => rows > WHOLE_LISTING_UP_TO && (count <= share * rows || count < LIST_ALWAYS_BELOW);
  const filtersDocument: ListsDocument['filters'] = {};
  for (const [id, positions] of filters) {
    const list = kept(positions.length, FILTER_LIST_SHARE) ? listName('filter', id) : null;
    if (list) writeList((chunk) => listChunkPath(list, chunk), positions);
    filtersDocument[id] = [list, positions.length, ...nameSpanOf(positions)];
  }
  const shards = new Map<string, WordShard>();
  for (const [word, positions] of words) {
    const shard = shardOf(word);
    if (shard === undefined || rows <= WHOLE_LISTING_UP_TO) continue;
    const list = listName('word', word);
    const listed = kept(positions.length, WORD_LIST_SHARE) ? positions : positions.slice(0, HEAD_ROWS);
    writeList((chunk) => listChunkPath(list, chunk), listed);
    const entries = shards.get(shard) ?? shards.set(shard, []).get(shard)!;
    entries.push([word, positions.length, list, ...nameSpanOf(positions), listed.length]);
  }
  for (const [shard, entries] of shards) {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    write(wordShardPath(shard), JSON.stringify(entries));
  }
  const lists: ListsDocument = { rows, filters: filtersDocument, shards: [...shards.keys()].sort() };
  write(LISTS_PATH, JSON.stringify(lists));
  return hashes;
}

/** The listing's positions in `order`, as `compareIn` orders entries (ties in listing order). */
function orderPositions(order: Order, rows: number, columns: SortColumns): Uint32Array {
  const positions = new Uint32Array(rows);
  for (let position = 0; position < rows; position += 1) positions[position] = position;
  if (order === 'listing') return positions;
  if (order === 'name') {
    const keys = columns.nameKey;
    return positions.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  }
  const [field, direction] = ORDER_KEYS[order];
  const key = columns.numbers[field]!;
  return positions.sort((a, b) => direction * (key[a]! - key[b]!) || a - b);
}

/**
 * A price order's range directory: for each file, the lowest min price and the highest max price
 * in it, in groups of KEYS_PER_GROUP files under a top of the same for each group. A row reaches a
 * range only where its file's and its group's do, and in an order by price those bounds are
 * sorted too: a price range reads the top, then the groups and files that can hold a row of it.
 */
function writePriceKeys(
  write: (path: string, text: string) => void,
  order: PriceOrder,
  positions: Uint32Array,
  { numbers }: SortColumns,
): void {
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
    write(priceKeysGroupPath(order, group), JSON.stringify(keys));
    top.push([Math.min(...keys.map(([lowest]) => lowest)), Math.max(...keys.map(([, highest]) => highest))]);
  }
  write(priceKeysPath(order), JSON.stringify(top));
}
