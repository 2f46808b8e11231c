/**
 * A large CSV file validated on every core: the file is cut into parts after line breaks, one part
 * a core (`os.availableParallelism()`, no part under 2 MiB); this thread reads the first part while
 * worker threads read the others, each with csv-parse and the row schema, as load.ts reads a whole
 * file. The answer is always the one `loadText` gives for the whole file: where the parts cannot be
 * joined exactly (a quoted field across a cut, text csv-parse cannot read, an id in two parts, a
 * thread failing), the file is read again whole, on this thread.
 */
import { availableParallelism } from 'node:os';
import { runOnThread } from '../threads.ts';
import { addFromColumns, toColumns, type RecordColumns } from './records-file.ts';
import { CR, LF, lineBreaksIn } from './lines.ts';
import { readRows, resultOf, type CsvFormat, type CsvText, type LoadProgress, type LoadResult, type RowsRead } from './load.ts';

/** Files smaller than this are read on one thread: starting another costs more than it saves. */
const SPLIT_FROM_BYTES = 4 * 2 ** 20;
/** No part smaller than this (about 17,000 rows). */
const MIN_PART_BYTES = 2 * 2 ** 20;
/** How often another part's thread says how many rows it has read (for the progress lines). */
const ROWS_BETWEEN_COUNTS = 1000;

/** What another part's thread is given (see load-part-worker.ts), `keepRecords` as the whole file's. */
export interface PartInput extends Required<Pick<SplitOptions, 'keepRecords'>> {
  /** The file's header row, as the file writes it, followed by the part's rows. */
  text: ArrayBuffer;
  format: CsvFormat;
  file: string;
  /** Lines of the file between its header and the part's rows: added to the rows' line numbers. */
  lineShift: number;
  /** One 32-bit cell a part's thread keeps the count of rows it has read in, at `cell`. */
  rowsRead: SharedArrayBuffer;
  cell: number;
}

/** What another part's thread answers (see `readPart`). */
export interface PartRead extends Pick<RowsRead, 'problems' | 'rows' | 'unreadable'> {
  /** Each valid record's id, in file order: an id in two parts is found with them. */
  ids: Float64Array;
  /** The part's records, where they were wanted and no row has a problem. */
  records?: RecordColumns;
}

/**
 * Reads a part other than the first: a worker thread's side of `loadTextOnThreads`. Its records
 * cross to the other thread as columns (records-file.ts): as objects, each would repeat its
 * thirteen field names, and copying them would cost about 1 s at a million rows, most of it on the
 * thread that waits for them.
 */
export function readPart({ text, format, file, lineShift, rowsRead, cell, keepRecords }: PartInput): PartRead {
  const counts = new Int32Array(rowsRead);
  const progress = { every: ROWS_BETWEEN_COUNTS, onRows: (rows: number) => Atomics.store(counts, cell, rows) };
  const { records, problems, lineOfId, rows, unreadable } = readRows({ body: Buffer.from(text), format }, file, progress, { lineShift });
  const ids = new Float64Array(lineOfId.keys());
  // Not worth copying where the file is bad anyway.
  return { problems, rows, unreadable, ids, ...(keepRecords && problems.length === 0 && { records: toColumns(records) }) };
}

export interface SplitOptions {
  /** Where the cuts are looked for: the first line break at or after each offset (default: the file in equal parts, one a core). */
  at?: readonly number[];
  /** How a part other than the first is read (default: `readPart` on a worker thread); rejected where that failed. */
  readOther?: (input: PartInput) => Promise<PartRead>;
  /** Whether the records are wanted (default: true); where not, the result's `records` are empty and its `rows` counts them. */
  keepRecords?: boolean;
}

/** Where a file of `bytes` is cut by default: into equal parts, one a core, none under MIN_PART_BYTES. */
function defaultCuts(bytes: number): number[] {
  if (bytes < SPLIT_FROM_BYTES) return [];
  const parts = Math.max(1, Math.min(availableParallelism(), Math.floor(bytes / MIN_PART_BYTES)));
  return Array.from({ length: parts - 1 }, (_, index) => Math.floor((bytes * (index + 1)) / parts));
}

/** Validates a CSV file's text as `loadText` does, on every core where it is large. */
export async function loadTextOnThreads(
  text: CsvText,
  file: string,
  progress: LoadProgress = {},
  { at = defaultCuts(text.body.length), readOther = readOnWorker, keepRecords = true }: SplitOptions = {},
): Promise<LoadResult> {
  const { body, format } = text;
  const report = progressReporter(progress);
  const cuts = cutsOf(body, at);
  const result = (read: Pick<RowsRead, 'records' | 'problems' | 'rows'>) => resultOf(keepRecords ? read : { ...read, records: [] });
  if (cuts.length === 0) return result(readRows(text, file, report.own()));

  const rowsRead = new SharedArrayBuffer(4 * cuts.length);
  const counts = new Int32Array(rowsRead);
  const othersRead = () => counts.reduce((sum, rows) => sum + rows, 0);
  let others: Promise<(PartRead | undefined)[]> | undefined;
  const onHeader = (headerEnd: number) => {
    if (!cuts.every((cut) => endsRecords(body, headerEnd, cut))) return;
    const ends = [...cuts.slice(1), body.length];
    let lineShift = 0;
    let from = headerEnd;
    others = Promise.all(
      cuts.map((cut, cell) => {
        lineShift += lineBreaksIn(body, from, cut);
        from = cut;
        const input = { text: partText(body, headerEnd, cut, ends[cell]!), format, file, lineShift, rowsRead, cell, keepRecords };
        // A part that could not be read on its thread is read with the rest: the file is read whole.
        return readOther(input).catch(() => undefined);
      }),
    );
  };
  const first = readRows({ body: body.subarray(0, cuts[0]), format }, file, report.own(othersRead), { onHeader });
  const stopCounting = report.meanwhile(() => first.rows + othersRead());
  const read = others && (await others);
  const joined = read && joinParts(first, read);
  // Where the parts are not joined another thread may have counted as rows what a whole read does
  // not (the lines of a quoted field across a cut): the total is then the whole read's.
  stopCounting(joined ? joined.rows : 0);
  return result(joined ?? readRows(text, file, report.own()));
}

