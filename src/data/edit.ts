/**
 * Validating a data file against an earlier, valid version of it: a row whose text is the text of
 * the row at the same position then keeps that row's record, and only the other rows are parsed
 * and checked (a maintainer's edit of a few prices costs those rows, not the whole file). The
 * result is the one full validation gives, or nothing when it could differ (then the caller
 * validates the whole file): any problem, line ends other than LF, a changed header, a blank row
 * of empty cells, a repeated id.
 */
import { loadText, type CsvText } from './load.ts';
import type { CarModel } from './schema.ts';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** An earlier version of the file: its text (as `decodeCsv` gives it) and its records, in order. */
export interface EarlierValidation {
  body: Buffer;
  /** How many records it has. */
  rows: number;
  records: () => Iterable<readonly CarModel[]>;
}

/** Where each record of a file starts and ends (its line break excluded), the header first: two numbers a record, not an object. */
export interface RecordSpans {
  starts: number[];
  ends: number[];
}

/**
 * The records of `body`. A record ends at a line break outside quotes; empty lines between records
 * are none (csv-parse skips them). Sound for a file csv-parse reads without a problem, which is
 * when it is used.
 */
export function recordSpans(body: Buffer): RecordSpans {
  const spans: RecordSpans = { starts: [], ends: [] };
  const add = (start: number, end: number) => {
    spans.starts.push(start);
    spans.ends.push(end);
  };
  let start = 0;
  let quotes = 0;
  let lineStart = 0;
  while (lineStart < body.length) {
    const found = body.indexOf(LF, lineStart);
    const lineEnd = found === -1 ? body.length : found;
    for (let quote = body.indexOf(QUOTE, lineStart); quote !== -1 && quote < lineEnd; quote = body.indexOf(QUOTE, quote + 1)) quotes += 1;
    if (quotes % 2 === 0) {
      if (lineEnd > start) add(start, lineEnd);
      start = lineEnd + 1;
    }
    lineStart = lineEnd + 1;
  }
  if (start < body.length) add(start, body.length);
  return spans;
}

/**
 * The records of `text`, reusing `earlier`'s where a row is unchanged, and the positions (0-based,
 * ascending) of the rows that were checked; undefined where only a full validation can say.
 */
export function loadSince(text: CsvText, file: string, earlier: EarlierValidation): { records: CarModel[]; changed: number[] } | undefined {
  const { body } = text;
  if (body.includes(CR) || earlier.body.includes(CR)) return undefined;
  const spans = recordSpans(body);
  const earlierSpans = recordSpans(earlier.body);
  // Record `index` of the new file (0: the header) is record `index` of the earlier one.
  const unchanged = (index: number) => {
    const [start, end, earlierStart, earlierEnd] = [spans.starts[index]!, spans.ends[index]!, earlierSpans.starts[index]!, earlierSpans.ends[index]!];
    return end - start === earlierEnd - earlierStart && body.compare(earlier.body, earlierStart, earlierEnd, start, end) === 0;
  };
  if (spans.starts.length === 0 || earlierSpans.starts.length === 0 || !unchanged(0)) return undefined;
  // Every earlier row has its record only if none was skipped (a blank row of empty cells).
  if (earlierSpans.starts.length - 1 !== earlier.rows) return undefined;

  const rows = spans.starts.length - 1;
  // Pushed, not assigned into `new Array(rows)`: a holey array is serialised differently.
  const reused: (CarModel | undefined)[] = [];
  const changed: number[] = [];
  for (const chunk of earlier.records()) {
    for (const record of chunk) {
      const position = reused.length;
      if (position >= rows) break;
      const same = unchanged(position + 1);
      reused.push(same ? record : undefined);
      if (!same) changed.push(position);
    }
  }
  while (reused.length < rows) {
    changed.push(reused.length);
    reused.push(undefined);
  }

  // The changed rows, validated as a file of their own under the same header.
  const piece = (index: number) => body.subarray(spans.starts[index], spans.ends[index]);
  const newline = Buffer.from('\n');
  const own = Buffer.concat([piece(0), newline, ...changed.flatMap((index) => [piece(index + 1), newline])]);
  const checked = loadText({ body: own, format: text.format }, file);
  if (checked.problems.length > 0 || checked.records.length !== changed.length) return undefined;
  let next = 0;
  const records = reused.map((record) => record ?? checked.records[next++]!);

  const ids = new Set<number>();
  for (const record of records) ids.add(record.id);
  if (ids.size !== rows) return undefined;
  return { records, changed };
}
