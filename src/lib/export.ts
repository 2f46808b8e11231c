/**
 * The whole listing as one download: `all.json` (the records as the pages write them, in listing
 * order) and `all.csv` in the input format, so that building from the export gives the same pages.
 */
import { stringify } from 'csv-stringify/sync';
import { FIELDS, type CarModel } from './schema.ts';
import { pythonFloat, serialiseRecord } from './serialise.ts';

/** Every record, in listing order, as a compact JSON array. */
export function exportJson(records: readonly CarModel[], assetsUrl: string): string {
  return `[${records.map((record) => serialiseRecord(record, assetsUrl)).join(',')}]`;
}

/** The CSV text of one field, as the loader reads it back. */
function csvCell(record: CarModel, field: (typeof FIELDS)[number]): string {
  const value = record[field];
  if (field === 'min_price' || field === 'max_price') return pythonFloat(value as number);
  if (value === null) return '';
  return String(value);
}

/** Every record as CSV: the spec's header, CRLF line ends (RFC 4180), fields quoted where needed. */
export function exportCsv(records: readonly CarModel[]): string {
  return stringify(
    records.map((record) => FIELDS.map((field) => csvCell(record, field))),
    { header: true, columns: [...FIELDS], record_delimiter: 'windows' },
  );
}
