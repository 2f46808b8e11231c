/**
 * Validating a data file against an earlier, valid version of it: a row whose text is the text of
 * an earlier row, wherever it was, keeps that row's record, and only the other rows are parsed and
 * checked (a maintainer's edit of a few prices, or a few rows inserted or deleted, costs those rows,
 * not the whole file). The result is the one full validation gives, or nothing when it could differ
 * (then the caller validates the whole file): any problem, a changed header, line ends other than
 * the earlier version's, a blank row of empty cells, a repeated id. Every step is linear in the
 * files' size, whatever their quoting.
 *
 * Why a row's record can be reused: csv-parse reads a file record by record, each from the same
 * state (outside quotes, nothing read), so a record depends only on its bytes, the record delimiter
 * and the field separator; what the checks make of it depends only on it and the header; and the
 * earlier file was read without a problem, so its rows' quotes are balanced and its records end
 * where `recordSpans` says. The rows that match no earlier row are validated as a file of their
 * own, under this file's own header and line ends: without a problem there, their quotes are
 * balanced too, and they are read as in the whole file; last, no id may be both theirs and a
 * reused row's.
 */
import { loadText, type CsvText } from './load.ts';
import { CR, LF, QUOTE, recordDelimiterOf } from './lines.ts';
import type { CarModel } from './schema.ts';

/** An earlier version of the file: its text (as `decodeCsv` gives it) and its records, in order. */
export interface EarlierValidation {
  body: Buffer;
  rows: number;
  records: () => Iterable<readonly CarModel[]>;
}

/** The line break csv-parse ends a file's records with: the first one outside quotes in the file. */
type LineEnd = '\n' | '\r\n';

/**
 * Where each record of a file starts and ends (its line break excluded), the header first: two
 * numbers a record, not an object, since a file may have a million.
 */
export interface RecordSpans {
  lineEnd: LineEnd;
  starts: number[];
  ends: number[];
}

/** How a file's rows stand against the earlier version's (see `loadAgainstEarlier`). */
export interface RowCounts {
  /** Rows whose text no earlier row has: these were parsed and checked. */
  validated: number;
  /** Of those, rows with the id of an earlier row that is gone. */
  changed: number;
  /** Of those, rows with an id the earlier version did not have. */
  added: number;
  /** Rows that are an earlier row's text, at its position or moved. */
  unchanged: number;
  /** Earlier rows whose text and id are both gone. */
  removed: number;
}

/** A file validated against the earlier version (see `loadAgainstEarlier`). */
export interface ValidatedAgainstEarlier {
  records: CarModel[];
  /** Positions (0-based, ascending) of the rows that were validated. */
  changed: number[];
  /**
   * Whether every other row is the earlier row at the same position: only then is a row outside
   * `changed` the earlier file's row at its position (what copying by position relies on).
   */
  inPlace: boolean;
  /**
   * Where every row is at its earlier position (in place, none added or removed): the fields in
   * which a changed row differs from the earlier row at its position. What is made of other fields
   * alone is then what the earlier version made (a price edit keeps the make table).
   */
  changedFields: string[] | undefined;
  counts: RowCounts;
}

/**
 * The records of `body`. A record ends at its line break outside quotes; in a CRLF file, a lone LF
 * or CR is content, as csv-parse reads it. Empty lines between records are none (csv-parse skips
 * them). Sound for a file csv-parse reads without a problem, which is when it is used. Undefined
 * where the line ends are lone CRs (classic Mac line ends), which this does not split on.
 */
export function recordSpans(body: Buffer): RecordSpans | undefined {
  const lineEnd = recordDelimiterOf(body);
  if (lineEnd === '\r') return undefined;
  const spans: RecordSpans = { lineEnd, starts: [], ends: [] };
  const add = (start: number, end: number) => {
    spans.starts.push(start);
    spans.ends.push(end);
  };
  let start = 0;
  let quoted = false;
  // The next quote not yet counted: each search starts past the last one found, so that the
  // quotes of the whole file are searched once, not once for every line before them.
  let quote = body.indexOf(QUOTE);
  for (let lf = body.indexOf(LF); lf !== -1; lf = body.indexOf(LF, lf + 1)) {
    for (; quote !== -1 && quote < lf; quote = body.indexOf(QUOTE, quote + 1)) quoted = !quoted;
    if (quoted) continue;
    // A line break outside quotes: the CR before it is outside them too (it is no quote).
    const end = lineEnd === '\n' ? lf : body[lf - 1] === CR ? lf - 1 : -1;
    if (end === -1) continue;
    if (end > start) add(start, end);
    start = lf + 1;
  }
  if (start < body.length) add(start, body.length);
  return spans;
}

