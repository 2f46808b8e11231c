/**
 * The compact index of the whole listing that the browsable pages search in, written at build
 * time: arrays instead of objects, each logo URL and each make once. Its shape lives in
 * `search.ts`, which the browser script bundles; this module stays out of the bundle.
 */
import { makeTableOf } from './makes.ts';
import type { RecordChunks } from './record-file.ts';
import type { CarModel } from './schema.ts';
import { AUTO, MANUAL, type IndexEntry } from './search.ts';

/** The listing's records one after the other, a chunk at a time. */
function* recordsOf(listing: RecordChunks): Generator<CarModel> {
  for (const chunk of listing) yield* chunk;
}

/**
 * The index (a SearchIndex) as JSON text, in pieces, from the listing read twice (`listing()`
 * gives it from its start): once for the logos and makes the entries point to, then the entries.
 */
export function* searchIndexJsonChunks(listing: () => RecordChunks, logoUrl: (logo: string) => string): Generator<string> {
  const logos: string[] = [];
  const logoPositions = new Map<string, number>();
  const withLogos = function* () {
    for (const record of recordsOf(listing())) {
      if (record.logo !== null && !logoPositions.has(record.logo)) logoPositions.set(record.logo, logos.push(logoUrl(record.logo)) - 1);
      yield record;
    }
  };
  const { makes, makeOf } = makeTableOf(withLogos());
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
  let first = true;
  for (const chunk of listing()) {
    if (chunk.length === 0) continue;
    yield `${first ? '' : ','}${chunk.map((record) => JSON.stringify(entryOf(record))).join(',')}`;
    first = false;
  }
  yield `],"logos":${JSON.stringify(logos)},"makes":${JSON.stringify(makes.map(({ key, latin }) => [key, latin]))}}`;
}
