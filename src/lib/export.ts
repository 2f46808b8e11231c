/**
 * The whole listing as one download: `all.json` (the records as the pages write them, in listing
 * order) and `all.csv` in the input format, so that building from the export gives the same pages.
 * Both come in chunks, so a million rows are written without one giant string.
 */
import { stringify } from 'csv-stringify/sync';
import { FIELDS, type CarModel } from './schema.ts';
import { pythonFloat, serialiseRecord } from './serialise.ts';

const CHUNK_ROWS = 10_000;

function* chunksOf<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += CHUNK_ROWS) yield items.slice(start, start + CHUNK_ROWS);
}

/** Every record, in listing order, as a compact JSON array, in pieces. */
export function* exportJsonChunks(records: readonly CarModel[], assetsUrl: string): Generator<string> {
  yield '[';
  let first = true;
  for (const chunk of chunksOf(records)) {
    yield `${first ? '' : ','}${chunk.map((record) => serialiseRecord(record, assetsUrl)).join(',')}`;
    first = false;
  }
  yield ']';
}

/** The CSV text of one field, as the loader reads it back. */
function csvCell(record: CarModel, field: (typeof FIELDS)[number]): string {
  const value = record[field];
  if (field === 'min_price' || field === 'max_price') return pythonFloat(value as number);
  if (value === null) return '';
  return String(value);
}

/** Every record as CSV: the spec's header, CRLF line ends (RFC 4180), fields quoted where needed. */
export function* exportCsvChunks(records: readonly CarModel[]): Generator<string> {
  const options = { columns: [...FIELDS], record_delimiter: 'windows' } as const;
  yield stringify([], { ...options, header: true });
  for (const chunk of chunksOf(records)) yield stringify(chunk.map((record) => FIELDS.map((field) => csvCell(record, field))), options);
}