/**
 * Where the file may be cut: past the first line break from each of `at` of the kind its first
 * line ends with (CR LF or LF: csv-parse takes the record delimiter from the first line break it
 * meets, and where that is CR LF, an LF alone is text in a field), each cut once, ascending. None
 * in a file whose lines end with a CR alone; none past its last line break.
 */
function cutsOf(body: Buffer, at: readonly number[]): number[] {
  const [lf, cr] = [body.indexOf(LF), body.indexOf(CR)];
  const firstBreak = lf === -1 || cr === -1 ? Math.max(lf, cr) : Math.min(lf, cr);
  if (firstBreak === -1 || (body[firstBreak] === CR && body[firstBreak + 1] !== LF)) return [];
  const lineEnd = body[firstBreak] === CR ? '\r\n' : '\n';
  const cuts = new Set<number>();
  for (const offset of at) {
    const found = body.indexOf(lineEnd, offset);
    if (found !== -1 && found + lineEnd.length < body.length) cuts.add(found + lineEnd.length);
  }
  return [...cuts].sort((a, b) => a - b);
}

/**
 * Whether a record surely ends at `cut`, given where the header row's ends (past its record
 * delimiter, as csv-parse read it). A header ending in an LF without a CR before it: the delimiter
 * is LF, and `cut` follows one. Ending in CR LF: the delimiter is CR LF or LF, and `cut` must
 * follow a CR LF. Anything else (a CR alone, a header past `cut`): not cut. A record that is a
 * quoted field across `cut` is found as the part before it ends (csv-parse: the quote not closed).
 */
function endsRecords(body: Buffer, headerEnd: number, cut: number): boolean {
  if (headerEnd >= cut || body[headerEnd - 1] !== LF || body[cut - 1] !== LF) return false;
  return body[headerEnd - 2] !== CR || body[cut - 2] === CR;
}

/** The header row's bytes, then the rows from `start` to `end`: a file csv-parse reads as it would read those rows in the whole one. */
function partText(body: Buffer, headerEnd: number, start: number, end: number): ArrayBuffer {
  const text = new ArrayBuffer(headerEnd + end - start);
  const bytes = new Uint8Array(text);
  bytes.set(body.subarray(0, headerEnd), 0);
  bytes.set(body.subarray(start, end), headerEnd);
  return text;
}

/**
 * The whole file's rows from its parts', or undefined where they would differ from reading it
 * whole: where a part was not read, or holds text csv-parse cannot read (its reading of what
 * follows depends on where it started), or an id is in two parts (the later row names the
 * earlier's line). The other parts are only read where the first read a good header (`onHeader`).
 * The records are the first part's array, with the others' added to it.
 */
function joinParts(
  first: RowsRead,
  others: readonly (PartRead | undefined)[],
): Pick<RowsRead, 'records' | 'problems' | 'rows'> | undefined {
  if (first.unreadable || others.some((part) => part === undefined || part.unreadable)) return undefined;
  const read = others as PartRead[];
  const earlierIds: { has: (id: number) => boolean }[] = [first.lineOfId];
  for (const [index, part] of read.entries()) {
    for (const id of part.ids) if (earlierIds.some((ids) => ids.has(id))) return undefined;
    if (index < read.length - 1) earlierIds.push(new Set(part.ids));
  }
  const problems = [...first.problems, ...read.flatMap((part) => part.problems)];
  const rows = read.reduce((sum, part) => sum + part.rows, first.rows);
  if (problems.length > 0) return { records: [], problems, rows };
  const records = first.records;
  for (const part of read) if (part.records !== undefined) addFromColumns(part.records, records);
  return { records, problems, rows };
}

function readOnWorker(input: PartInput): Promise<PartRead> {
  return runOnThread<PartRead>('validation', new URL('./load-part-worker.ts', import.meta.url), input, { transfer: [input.text] }).answer;
}

/**
 * The progress lines of a file read in parts: every `every` rows of all together, each number
 * once and in order, also when the file is then read again whole.
 */
function progressReporter({ onRows, every = 100_000 }: LoadProgress) {
  let said = 0;
  const sayUpTo = (rows: number) => {
    for (; onRows && said + every <= rows; said += every) onRows(said + every);
  };
  return {
    /** The progress to give this thread's reading, counting the other parts' rows with its own. */
    own: (others: () => number = () => 0): LoadProgress =>
      onRows ? { every: Math.min(every, ROWS_BETWEEN_COUNTS), onRows: (rows) => sayUpTo(rows + others()) } : {},
    /** Says the count now and then while this thread waits for the others; returns what stops it, saying the total. */
    meanwhile: (rows: () => number): ((total: number) => void) => {
      if (!onRows) return () => undefined;
      const timer = setInterval(() => sayUpTo(rows()), 100);
      return (total) => {
        clearInterval(timer);
        sayUpTo(total);
      };
    },
  };
}
