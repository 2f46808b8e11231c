/**
 * The compact index of the whole listing that the browsable pages search in, written at build
 * time: arrays instead of objects, each logo and each make once. Logos are the data's paths under
 * the assets address, which the page that searches gives (`pageAssetsUrl`): the index is the same
 * file whatever the addresses. Its shape lives in `search.ts`, which the browser script bundles;
 * this module stays out of the bundle.
 */
import { makeTableFrom, makeTableOf, type Make, type MakeTable } from '../listing/makes.ts';
import type { RecordText } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { AUTO, MANUAL, type IndexEntry } from '../listing/search.ts';

/** The logos and makes the index's entries point to: made from the whole listing before any entry. */
export interface SearchTables {
  logos: string[];
  logoPositions: Map<string, number>;
  makes: MakeTable;
}

/** The index's tables of the listing's `records`, read once in order: each logo path and each make once. */
export function searchTablesOf(records: Iterable<CarModel>): SearchTables {
  const logos: string[] = [];
  const logoPositions = new Map<string, number>();
  const withLogos = function* () {
    for (const record of records) {
      if (record.logo !== null && !logoPositions.has(record.logo)) logoPositions.set(record.logo, logos.push(record.logo) - 1);
      yield record;
    }
  };
  return { makes: makeTableOf(withLogos()), logos, logoPositions };
}

/** What `searchTablesFrom` makes the tables again from: kept with the downloads (see downloads.ts). */
export interface KeptSearchTables {
  logos: string[];
  makes: readonly Make[];
}

export function keptTables({ logos, makes }: SearchTables): KeptSearchTables {
  return { logos, makes: makes.makes };
}

/** The tables `keptTables` kept, for a listing with the same names and logos in the same order. */
export function searchTablesFrom({ logos, makes }: KeptSearchTables): SearchTables {
  return { logos, logoPositions: new Map(logos.map((logo, position) => [logo, position])), makes: makeTableFrom(makes) };
}

/** The index (a SearchIndex) as JSON text, an entry a record; the tables last. */
export function searchIndexText({ logos, logoPositions, makes: { makes, makeOf } }: SearchTables): RecordText {
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
  return {
    start: '{"entries":[',
    record: (record) => JSON.stringify(entryOf(record)),
    separator: ',',
    end: `],"logos":${JSON.stringify(logos)},"makes":${JSON.stringify(makes.map(({ key, latin }) => [key, latin]))}}`,
  };
}
