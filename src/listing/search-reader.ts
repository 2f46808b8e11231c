/**
 * How a search reads the sharded index (src/listing/search.ts): which list it reads, in which
 * order, what it knows of the count at once, and a step of results at a time, reading at most
 * STEP_FILES files a step whatever the listing's size. Pure but for `read`, which fetches one of the
 * index's files by its path (the browser's fetch; a test's file read), so that the search the
 * browser runs is the one the tests check against every row.
 */
import {
  chunkCount,
  CHUNK_ROWS,
  effectiveSort,
  entryMatches,
  filtersOf,
  KEYS_PER_GROUP,
  listChunkPath,
  orderChunkPath,
  orderOf,
  orderStarts,
  HIGH_PRICE_KEYS_PATH,
  highPriceKeysGroupPath,
  PRICE_FROM_PATH,
  priceStepList,
  shardOf,
  SHARDS_PATH,
  sortEntries,
  sortedListChunkPath,
  sortedListStarts,
  SORTED_MIDDLE_ROWS,
  tokenNeeds,
  tokensOf,
  WHOLE_LISTING_UP_TO,
  wordShardPath,
  filterId,
  filterPath,
  FILTER_JOINER,
  type Criteria,
  type Entry,
  type FilterCounts,
  type FilterDocument,
  type MakeStretches,
  type NameSpan,
  type PriceFrom,
  type PriceKeys,
  type WordShard,
} from './search.ts';

/**
 * Fetches one of the index's files, parsed. With `ifThere`, a file that is not there (404, ENOENT)
 * is undefined: a filter value no row has has no document. Any other failure rejects.
 */
export type IndexReader = <T>(path: string, ifThere?: boolean) => Promise<T>;

/** Results a step adds. */
export const RESULTS_PER_STEP = 50;
/** Files read at most for one step of results, and CHUNK_ROWS rows for each (about 2 KB compressed): a rare match shows what was found, and more on request. */
export const STEP_FILES = 24;
/** Files asked for at once while reading a list, at most: where few rows are likely to match, and where more are read than first thought. */
const MOST_AHEAD = 8;
const GROWN_AHEAD = 4;
/** A set of rows of at most this many is read whole and sorted here, rather than read in order from the whole listing. */
const SORT_HERE_UP_TO = 1024;

/** Rows read in order, a file at a time, each row once. */
interface Source {
  /** The next file's rows in order, or undefined at the end; `needed`, where known, how many more rows the step is likely to read. */
  next: (needed?: number) => Promise<Entry[] | undefined>;
  /** Read to its end in one step (a small list), so that its count is exact. */
  whole: boolean;
}

/**
 * The files `chunks` of a list (in the order given, each read backwards where `descending`), asked
 * for in batches, each once the one before is read: first as many rows as a step needs where
 * `share` of them match (a file where all do, so a sort or a filter fetches one file; up to
 * MOST_AHEAD files), then the rows the step is likely to need still (`next`'s `needed`, from the
 * share of the rows read that matched), or, before any matched, twice as many as the batch before,
 * up to GROWN_AHEAD files' worth (a price range's files hold fewer matches than it can know). A
 * `sparse` list (a price range's files, high to low) starts at GROWN_AHEAD: one round trip, not
 * three, to the files that first step most often needs. A list's files hold CHUNK_ROWS rows each,
 * or start at `starts` (`sortedListStarts`), or are cut by make (`byMake`, `nameListStarts`) to
 * sizes it does not know: its first counted as CHUNK_ROWS (a step reads a file at least), the
 * others as SORTED_MIDDLE_ROWS (no file holds more), so a batch asks for a file more than it needs
 * at most.
 */
