/**
 * What every HTML page shows of the whole listing beside its own models: the count and the make
 * table. Made once per preparation, while every record is in memory (see src/data/prepared.ts), so
 * that a build's pages read their own records and this, never the whole listing.
 */
import type { CarModel } from '../data/schema.ts';
import { makeTable, type Make } from './makes.ts';

export interface ListingSummary {
  count: number;
  makes: readonly Make[];
}

export function summaryOf(records: readonly CarModel[]): ListingSummary {
  return { count: records.length, makes: makeTable(records).makes };
}

