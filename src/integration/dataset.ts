/**
 * The listing the pages are made from, as the listing integration prepared it: the addresses from
 * the configuration, the validated records (read once per preparation) and, in a build, which pages
 * to render. The integration (`src/integration/index.ts`) names them in the virtual module
 * `virtual:listing/dataset`; a page never reads the CSV itself.
 */
import { addresses, datasetState } from 'virtual:listing/dataset';
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { readRecordFile } from '../data/record-store.ts';
import type { CarModel } from '../data/schema.ts';
import { pageNumbers } from '../listing/pagination.ts';
import type { Addresses } from '../listing/serialise.ts';
import { flaggedPages, type RenderSet } from '../publish/reuse.ts';
import { dataReadyBeforePages } from './astro-internals.ts';

export interface Dataset {
  addresses: Addresses;
  records: readonly CarModel[];
  /** In `astro dev` only: the problems of the data file on disk, while the last good data is shown. */
  problemReport: string | null;
}

let loaded: { file: string; records: readonly CarModel[] } | undefined;

/** The dataset of this build (or of the dev server's current data). */
export function getDataset(): Dataset {
  const { recordsFile, records, problemReport } = datasetState();
  if (recordsFile === null) return { addresses, records: [], problemReport };
  if (loaded?.file !== recordsFile) loaded = { file: recordsFile, records: records ?? readRecordFile(recordsFile) };
  return { addresses, records: loaded.records, problemReport };
}

let render: RenderSet | undefined;

/**
 * The numbers of the pages of `kind` to render: in a build, those whose key changed since the
 * published build (the others are taken from it, see src/publish/reuse.ts); in dev, every page.
 */
export function pagesToRender(kind: 'json' | 'html'): number[] {
  const { renderFile } = datasetState();
  if (renderFile === null) return pageNumbers(getDataset().records.length);
  render ??= deserialize(dataReadyBeforePages(() => readFileSync(renderFile))) as RenderSet;
  return flaggedPages(render[kind]);
}