function listSource(
  read: IndexReader,
  pathOf: (chunk: number) => string,
  chunks: AsyncIterator<number>,
  rows: number,
  {
    descending = false,
    share = 1,
    sparse = false,
    whole = rows <= WHOLE_LISTING_UP_TO,
    starts,
    byMake = false,
  }: {
    descending?: boolean;
    share?: number;
    sparse?: boolean;
    whole?: boolean;
    starts?: readonly number[] | undefined;
    byMake?: boolean;
  } = {},
): Source {
  const ahead: number[] = [];
  let files = 0;
  // A list read whole in one step (readStep) is asked for whole, up to MOST_AHEAD files at once.
  const wanted = whole ? Infinity : Math.ceil(RESULTS_PER_STEP / (Math.max(share, 1e-6) * CHUNK_ROWS));
  let batch = CHUNK_ROWS * Math.min(MOST_AHEAD, Math.max(sparse ? GROWN_AHEAD : 1, wanted));
  return {
    whole,
    next: async (needed) => {
      if (ahead.length === 0) {
        const asking = whole || needed === undefined ? batch : Math.min(MOST_AHEAD * CHUNK_ROWS, needed);
        for (let asked = 0; asked < asking;) {
          const chunk = await chunks.next();
          if (chunk.done) break;
          ahead.push(chunk.value);
          asked += starts ? starts[chunk.value + 1]! - starts[chunk.value]! : byMake && files > 0 ? SORTED_MIDDLE_ROWS : CHUNK_ROWS;
          files += 1;
          // Asked for at once; each is awaited in its turn, whose failure it is.
          read<Entry[]>(pathOf(chunk.value)).catch(() => undefined);
        }
        if (needed === undefined) batch = Math.max(batch, Math.min(GROWN_AHEAD * CHUNK_ROWS, batch * 2));
      }
      const chunk = ahead.shift();
      if (chunk === undefined) return undefined;
      const entries = await read<Entry[]>(pathOf(chunk));
      return descending ? [...entries].reverse() : entries;
    },
  };
}

/** How many files a candidate's list of `rows` rows has: a filter value's is cut as its sorted lists are, a word's CHUNK_ROWS a file. */
const filesOf = ({ filter = false }: Candidate, rows: number) => (filter ? sortedListStarts(rows).length - 1 : chunkCount(rows));

/** The files of a list of `rows` rows (CHUNK_ROWS a file), first to last or last to first. */
const allChunks = (rows: number, descending = false) => fileRange(chunkCount(rows), descending);

/** Files 0 to `count` - 1, or backwards. */
async function* fileRange(count: number, descending = false): AsyncIterator<number> {
  for (let at = 0; at < count; at += 1) yield descending ? count - 1 - at : at;
}

/** A common word's head: the list of its first `listed` rows of `rows`. */
interface Head {
  name: string;
  listed: number;
  rows: number;
}

/**
 * A common word's rows in listing order: its head, then the listing from the row after the head's
 * last. Of the listing's `rows`, `share` meet the search.
 */
function headThenListing(read: IndexReader, head: Head, rows: number, share: number): Source {
  const wordShare = head.rows / rows;
  // Part of a longer source, it is not read whole.
  const headSource = listSource(read, (chunk) => listChunkPath(head.name, chunk), allChunks(head.listed), head.listed, {
    share: share / wordShare,
    whole: false,
  });
  let last = -1;
  let rest: Source | undefined;
  return {
    whole: false,
    next: async (needed) => {
      if (!rest) {
        const entries = await headSource.next(needed);
        if (entries !== undefined) {
          last = entries.at(-1)?.[0] ?? last;
          return entries;
        }
        const from = Math.floor((last + 1) / CHUNK_ROWS);
        const chunks = (async function* () {
          for (let chunk = from; chunk < chunkCount(rows); chunk += 1) yield chunk;
        })();
        rest = listSource(read, (chunk) => orderChunkPath('listing', chunk), chunks, rows, { share });
      }
      return (await rest.next(needed))?.filter(([position]) => position > last);
    },
  };
}

/**
 * The lists that hold the rows of `words` of a shard, each once: a word's own, or, for a word
 * across two runs without one, its first run's word's (`WordShard`). Each with how many rows it
 * holds (`listed`) and how many its word has (more where it is a head).
 */
