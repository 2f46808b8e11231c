/**
 * The listing the pages are made from, as the listing integration prepared it: the addresses from
 * the configuration, the listing's size, make table and each page's records (see
 * src/listing/summary.ts) and, in a build, which pages to render. The integration
 * (`src/integration/index.ts`) names them in the virtual module `virtual:listing/dataset`; a page
 * never reads the CSV itself.
 */
import { addresses, datasetState, live } from 'virtual:listing/dataset';
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { openRecordFile } from '../data/records-file.ts';
import { pageNumbers } from '../listing/pagination.ts';
import type { Addresses } from '../listing/serialise.ts';
import { listingInMemory, listingFrom, summaryFrom, type ListingPages } from '../listing/summary.ts';
import { flaggedPages, type RenderSet } from '../publish/reuse.ts';
import { dataReadyBeforePages } from './astro-internals.ts';

export interface Dataset extends ListingPages {
  addresses: Addresses;
  /** In `astro dev` only: the problems of the data file on disk, while the last good data is shown. */
  problemReport: string | null;
}

const EMPTY = listingInMemory([]);

/**
 * Whether the pages show the dev server's current data (`astro dev`), which an edit of the data or
 * the code changes, rather than one build's.
 */
export const liveDataset: boolean = live;

let loaded: { file: string; listing: ListingPages } | undefined;

/** The dataset of this build (or of the dev server's current data). */
export function getDataset(): Dataset {
  const { recordsFile, summaryFile, records, problemReport } = datasetState();
  if (recordsFile === null || summaryFile === null) return { addresses, ...EMPTY, problemReport };
  // The dev server's records are in memory in its own process; a build's pages read theirs from
  // the records file (held open for the rest of the build).
  if (loaded?.file !== recordsFile) {
    loaded = { file: recordsFile, listing: records ? listingInMemory(records) : listingFroms(recordsFile, summaryFile) };
  }
  return { addresses, ...loaded.listing, problemReport };
}

function listingFroms(recordsFile: string, summaryFile: string): ListingPages {
  const summary = summaryFrom(dataReadyBeforePages(() => readFileSync(summaryFile)));
  return listingFrom(openRecordFile(recordsFile), summary);
}

let render: RenderSet | undefined;

/**
 * The numbers of the pages of `kind` to render: in a build, those whose key changed since the
 * published build (the others are taken from it, see src/publish/reuse.ts); in dev, every page.
 */
export function pagesToRender(kind: 'json' | 'html'): number[] {
  const { renderFile } = datasetState();
  if (renderFile === null) return pageNumbers(getDataset().count);
  render ??= deserialize(dataReadyBeforePages(() => readFileSync(renderFile))) as RenderSet;
  return flaggedPages(render[kind]);
}
