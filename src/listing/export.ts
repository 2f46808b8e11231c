/**
 * The whole listing as one download: `all.json` (the records as the pages write them, in listing
 * order) and `all.csv` in the input format, so that building from the export gives the same pages.
 * Both are made a record at a time (downloads.ts writes them a chunk of the listing at a time), so
 * a million rows are written without one giant string or all the records in memory.
 */
import { stringify } from 'csv-stringify/sync';
import type { RecordText } from '../data/records-file.ts';
import { FIELDS, type CarModel } from '../data/schema.ts';
import { pythonFloat, serialiseRecord } from './serialise.ts';

/** `all.json`: every record, in listing order, as a compact JSON array. */
export function allJson(assetsUrl: string): RecordText {
  return { start: '[', record: (record) => serialiseRecord(record, assetsUrl), separator: ',', end: ']' };
}

/** The CSV text of one field, as the loader reads it back. */
function csvCell(record: CarModel, field: (typeof FIELDS)[number]): string {
  const value = record[field];
  if (field === 'min_price' || field === 'max_price') return pythonFloat(value as number);
  if (value === null) return '';
  return String(value);
}

const CSV_OPTIONS = { columns: [...FIELDS], record_delimiter: 'windows' } as const;

/** `all.csv`: every record as CSV, the spec's header, CRLF line ends (RFC 4180), fields quoted where needed. */
export const allCsv: RecordText = {
  start: stringify([], { ...CSV_OPTIONS, header: true }),
  // A row at a time (as fast here as a chunk at a time): each row's bytes are known.
  record: (record) => stringify([FIELDS.map((field) => csvCell(record, field))], CSV_OPTIONS),
  separator: '',
  end: '',
};