function listsOfWords(shard: WordShard, words: WordShard): Head[] {
  const byWord = new Map(shard.map((entry) => [entry[0], entry]));
  const found = new Map<string, Head>();
  for (const entry of words) {
    const [word, , list, , , , bridge] = entry;
    const [, rows, name, , , listed] = list === null ? byWord.get(word.slice(0, bridge))! : entry;
    // The writer gives every first run's word a list of its own: an index without one is not this build's.
    if (name === null) throw new Error(`${word}: its first run's word has no list`);
    found.set(name, { name, listed, rows });
  }
  return [...found.values()];
}

/** Rows already in hand, given at once. */
function heldSource(entries: Entry[]): Source {
  let given = false;
  return {
    whole: true,
    next: async () => {
      if (given) return undefined;
      given = true;
      return entries;
    },
  };
}

/**
 * A set of rows every result is in, of a size the index gives (the listing, a filter's rows, the
 * rows of the filters together, a typed word's): the results not yet found are at most its rows
 * not yet read, `rows` less `seen`.
 */
interface Bound {
  rows: number;
  holds: (entry: Entry) => boolean;
  seen: number;
}

/** A search under way: what it reads, what it found, how many are shown. */
export interface Search {
  criteria: Criteria;
  tokens: string[];
  source: Source;
  /** How many results there are, where that is known before any is read (the filters alone, or one word, are the whole search). */
  exact: number | undefined;
  matches: Entry[];
  shown: number;
  /** The source is read to its end: the matches are all there are. */
  ended: boolean;
  /** Rows read and checked so far. */
  looked: number;
  bounds: Bound[];
}

/** The one criterion of `criteria` that the filter `id` (`filtersOf`) stands for. */
function criterionOf({ make, seats, transmission }: Criteria, id: string): Criteria {
  if (make !== undefined && id === filterId.make(make)) return { make };
  if (seats !== undefined && id === filterId.seats(seats)) return { seats };
  if (transmission !== undefined && id === filterId[transmission]) return { transmission };
  // The only other filter.
  return { electric: true };
}

/** Whether criteria can be searched: a word to look up, or a criterion besides the words (a lone letter is not looked up). */
export function searchable(criteria: Criteria): boolean {
  const { q, ...others } = criteria;
  return Object.keys(others).length > 0 || tokensOf(q ?? '').some((token) => shardOf(token) !== undefined);
}

/** The rows of one or more lists: a filter value's, or those of the words a typed word begins. */
interface Candidate {
  lists: { name: string; rows: number }[];
  rows: number;
  /** The share of the listing's rows it holds. */
  share: number;
  /** A filter value's list: read a step at a time, never whole (its count is in its document). */
  filter?: boolean;
  /** A make's: its rows are together in name order where its names begin alike (`NameSpan`). */
  make?: boolean;
  /** A filter value's: the files of its list in name order (`nameListStarts`). */
  nameFiles?: number;
}

/**
 * A search of `criteria` over a listing of `rows` rows: the smallest list that holds every result
 * (a filter value's, a word's; else the listing in the order asked for, from the price range where
 * one is given), read whole and sorted here where it is small and a sort is asked for.
 */
