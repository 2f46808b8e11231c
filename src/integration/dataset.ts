/**
 * The listing the pages are made from, as the listing integration prepared it: the addresses from
 * the configuration, the listing's summary (its count and make table, see src/listing/summary.ts),
 * each page's records and, in a build, which pages to render. The integration
 * (`src/integration/index.ts`) names them in the virtual module `virtual:listing/dataset`; a page
 * never reads the CSV itself. A build's pages read only their own records from the records file:
 * a million of them never sit in the memory Astro renders in.
 */
import { addresses, datasetState } from 'virtual:listing/dataset';
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { openRecordFile } from '../data/record-store.ts';
import type { CarModel } from '../data/schema.ts';
import { makeTable, makeTableFrom, type MakeTable } from '../listing/makes.ts';
import { pageNumbers, pageRange, pageSlice } from '../listing/pagination.ts';
import type { Addresses } from '../listing/serialise.ts';
import type { ListingSummary } from '../listing/summary.ts';
import { flaggedPages, type RenderSet } from '../publish/reuse.ts';
import { dataReadyBeforePages } from './astro-internals.ts';

export interface Dataset {
  addresses: Addresses;
  /** How many records the listing has. */
  count: number;
  /** Every make of the listing, and each record's. */
  makeTable: MakeTable;
  /** The records of page `page` (1-based; none past the last page). */
  pageRecords: (page: number) => readonly CarModel[];
  /** In `astro dev` only: the problems of the data file on disk, while the last good data is shown. */
  problemReport: string | null;
}

const EMPTY: Omit<Dataset, 'addresses' | 'problemReport'> = { count: 0, makeTable: makeTable([]), pageRecords: () => [] };

let loaded: (Omit<Dataset, 'addresses' | 'problemReport'> & { file: string }) | undefined;

/** The dataset of this build (or of the dev server's current data). */
export function getDataset(): Dataset {
  const { recordsFile, summaryFile, records, problemReport } = datasetState();
  if (recordsFile === null || summaryFile === null) return { addresses, ...EMPTY, problemReport };
  if (loaded?.file !== recordsFile) loaded = { file: recordsFile, ...(records ? inMemory(records) : fromFiles(recordsFile, summaryFile)) };
  return { addresses, count: loaded.count, makeTable: loaded.makeTable, pageRecords: loaded.pageRecords, problemReport };
}

/** The dev server's current records, which it holds in its own process. */
function inMemory(records: readonly CarModel[]): Omit<Dataset, 'addresses' | 'problemReport'> {
  return { count: records.length, makeTable: makeTable(records), pageRecords: (page) => pageSlice(records, page) };
}

/** A build's: the summary, and each page's records read from the records file (held open for the rest of the build). */
function fromFiles(recordsFile: string, summaryFile: string): Omit<Dataset, 'addresses' | 'problemReport'> {
  const summary = deserialize(dataReadyBeforePages(() => readFileSync(summaryFile))) as ListingSummary;
  const file = openRecordFile(recordsFile);
  const pageRecords = (page: number) => {
    const { first, end } = pageRange(page, summary.count);
    return file.slice(first, end);
  };
  return { count: summary.count, makeTable: makeTableFrom(summary.makes), pageRecords };
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
