/**
 * A large CSV file validated on two threads: the rows after the first line break past the middle
 * of the file are read on a worker thread while this one reads the rows before it, each with
 * csv-parse and the row schema, as load.ts reads a whole file. At a million rows that is about 6 s
 * instead of 12 s. The answer is always the one `loadText` gives for the whole file: where the two
 * halves cannot be joined exactly (a quoted field across the middle, text csv-parse cannot read,
 * an id in both halves, the worker failing), the file is read again whole, on one thread.
 */
import { Worker } from 'node:worker_threads';
import {
  readCsvFile,
  readRows,
  resultOf,
  type CsvFormat,
  type CsvText,
  type LoadProgress,
  type LoadResult,
  type RowsRead,
} from './load.ts';

/** Files smaller than this are read on one thread: starting another costs more than it saves. */
const SPLIT_FROM_BYTES = 4 * 2 ** 20;
/** How often the other half's thread says how many rows it has read (for the progress lines). */
const ROWS_BETWEEN_COUNTS = 1000;
const LF = 0x0a;
const CR = 0x0d;
const CRLF = Buffer.from('\r\n');
const LF_ONLY = Buffer.from('\n');

/** What the other half's thread is given (see load-part-worker.ts). */
export interface PartInput {
  /** The file's header row, as the file writes it, followed by the second half's rows. */
  text: ArrayBuffer;
  format: CsvFormat;
  file: string;
  /** Lines of the file between its header and the rows: added to the rows' line numbers. */
  lineShift: number;
  /** One 32-bit cell the thread keeps the count of rows it has read in. */
  rowsRead: SharedArrayBuffer;
}

/** What it gives back: what it read, with the records only where the half has no problem. */
export type PartRead = RowsRead;

/** Reads the second half: the worker thread's side of `loadTextOnThreads`. */
export function readPart({ text, format, file, lineShift, rowsRead }: PartInput): PartRead {
  const count = new Int32Array(rowsRead);
  const progress = { every: ROWS_BETWEEN_COUNTS, onRows: (rows: number) => Atomics.store(count, 0, rows) };
  const read = readRows({ body: Buffer.from(text), format }, file, progress, { lineShift });
  // Records cross between threads by copy: not worth copying where the file is bad anyway.
  return read.problems.length > 0 ? { ...read, records: [] } : read;
}

export interface SplitOptions {
  /** Files from this size on are split (default 4 MiB). */
  fromBytes?: number;
  /** Where the split is looked for: the first line break at or after this offset (default the middle). */
  at?: number;
  /** How the second half is read (default: `readPart` on a worker thread); undefined where that failed. */
  readSecond?: (input: PartInput) => Promise<PartRead | undefined>;
}

/** Reads and validates a CSV data file, on two threads where it is large (see above). */
export async function loadFileOnThreads(file: string, progress: LoadProgress = {}): Promise<LoadResult> {
  const text = readCsvFile(file);
  return 'problems' in text ? { records: [], problems: text.problems } : loadTextOnThreads(text, file, progress);
}

/** Validates a CSV file's text as `loadText` does, on two threads where it is large. */
export async function loadTextOnThreads(
  text: CsvText,
  file: string,
  progress: LoadProgress = {},
  options: SplitOptions = {},
): Promise<LoadResult> {
  const { body, format } = text;
  const report = progressReporter(progress);
  const split = body.length >= (options.fromBytes ?? SPLIT_FROM_BYTES) ? splitOf(body, options.at ?? body.length >> 1) : undefined;
  if (split === undefined) return resultOf(readRows(text, file, report.own()), format);

  const rowsRead = new SharedArrayBuffer(4);
  const secondCount = new Int32Array(rowsRead);
  let second: Promise<PartRead | undefined> | undefined;
  const onHeader = (headerEnd: number) => {
    if (!endsRecords(body, headerEnd, split)) return;
    const input = { text: partText(body, headerEnd, split), format, file, lineShift: linesIn(body, headerEnd, split), rowsRead };
    second = (options.readSecond ?? readOnWorker)(input).catch(() => undefined);
  };
  const first = readRows(
    { body: body.subarray(0, split), format },
    file,
    report.own(() => Atomics.load(secondCount, 0)),
    { onHeader },
  );
  const stopCounting = report.meanwhile(() => first.rows + Atomics.load(secondCount, 0));
  const secondRead = await second;
  const joined = secondRead && joinHalves(first, secondRead);
  // Where the halves are not joined the other thread may have counted as rows what a whole read
  // does not (the lines of a quoted field across the middle): the total is then the whole read's.
  // (Its count so far, joined every thousand rows, can have run ahead by those few lines.)
  stopCounting(joined ? first.rows + secondRead.rows : 0);
  if (joined) return resultOf(joined, format);
  return resultOf(readRows(text, file, report.own()), format);
}

