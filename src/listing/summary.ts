/**
 * A listing as its pages read it: its size, its make table (what every HTML page shows of the
 * whole listing) and each page's records. A build's pages, and the page keys of a rebuild, read it
 * from the preparation's files: the summary (the size and the makes), made once per preparation
 * while every record is in memory (see src/outputs/preparation.ts), and each page's records from the
 * records file, so that nothing but `npm run dev` holds a million records to show ten.
 */
import { deserialize } from 'node:v8';
import type { RecordSlices } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { keepsMakes, makeTable, makeTableFrom, type Make, type MakeTable } from './makes.ts';
import { pageRange, pageSlice } from './pagination.ts';

export interface ListingSummary {
  count: number;
  makes: readonly Make[];
}

/** The summary of the earlier version of a listing, and the fields an edit in place changed since. */
export interface EarlierSummary {
  summary: ListingSummary;
  changedFields: ReadonlySet<string>;
}

/**
 * The summary of `records`; where they are an edit in place of the records `earlier` summarised
 * that changed no field a make table is made of, its makes, not made again (a pass over every name).
 */
export function summaryOf(records: readonly CarModel[], earlier?: EarlierSummary): ListingSummary {
  const makes = earlier && keepsMakes(earlier.changedFields) ? earlier.summary.makes : makeTable(records).makes;
  return { count: records.length, makes };
}

/** A summary as a preparation keeps it (`summaryOf`'s, V8-serialised: see src/outputs/preparation.ts), read back. */
export function summaryFrom(bytes: Buffer): ListingSummary {
  return deserialize(bytes) as ListingSummary;
}

export interface ListingPages {
  count: number;
  makeTable: MakeTable;
  /** The records of page `page` (1-based; none past the last page). */
  pageRecords: (page: number) => readonly CarModel[];
}

export function listingInMemory(records: readonly CarModel[]): ListingPages {
  return { count: records.length, makeTable: makeTable(records), pageRecords: (page) => pageSlice(records, page) };
}

/**
 * The listing of records read by position (an open records file, see src/data/records-file.ts, or
 * an array) and the summary made of them: its make table is the summary's, not made again.
 */
export function listingFrom(records: RecordSlices, summary: ListingSummary): ListingPages {
  return {
    count: summary.count,
    makeTable: makeTableFrom(summary.makes),
    pageRecords: (page) => {
      const { first, end } = pageRange(page, summary.count);
      return records.slice(first, end);
    },
  };
}
