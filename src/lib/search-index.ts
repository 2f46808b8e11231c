/**
 * The compact index of the whole listing that the browsable pages search in, written at build
 * time: arrays instead of objects, each logo URL and each make once. Its shape lives in
 * `search.ts`, which the browser script bundles; this module stays out of the bundle.
 */
import { makeTable } from './makes.ts';
import type { CarModel } from './schema.ts';
import { AUTO, MANUAL, type IndexEntry } from './search.ts';

/** Records per piece of JSON text, so a large listing is written without one giant string. */
const CHUNK = 10_000;

/** The index (a SearchIndex) as JSON text, in pieces. */
export function* searchIndexJsonChunks(records: readonly CarModel[], logoUrl: (logo: string) => string): Generator<string> {
  const logos: string[] = [];
  const logoPositions = new Map<string, number>();
  for (const record of records) {
    if (record.logo !== null && !logoPositions.has(record.logo)) logoPositions.set(record.logo, logos.push(logoUrl(record.logo)) - 1);
  }
  const { makes, makeOf } = makeTable(records);
  const makePositions = new Map(makes.map((make, position) => [make, position]));
  const entryOf = (record: CarModel): IndexEntry => [
    record.id,
    record.combined_car_model,
    record.min_seat,
    record.max_seat,
    record.min_engine_size,
    record.max_engine_size,
    record.min_price,
    record.max_price,
    (record.has_operation_type_auto ? AUTO : 0) | (record.has_operation_type_hand ? MANUAL : 0),
    record.logo === null ? -1 : (logoPositions.get(record.logo) ?? -1),
    makePositions.get(makeOf(record)) ?? -1,
  ];
  yield '{"entries":[';
  for (let start = 0; start < records.length; start += CHUNK) {
    const chunk = records.slice(start, start + CHUNK).map((record) => JSON.stringify(entryOf(record)));
    yield `${start === 0 ? '' : ','}${chunk.join(',')}`;
  }
  yield `],"logos":${JSON.stringify(logos)},"makes":${JSON.stringify(makes.map(({ key, latin }) => [key, latin]))}}`;
}