export async function startSearch(read: IndexReader, criteria: Criteria, rows: number): Promise<Search> {
  const tokens = tokensOf(criteria.q ?? '');
  const bounds: Bound[] = [{ rows, holds: () => true, seen: 0 }];
  const bound = (boundRows: number, holds: (entry: Entry) => boolean) => bounds.push({ rows: boundRows, holds, seen: 0 });
  const search = (source: Source, exact?: number): Search => ({
    criteria,
    tokens,
    source,
    exact,
    matches: [],
    shown: 0,
    ended: false,
    looked: 0,
    bounds,
  });
  const none = () => search(heldSource([]), 0);
  const shownSort = effectiveSort(criteria);
  // An electric model's engine sizes are 0: by engine size, in either direction, electric models are in listing order.
  const sort = criteria.electric && shownSort?.endsWith('engine') ? undefined : shownSort;
  const filters = filtersOf(criteria);
  const lookedUp = tokens.filter((token) => shardOf(token) !== undefined);
  const onlyCriterion =
    Object.keys(criteria).filter((key) => key !== 'sort').length === 1 &&
    filters.length + tokens.length === 1 &&
    lookedUp.length === tokens.length;
  /** The count, where the filters alone or one word are the whole search. */
  let known: number | undefined;
  const onlyFilters = filters.length > 0 && tokens.length === 0 && criteria.priceMin === undefined && criteria.priceMax === undefined;
  const candidates: Candidate[] = [];
  const heads: Head[] = [];
  /** The share of the rows that meets every filter and word looked up, were they independent: how many files a step is likely to read. */
  let share = 1;
  /** The files of the name order that can hold a result: every filter's and word's span, intersected. */
  let span: NameSpan | undefined;
  /** The make's counts with the other filters and its stretches of their lists in name order; each filter's list. */
  let [makeCounts, stretches]: [FilterCounts, MakeStretches] = [{}, {}];
  const listOf = new Map<string, string>();
  const within = ([first, last]: NameSpan) => {
    span = span === undefined ? [first, last] : [Math.max(span[0], first), Math.min(span[1], last)];
  };
  // A small listing is read whole, and exactly counted so: what the filters' documents say of it would cost a round trip and change nothing.
  if (rows > WHOLE_LISTING_UP_TO && (filters.length > 0 || lookedUp.length > 0)) {
    const [documents, shards] = await Promise.all([
      Promise.all(filters.map((filter) => read<FilterDocument | undefined>(filterPath(filter), true))),
      lookedUp.length > 0 ? read<string[]>(SHARDS_PATH) : ([] as string[]),
    ]);
    for (const [at, filter] of filters.entries()) {
      // No document: no row has that value.
      const [name, filterRows, spanFirst, spanLast, counts, nameFiles, makeStretches] = documents[at] ?? [null, 0, 0, -1, {}, 0, {}];
      if (filterRows === 0) return none();
      within([spanFirst, spanLast]);
      if (filter === filterId.make(criteria.make ?? '')) [makeCounts, stretches] = [counts, makeStretches];
      if (name !== null) listOf.set(filter, name);
      if (onlyCriterion) known = filterRows;
      share *= filterRows / rows;
      bound(filterRows, (entry) => entryMatches(entry, criterionOf(criteria, filter), []));
      if (name !== null)
        candidates.push({
          lists: [{ name, rows: filterRows }],
          rows: filterRows,
          share: filterRows / rows,
          filter: true,
          make: filter === filterId.make(criteria.make ?? ''),
          nameFiles,
        });
    }
    if (filters.length > 1) {
      // The rows of the filters together: the count where they are the whole search, and a closer bound where not.
      const together = documents[0]![4][filters.slice(1).join(FILTER_JOINER)] ?? 0;
      if (together === 0) return none();
      if (onlyFilters) known = together;
      share = together / rows;
      const { q: _words, priceMin: _from, priceMax: _to, sort: _sort, ...filtersAlone } = criteria;
      bound(together, (entry) => entryMatches(entry, filtersAlone, []));
    }
    for (const token of lookedUp) {
      const shard = shardOf(token)!;
      const shardWords = shards.includes(shard) ? await read<WordShard>(wordShardPath(shard)) : [];
      const words = shardWords.filter((word) => tokenNeeds(token, word));
      if (words.length === 0) return none();
      if (onlyCriterion && words.length === 1) known = words[0]![1];
      const wordRows = Math.min(
        rows,
        words.reduce((sum, [, rowsOfWord]) => sum + rowsOfWord, 0),
      );
      share *= wordRows / rows;
      bound(wordRows, (entry) => entryMatches(entry, {}, [token]));
      within([Math.min(...words.map(([, , , first]) => first)), Math.max(...words.map(([, , , , last]) => last))]);
      const wordLists = listsOfWords(shardWords, words);
      const listedRows = wordLists.reduce((sum, { listed }) => sum + listed, 0);
      // A common word's list is only its head: a candidate in listing order where it is the one list to read.
      if (wordLists.every(({ listed, rows: listRows }) => listed === listRows)) {
        const candidateLists = wordLists.map(({ name, listed }) => ({ name, rows: listed }));
        candidates.push({ lists: candidateLists, rows: listedRows, share: listedRows / rows });
      } else if (wordLists.length === 1) heads.push(wordLists[0]!);
    }
  }
  const { order, descending } = orderOf(sort ?? 'price');
  // The smallest list; by name a make's, whose rows are together in that order (or, fewer still, its stretch of another filter's list: below).
  const first = ({ make = false }: Candidate) => (order === 'name' && make ? 0 : 1);
  const best = candidates.sort((a, b) => first(a) - first(b) || a.rows - b.rows)[0];
  const ranged = (criteria.priceMin !== undefined || criteria.priceMax !== undefined) && rows > WHOLE_LISTING_UP_TO;
  // By name, the make's stretch of another filter's list, where that is the fewest rows to read.
  const [stretchOf, [firstFile, lastFile, stretchRows]] = (order === 'name' ? filters : [])
    .flatMap((filter) => (stretches[filter] && listOf.has(filter) ? [[filter, stretches[filter]] as const] : []))
    .reduce((least, stretch) => (stretch[1][2] < least[1][2] ? stretch : least), ['', [0, -1, Infinity]] as const);
  if (stretchOf !== '' && (best === undefined || best.make || stretchRows < best.rows)) {
    // The make's rows alone fill its files where they are as many as the rows those files hold: cut as a sorted list is.
    const starts = stretchRows === makeCounts[stretchOf] ? sortedListStarts(stretchRows) : undefined;
    return search(
      listSource(
        read,
        (file) => sortedListChunkPath(listOf.get(stretchOf)!, order, firstFile + file),
        fileRange(lastFile - firstFile + 1, descending),
        stretchRows,
        { descending, share: (share * rows) / stretchRows, whole: false, starts, byMake: !starts },
      ),
      known,
    );
  }
  if (best?.filter && best.rows > CHUNK_ROWS && sort !== undefined && !(ranged && (order === 'price' || order === 'high-price'))) {
    // The filter value's own list in the order asked for (a price range in price order is found from the price's steps instead).
    const [{ name, rows: listRows }] = best.lists as [{ name: string; rows: number }];
    // A list in name order is cut by make (`nameListStarts`), a make's own as any sorted list is.
    const starts = order === 'name' && !best.make ? undefined : sortedListStarts(listRows);
    const files = starts ? starts.length - 1 : best.nameFiles!;
    return search(
      listSource(read, (chunk) => sortedListChunkPath(name, order, chunk), fileRange(files, descending), listRows, {
        descending,
        share: share / best.share,
        whole: false,
        starts,
        byMake: !starts,
      }),
      known,
    );
  }
  if (best && (sort !== undefined || best.lists.length > 1) && best.rows <= SORT_HERE_UP_TO) {
    // Few enough to read whole: every file of every list, then checked and sorted here.
    const files = best.lists.flatMap(({ name, rows: listRows }) =>
      Array.from({ length: filesOf(best, listRows) }, (_, chunk) => read<Entry[]>(listChunkPath(name, chunk))),
    );
    const byPosition = new Map((await Promise.all(files)).flat().map((entry) => [entry[0], entry]));
    const matches = sortEntries(
      [...byPosition.values()].filter((entry) => entryMatches(entry, criteria, tokens)),
      sort,
    );
    return search(heldSource(matches), matches.length);
  }
  if (sort === undefined) {
    const [list] = best?.lists.length === 1 ? best.lists : [];
    if (list)
      return search(
        listSource(read, (chunk) => listChunkPath(list.name, chunk), fileRange(filesOf(best!, list.rows)), list.rows, {
          starts: best!.filter ? sortedListStarts(list.rows) : undefined,
          share: share / best!.share,
          // A word's list of a few files is read whole, so that its count is exact; a filter's count is in its document.
          whole: !best!.filter && list.rows <= WHOLE_LISTING_UP_TO,
        }),
        known,
      );
    const [head] = heads.sort((a, b) => a.rows - b.rows);
    if (head) return search(headThenListing(read, head, rows, share), known);
    return search(
      listSource(read, (chunk) => orderChunkPath('listing', chunk), allChunks(rows), rows, { share }),
      known,
    );
  }
  const range = { min: criteria.priceMin ?? 0, max: criteria.priceMax ?? Infinity };
  if (ranged && order === 'price') return search(await priceRangeSource(read, range, rows, share));
  if (ranged && order === 'high-price') {
    const top = await read<PriceKeys>(HIGH_PRICE_KEYS_PATH);
    const groups = top.flatMap(([lowest, highest], group) => (highest >= range.min && lowest <= range.max ? [group] : []));
    if (groups.length === 0) return none();
    const rangeRows = Math.min(rows, groups.length * KEYS_PER_GROUP * CHUNK_ROWS);
    const chunks = highPriceChunks(read, groups, range);
    return search(listSource(read, (chunk) => orderChunkPath(order, chunk), chunks, rangeRows, { share, sparse: true }));
  }
  if (order === 'name' && span !== undefined) {
    // Only the files of the name order where every filter's and word's rows are.
    const [first, last] = span;
    if (first > last) return none();
    const spanned = (last - first + 1) * CHUNK_ROWS;
    const chunks = (async function* () {
      for (let at = 0; at <= last - first; at += 1) yield descending ? last - at : first + at;
    })();
    // The same results as in any other order: counted as exactly, where one filter or one word is the search.
    return search(
      listSource(read, (chunk) => orderChunkPath(order, chunk), chunks, Math.min(rows, spanned), { descending, share }),
      known,
    );
  }
  const starts = orderStarts(order, rows);
  const source = listSource(
    read,
    (chunk) => orderChunkPath(order, chunk),
    fileRange(starts ? starts.length - 1 : chunkCount(rows), descending),
    rows,
    {
      descending,
      share,
      starts,
    },
  );
  // A sort alone: every row is a result.
  return search(source, Object.keys(criteria).length === 1 && criteria.sort !== undefined ? rows : known);
}

