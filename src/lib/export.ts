/**
 * The whole listing as one download: `all.json` (the records as the pages write them, in listing
 * order) and `all.csv` in the input format, so that building from the export gives the same pages.
 * Both are made a chunk of the listing at a time, so a million rows are written without one giant
 * string or all the records in memory.
 */
import { stringify } from 'csv-stringify/sync';
import type { RecordChunks } from './record-file.ts';
import { FIELDS, type CarModel } from './schema.ts';
import { pythonFloat, serialiseRecord } from './serialise.ts';

/** Every record, in listing order, as a compact JSON array, in pieces. */
export function* exportJsonChunks(listing: RecordChunks, assetsUrl: string): Generator<string> {
  yield '[';
  let first = true;
  for (const chunk of listing) {
    if (chunk.length === 0) continue;
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
export function* exportCsvChunks(listing: RecordChunks): Generator<string> {
  const options = { columns: [...FIELDS], record_delimiter: 'windows' } as const;
  yield stringify([], { ...options, header: true });
  for (const chunk of listing) yield stringify(chunk.map((record) => FIELDS.map((field) => csvCell(record, field))), options);
}