/** A row's bytes, hashed (FNV-1a, then murmur3's finaliser so that the low bits spread too). */
function hashOf(bytes: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * The hashes of records `indexes` of `spans`, in a pass of their own: hashing as the table is
 * filled or searched, between its random accesses, runs several times slower.
 */
function hashesOf(body: Buffer, spans: RecordSpans, indexes: readonly number[]): Uint32Array {
  const hashes = new Uint32Array(indexes.length);
  for (let at = 0; at < indexes.length; at += 1) {
    const index = indexes[at]!;
    hashes[at] = hashOf(body, spans.starts[index]!, spans.ends[index]!);
  }
  return hashes;
}

/** Some of the records of a file's text: their indexes among the file's record spans. */
interface SomeRecords {
  body: Buffer;
  spans: RecordSpans;
  indexes: readonly number[];
}

/**
 * For each of the records `wanted`, the record of `earlier` with the same text, or -1: an
 * open-addressing table of the earlier records' hashes in typed arrays (a million rows' texts as
 * strings would take hundreds of MB), the bytes compared on a hit.
 */
function findRecords(earlier: SomeRecords, wanted: SomeRecords): Int32Array {
  const { body: earlierBody, spans: earlierSpans, indexes: earlierIndexes } = earlier;
  const { body, spans, indexes } = wanted;
  let capacity = 16;
  while (capacity < earlierIndexes.length * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(-1);
  const slotHashes = new Uint32Array(capacity);
  const earlierHashes = hashesOf(earlierBody, earlierSpans, earlierIndexes);
  for (let at = 0; at < earlierIndexes.length; at += 1) {
    const hash = earlierHashes[at]!;
    let slot = hash & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = earlierIndexes[at]!;
    slotHashes[slot] = hash;
  }
  const hashes = hashesOf(body, spans, indexes);
  const found = new Int32Array(indexes.length).fill(-1);
  for (let at = 0; at < indexes.length; at += 1) {
    const hash = hashes[at]!;
    const start = spans.starts[indexes[at]!]!;
    const end = spans.ends[indexes[at]!]!;
    for (let slot = hash & mask; slots[slot] !== -1; slot = (slot + 1) & mask) {
      const earlierIndex = slots[slot]!;
      const earlierStart = earlierSpans.starts[earlierIndex]!;
      const earlierEnd = earlierSpans.ends[earlierIndex]!;
      if (
        slotHashes[slot] === hash &&
        earlierEnd - earlierStart === end - start &&
        body.compare(earlierBody, earlierStart, earlierEnd, start, end) === 0
      ) {
        found[at] = earlierIndex;
        break;
      }
    }
  }
  return found;
}

/**
 * The records of `text`, reusing `earlier`'s where a row's text is an earlier row's (at the same
 * position, or anywhere else), which rows were checked and how the rows stand against the earlier
 * version's; undefined where only a full validation can say.
 */
export function loadAgainstEarlier(text: CsvText, file: string, earlier: EarlierValidation): ValidatedAgainstEarlier | undefined {
  const { body } = text;
  const spans = recordSpans(body);
  const earlierSpans = recordSpans(earlier.body);
  // Records are the same bytes read the same way only under the same record delimiter.
  if (!spans || !earlierSpans || spans.lineEnd !== earlierSpans.lineEnd) return undefined;
  // Record `index` of this file (0: the header) is the text of record `earlierIndex` of the earlier one.
  const same = (index: number, earlierIndex: number) => {
    const start = spans.starts[index]!;
    const end = spans.ends[index]!;
    const earlierStart = earlierSpans.starts[earlierIndex]!;
    const earlierEnd = earlierSpans.ends[earlierIndex]!;
    return end - start === earlierEnd - earlierStart && body.compare(earlier.body, earlierStart, earlierEnd, start, end) === 0;
  };
  if (spans.starts.length === 0 || earlierSpans.starts.length === 0 || !same(0, 0)) return undefined;
  // Every earlier row has its record only if none was skipped (a blank row of empty cells).
  if (earlierSpans.starts.length - 1 !== earlier.rows) return undefined;

  const rows = spans.starts.length - 1;
  const earlierRows = earlier.rows;
  // For each earlier row (0-based, the header not counted), the row of this file with its text, or -1.
  const takenBy = new Int32Array(earlierRows).fill(-1);
  let inPlace = true;
  // Most edits leave most rows where they were, or move all the rows after an insert or a delete
  // by as much: those rows cost a comparison, not a hash.
  let unmatched: number[] = [];
  for (let row = 0; row < rows; row += 1) {
    if (row < earlierRows && same(row + 1, row + 1)) takenBy[row] = row;
    else unmatched.push(row);
  }
  const shift = earlierRows - rows;
  if (shift !== 0) {
    unmatched = unmatched.filter((row) => {
      const earlierRow = row + shift;
      if (earlierRow < 0 || earlierRow >= earlierRows || takenBy[earlierRow] !== -1 || !same(row + 1, earlierRow + 1)) return true;
      takenBy[earlierRow] = row;
      inPlace = false;
      return false;
    });
  }
  const untaken: number[] = [];
  for (let row = 0; row < earlierRows; row += 1) if (takenBy[row] === -1) untaken.push(row + 1);
  if (unmatched.length > 0 && untaken.length > 0) {
    const found = findRecords(
      { body: earlier.body, spans: earlierSpans, indexes: untaken },
      { body, spans, indexes: unmatched.map((row) => row + 1) },
    );
    const stillUnmatched: number[] = [];
    for (let at = 0; at < unmatched.length; at += 1) {
      const row = unmatched[at]!;
      const record = found[at]!;
      if (record === -1) {
        stillUnmatched.push(row);
        continue;
      }
      // Two rows of the same text: the same id twice, a problem a full validation reports.
      if (takenBy[record - 1] !== -1) return undefined;
      takenBy[record - 1] = row;
      inPlace = false;
    }
    unmatched = stillUnmatched;
  }
  const changed = unmatched;

  // The changed rows, validated as a file of their own: this file's bytes up to the header's line
  // break (csv-parse finds the record delimiter there), then each row and a line break.
  const lineEnd = Buffer.from(spans.lineEnd);
  const headerEnd = Math.min(body.length, spans.ends[0]! + lineEnd.length);
  let length = headerEnd;
  for (const row of changed) length += spans.ends[row + 1]! - spans.starts[row + 1]! + lineEnd.length;
  const own = Buffer.allocUnsafe(length);
  let offset = body.copy(own, 0, 0, headerEnd);
  for (const row of changed) {
    offset += body.copy(own, offset, spans.starts[row + 1]!, spans.ends[row + 1]!);
    offset += lineEnd.copy(own, offset);
  }
  const checked = loadText({ body: own, format: text.format }, file);
  if (checked.problems.length > 0 || checked.records.length !== changed.length) return undefined;

  // The earlier records, each put at the position of the row that has its text. Their ids differ
  // (the earlier file was valid), and so do the checked rows' (`loadText` saw to it): an id can
  // only be repeated between the two, which the checked rows' ids, a few, tell.
  const checkedIds = new Set<number>();
  for (const record of checked.records) checkedIds.add(record.id);
  // Filled with undefined, not made `new Array(rows)`: a long array made so is a slow dictionary.
  const reused: (CarModel | undefined)[] = [];
  for (let row = 0; row < rows; row += 1) reused.push(undefined);
  // Checked rows with the id of an earlier row no row has kept: changed, not added.
  let changedIds = 0;
  let earlierRow = 0;
  // Rows in place, as many as before: each changed row is the earlier row at its position, edited.
  const samePositions = inPlace && rows === earlierRows;
  const changedFields = new Set<string>();
  let nextChanged = 0;
  for (const chunk of earlier.records()) {
    for (const record of chunk) {
      if (earlierRow >= earlierRows) return undefined;
      const row = takenBy[earlierRow]!;
      if (row === -1) {
        if (checkedIds.has(record.id)) changedIds += 1;
        if (samePositions) fieldsThatDiffer(record, checked.records[nextChanged++], changedFields);
      } else {
        if (checkedIds.has(record.id)) return undefined;
        reused[row] = record;
      }
      earlierRow += 1;
    }
  }
  if (earlierRow !== earlierRows) return undefined;
  const records: CarModel[] = [];
  let next = 0;
  for (let row = 0; row < rows; row += 1) {
    const record = changed[next] === row ? checked.records[next++] : reused[row];
    if (record === undefined) return undefined;
    records.push(record);
  }

  const unchanged = rows - changed.length;
  const counts = {
    validated: changed.length,
    changed: changedIds,
    added: changed.length - changedIds,
    unchanged,
    removed: earlierRows - unchanged - changedIds,
  };
  return { records, changed, inPlace, changedFields: samePositions ? [...changedFields] : undefined, counts };
}

/** Adds to `fields` the fields in which `record` and `edited` differ. */
function fieldsThatDiffer(record: CarModel, edited: CarModel | undefined, fields: Set<string>): void {
  for (const [field, value] of Object.entries(record)) {
    if (!Object.is(value, (edited as Readonly<Record<string, unknown>> | undefined)?.[field])) fields.add(field);
  }
}