/**
 * The rows a price range from `min` can be, in price order: the list of those spanning the last
 * price step at or below `min`, then the price order from the step's first file, without the rows
 * there that start below the step (they span it, and were given already, or end below `min`),
 * until a file ends with a row that starts above `max` (the order is by min price: no later row
 * can reach the range). `share` of them meet the other criteria.
 */
async function priceRangeSource(
  read: IndexReader,
  { min, max }: { min: number; max: number },
  rows: number,
  share: number,
): Promise<Source> {
  const steps = await read<PriceFrom>(PRICE_FROM_PATH);
  const [step, spanning, first] = steps.findLast(([price]) => price <= min) ?? steps[0]!;
  const above = steps.find(([price]) => price > max);
  const last = Math.min(above?.[2] ?? Infinity, chunkCount(rows) - 1);
  let pastMax = false;
  const chunks = (async function* () {
    for (let chunk = first; chunk <= last && !pastMax; chunk += 1) yield chunk;
  })();
  // Where the range ends is known only as the files are read: not read whole as a small list is.
  const priceOrderRows = listSource(read, (chunk) => orderChunkPath('price', chunk), chunks, (last - first + 1) * CHUNK_ROWS, {
    share,
    whole: false,
  });
  const spanningRows = listSource(read, (chunk) => listChunkPath(priceStepList(step), chunk), allChunks(spanning), spanning, {
    share,
    whole: false,
  });
  let inOrder = spanning === 0;
  return {
    whole: false,
    next: async (needed) => {
      if (!inOrder) {
        const entries = await spanningRows.next(needed);
        if (entries !== undefined) return entries;
        inOrder = true;
      }
      if (pastMax) return undefined;
      const entries = await priceOrderRows.next(needed);
      if ((entries?.at(-1)?.[6] ?? -Infinity) > max) pastMax = true;
      return entries?.filter(([, , , , , , minPrice]) => minPrice >= step);
    },
  };
}