/**
 * Where the file may be split: past the first line break from `at` of the kind its first line
 * ends with (CR LF or LF: csv-parse takes the record delimiter from the first line break it
 * meets, and where that is CR LF, an LF alone is text in a field). None in a file whose lines end
 * with a CR alone, or with no such line break past `at` and before its end.
 */
function splitOf(body: Buffer, at: number): number | undefined {
  const [lf, cr] = [body.indexOf(LF), body.indexOf(CR)];
  const firstBreak = lf === -1 || cr === -1 ? Math.max(lf, cr) : Math.min(lf, cr);
  if (firstBreak === -1 || (body[firstBreak] === CR && body[firstBreak + 1] !== LF)) return undefined;
  const lineEnd = body[firstBreak] === CR ? CRLF : LF_ONLY;
  const found = body.indexOf(lineEnd, at);
  const split = found + lineEnd.length;
  return found === -1 || split >= body.length ? undefined : split;
}

/**
 * Whether a record surely ends at `split`, given where the header row's ends (past its record
 * delimiter, as csv-parse read it). A header ending in an LF without a CR before it: the delimiter
 * is LF, and `split` follows one. Ending in CR LF: the delimiter is CR LF or LF, and `split` must
 * follow a CR LF. Anything else (a CR alone, a header past `split`): not split. A record that is
 * a quoted field across `split` is found as the first half ends (csv-parse: the quote not closed).
 */
function endsRecords(body: Buffer, headerEnd: number, split: number): boolean {
  if (headerEnd >= split || body[headerEnd - 1] !== LF || body[split - 1] !== LF) return false;
  return body[headerEnd - 2] !== CR || body[split - 2] === CR;
}

/** The header row's bytes, then the rows from `split` on: a file csv-parse reads as it would read those rows in the whole one. */
function partText(body: Buffer, headerEnd: number, split: number): ArrayBuffer {
  const text = new ArrayBuffer(headerEnd + body.length - split);
  const bytes = new Uint8Array(text);
  bytes.set(body.subarray(0, headerEnd), 0);
  bytes.set(body.subarray(split), headerEnd);
  return text;
}

/** Line breaks between `start` and `end`. */
function linesIn(body: Buffer, start: number, end: number): number {
  let count = 0;
  for (let next = body.indexOf(LF, start); next !== -1 && next < end; next = body.indexOf(LF, next + 1)) count += 1;
  return count;
}

/**
 * The whole file's rows from its two halves', or undefined where they would differ from reading it
 * whole: where either half holds text csv-parse cannot read (its reading of what follows depends
 * on where it started), or an id is in both halves (the later row names the first's line). The
 * second half is only read where the first read a good header (`onHeader`).
 */
function joinHalves(first: RowsRead, second: PartRead): Pick<RowsRead, 'records' | 'problems'> | undefined {
  if (first.unreadable || second.unreadable) return undefined;
  for (const id of second.lineOfId.keys()) if (first.lineOfId.has(id)) return undefined;
  const problems = [...first.problems, ...second.problems];
  return { records: problems.length > 0 ? [] : first.records.concat(second.records), problems };
}

/** The second half read on a worker thread; undefined where the thread failed (the file is then read whole). */
function readOnWorker(input: PartInput): Promise<PartRead | undefined> {
  return new Promise((settle) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./load-part-worker.ts', import.meta.url), { workerData: input, transferList: [input.text] });
    } catch {
      settle(undefined);
      return;
    }
    worker.once('message', (read: PartRead) => {
      settle(read);
      void worker.terminate();
    });
    worker.once('error', () => settle(undefined));
    worker.once('exit', () => settle(undefined));
  });
}

/**
 * The progress lines of a file read in two halves: every `every` rows of both together, each
 * number once and in order, also when the file is then read again whole.
 */
function progressReporter({ onRows, every = 100_000 }: LoadProgress) {
  let said = 0;
  const sayUpTo = (rows: number) => {
    for (; onRows && said + every <= rows; said += every) onRows(said + every);
  };
  return {
    /** The progress to give this thread's reading, counting the other half's rows with its own. */
    own: (others: () => number = () => 0): LoadProgress =>
      onRows ? { every: Math.min(every, ROWS_BETWEEN_COUNTS), onRows: (rows) => sayUpTo(rows + others()) } : {},
    /** Says the count now and then while this thread waits for the other; returns what stops it, saying the total. */
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
