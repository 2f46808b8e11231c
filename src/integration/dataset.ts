/**
 * The listing the pages are made from, as the listing integration prepared it: the addresses from
 * the configuration and the validated records, read once per preparation. The integration (see
 * `src/integration/index.ts`) validates the data when Astro starts and names its preparation in
 * the virtual module `virtual:listing/dataset`; a page never reads the CSV itself.
 */
import { addresses, pageKeysFile, problemReport, recordsFile } from 'virtual:listing/dataset';
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { readRecordFile } from '../data/record-store.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import type { CarModel } from '../data/schema.ts';
import type { Addresses } from '../listing/serialise.ts';

export interface Dataset {
  addresses: Addresses;
  records: readonly CarModel[];
  /** In `astro dev` only: the problems of the data file on disk, while the last good data is shown. */
  problemReport: string | null;
}

let loaded: { file: string; records: readonly CarModel[] } | undefined;

/** The dataset of this build (or of the dev server's last good data). */
export function getDataset(): Dataset {
  if (recordsFile === null) return { addresses, records: [], problemReport };
  if (loaded?.file !== recordsFile) loaded = { file: recordsFile, records: readRecordFile(recordsFile) };
  return { addresses, records: loaded.records, problemReport };
}

let keys: PageKeys | undefined;

/** The page keys the build computed (read once), or undefined in dev, where pages have no cache. */
export function getPageKeys(): PageKeys | undefined {
  if (pageKeysFile === null) return undefined;
  keys ??= deserialize(readFileSync(pageKeysFile)) as PageKeys;
  return keys;
}