/**
 * The files of the high-price order in `groups` that can hold a row whose price range reaches
 * into [min, max]: whose highest max price reaches min and whose lowest min price is at most max.
 * Each group's directory is read when the search reaches it.
 */
async function* highPriceChunks(
  read: IndexReader,
  groups: readonly number[],
  { min, max }: { min: number; max: number },
): AsyncIterator<number> {
  for (const group of groups) {
    const keys = await read<PriceKeys>(highPriceKeysGroupPath(group));
    yield* keys.flatMap(([lowest, highest], at) => (highest >= min && lowest <= max ? [group * KEYS_PER_GROUP + at] : []));
  }
}

/**
 * Reads until a step of results is in hand beyond those shown, the source ends, or the step has
 * read STEP_FILES files or as many rows as STEP_FILES files of CHUNK_ROWS hold (a list's middle
 * files hold more); a small source (a small listing) is read to its end, so its count is known.
 */
export async function readStep(search: Search): Promise<void> {
  const wanted = search.shown + RESULTS_PER_STEP;
  const until = search.looked + STEP_FILES * CHUNK_ROWS;
  for (let files = 0; (search.source.whole || search.matches.length < wanted) && files < STEP_FILES && search.looked < until; files += 1) {
    // The rows still to read at the share that matched so far, once one did.
    const { looked, matches } = search;
    const entries = await search.source.next(matches.length > 0 ? ((wanted - matches.length) * looked) / matches.length : undefined);
    if (entries === undefined) {
      search.ended = true;
      return;
    }
    for (const entry of entries) {
      search.looked += 1;
      for (const bound of search.bounds) if (bound.holds(entry)) bound.seen += 1;
      if (entryMatches(entry, search.criteria, search.tokens)) search.matches.push(entry);
    }
  }
}

/**
 * How many results a search has, as a person may be told it: `exact`; `about`, a round number within
 * 10 % of every count the index still allows; or `atLeast`, the results found (never more than
 * there are). The count lies between the results found and those found plus the fewest rows any
 * bound has not yet read; it is exact where they meet, and said as about a number only where one is
 * within 10 % of both ends, never projected from the rows read so far (a sort that follows a filter
 * reads first the rows least like the rest).
 */
export function countOf(search: Search): { kind: 'exact' | 'about' | 'atLeast'; count: number } {
  const known = search.exact ?? (search.ended ? search.matches.length : undefined);
  if (known !== undefined) return { kind: 'exact', count: known };
  const found = search.matches.length;
  const most = found + Math.min(...search.bounds.map(({ rows, seen }) => Math.max(0, rows - seen)));
  if (most === found) return { kind: 'exact', count: found };
  const about = roundBetween(Math.ceil(0.9 * most), Math.floor(1.1 * found));
  return about === undefined ? { kind: 'atLeast', count: found } : { kind: 'about', count: about };
}

/** The roundest whole number from `low` to `high` (fewest significant digits), or undefined where there is none. */
function roundBetween(low: number, high: number): number | undefined {
  if (low > high || high < 1) return undefined;
  for (let magnitude = 10 ** Math.floor(Math.log10(high)); magnitude >= 1; magnitude /= 10) {
    const round = Math.ceil(Math.max(low, 1) / magnitude) * magnitude;
    if (round <= high) return round;
  }
  return undefined;
}
