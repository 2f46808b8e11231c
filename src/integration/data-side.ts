/**
 * The data side of a build: the data file validated and prepared (src/outputs/preparation.ts), its rows
 * compared with the published site's (and the shrink guard), and every page's key. It runs on a
 * worker thread while Astro starts and Vite bundles the pages' code, which needs none of it: the
 * integration awaits it only before the pages are rendered, so a build costs the longer of the
 * two, not their sum. The pages to write are decided after it, on a thread of their own
 * (pages-side.ts). Everything it is given and gives back is plain data (it crosses between threads).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';
import { runOnThread } from '../threads.ts';
import { cachedDownloads } from '../outputs/downloads-cache.ts';
import { preparedRecordsFile, prepareRecords, readEarlier, type Preparation, type PrepareOptions } from '../outputs/preparation.ts';
import type { Problem } from '../data/problems.ts';
import { isRecordFile, openRecordFile, type OpenRecordFile, type RecordSlices } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import type { RowChanges } from '../listing/documents.ts';
import { pageKeysOf, type PageKeys } from '../listing/page-keys.ts';
import { logoUrl, type Addresses } from '../listing/serialise.ts';
import { listingFrom, summaryFrom, type ListingPages } from '../listing/summary.ts';
import { counted } from '../listing/format.ts';
import {
  NO_ROW_CHANGES,
  publishedRecords,
  rowChanges,
  rowChangesAt,
  UnreadablePublishedRows,
  type RowComparison,
} from '../outputs/row-changes.ts';
import type { Baseline } from '../publish/baseline.ts';
import { shrinkRefusal, unknownPublishedRows } from './refusals.ts';
import { PhaseClock } from '../outputs/report.ts';
import { PUBLISHED } from '../listing/routes.ts';

/**
 * What the data side needs of the baseline: its pages, keys and preparation, not the published
 * files' hashes and list, which stay on the main thread (they would only be copied across).
 */
type DataSideBaseline = Pick<Baseline, 'siteDir' | 'dataSha256' | 'assetsUrl' | 'dataKey' | 'keys'>;

export interface DataSideInput
  extends Pick<PrepareOptions, 'root' | 'preparationsDir' | 'dataFile'>, Pick<Config, 'outDir' | 'allowShrink'> {
  addresses: Addresses;
  /** What the build is compared with and takes pages from; none for a first build. */
  baseline: DataSideBaseline | undefined;
}

function dataSideBaseline({ siteDir, dataSha256, assetsUrl, dataKey, keys }: DataSideBaseline): DataSideBaseline {
  return { siteDir, dataSha256, assetsUrl, dataKey, keys };
}

/** The data side's answer where the build goes on. */
export interface DataReady {
  kind: 'ready';
  preparation: Preparation;
  rows: RowChanges;
  /** Undefined where every page is rendered (nothing to take pages from): the JSON pages' thread makes them as it writes them, beside Astro. */
  keys: PageKeys | undefined;
  /** How long validating (with the comparison) and the page keys took. */
  phases: [string, number][];
}

type DataSide = { kind: 'problems'; problems: Problem[] } | { kind: 'refused'; message: string } | DataReady;

/**
 * Rows added, removed and changed against the published site. Nothing to compare when the data
 * and the assets address are those the site was built from. Where rows changed only in place,
 * compared with the records the published build was made from, also the positions of the changed
 * rows (only their pages' keys can change).
 */
function compareRows(
  input: DataSideInput,
  preparation: Preparation,
  records: RecordsOfPreparation,
): { rows: RowChanges; refusal?: string; changedInPlace?: number[] } {
  const { baseline, addresses } = input;
  if (baseline && baseline.dataSha256 === preparation.dataSha256 && baseline.assetsUrl === addresses.assetsUrl) {
    return { rows: NO_ROW_CHANGES, changedInPlace: [] };
  }
  const publishedRecordsFile = baseline?.dataKey === undefined ? undefined : preparedRecordsFile(input.preparationsDir, baseline.dataKey);
  const fromPreparation = publishedRecordsFile !== undefined && isRecordFile(publishedRecordsFile);
  let comparison: RowComparison;
  try {
    comparison =
      (fromPreparation && editedInPlace(input, preparation, records, publishedRecordsFile)) ||
      rowChanges(
        baseline ? publishedRecords(baseline, publishedRecordsFile, join(input.outDir, PUBLISHED.allJson.slice(1))) : undefined,
        records.all(),
        addresses.assetsUrl,
      );
  } catch (error) {
    if (!(error instanceof UnreadablePublishedRows)) throw error;
    if (!input.allowShrink)
      return {
        rows: NO_ROW_CHANGES,
        refusal: `${error.message}, and the build's own record of the published rows is gone.\n${unknownPublishedRows(input.outDir)}`,
      };
    // ALLOW_SHRINK=1: rows may go; the published ones are unknown, so every row counts as added.
    comparison = rowChanges(undefined, records.all(), addresses.assetsUrl);
  }
  const refusal = input.allowShrink ? undefined : shrinkRefusal(comparison, input.outDir);
  if (refusal) return { rows: NO_ROW_CHANGES, refusal };
  return { rows: comparison.rows, ...(fromPreparation && comparison.inPlace ? { changedInPlace: comparison.changedPositions } : {}) };
}

/**
 * Where the preparation was validated against the published build's (an edit in place, see
 * src/data/edit.ts), the rows that changed, reading only the rows it validated from either side.
 */
function editedInPlace(
  { baseline, addresses: { assetsUrl } }: DataSideInput,
  preparation: Preparation,
  records: RecordsOfPreparation,
  publishedRecordsFile: string,
): RowComparison | undefined {
  // Under another assets address every logo's URL changed, whatever rows the edit validated again.
  if (baseline === undefined || baseline.assetsUrl !== assetsUrl) return undefined;
  const earlier = readEarlier(dirname(preparation.recordsFile));
  if (earlier === undefined || earlier.key !== baseline.dataKey) return undefined;
  const published = openRecordFile(publishedRecordsFile);
  try {
    const logoUrlOf = (record: Readonly<Record<string, unknown>>) => logoUrl(record['logo'] as string | null, baseline.assetsUrl);
    return rowChangesAt({ slice: published.slice, logoUrlOf }, records, preparation.rows, earlier.changed, assetsUrl);
  } finally {
    published.close();
  }
}

/** The records of the preparation: in memory where it was validated now, else read from its records file as they are needed. */
interface RecordsOfPreparation extends RecordSlices {
  all: () => readonly CarModel[];
  listing: () => ListingPages;
  close: () => void;
}

function recordsOf(preparation: Preparation, inMemory: readonly CarModel[] | undefined): RecordsOfPreparation {
  // The make table is the summary's (made once per preparation, or kept from the earlier one by an
  // edit of prices), not made again from every record.
  const listingOf = (records: RecordSlices) => listingFrom(records, summaryFrom(readFileSync(preparation.summaryFile)));
  const sliceOf = (records: readonly CarModel[]): RecordSlices => ({ slice: (start, end) => records.slice(start, end) });
  if (inMemory) return { ...sliceOf(inMemory), all: () => inMemory, listing: () => listingOf(sliceOf(inMemory)), close: () => undefined };
  let opened: OpenRecordFile | undefined;
  let all: readonly CarModel[] | undefined;
  const file = () => (opened ??= openRecordFile(preparation.recordsFile));
  return {
    slice: (start, end) => file().slice(start, end),
    all: () => (all ??= file().all()),
    listing: () => listingOf(all ? sliceOf(all) : file()),
    close: () => opened?.close(),
  };
}

/** Does the data side of a build; `onRecords` is told as soon as the records are prepared (the downloads can start). */
export async function prepareDataSide(
  input: DataSideInput,
  onRecords: (prepared: PreparedRecords) => void = () => undefined,
): Promise<DataSide> {
  const clock = new PhaseClock();
  const { baseline } = input;
  const result = await prepareRecords({
    root: input.root,
    preparationsDir: input.preparationsDir,
    dataFile: input.dataFile,
    assetsUrl: input.addresses.assetsUrl,
    progress: {
      onRows: (rows) => console.error(`  ${counted(rows)} rows validated`),
      onChangedRows: ({ validated, changed, added, unchanged, removed }) =>
        console.error(
          `  ${counted(validated)} ${validated === 1 ? 'row' : 'rows'} validated (${counted(changed)} changed, ${counted(added)} added); ${unchanged === 0 ? 'none' : `the other ${counted(unchanged)}`} ${unchanged === 1 ? 'is' : 'are'} unchanged since the published build${removed === 0 ? '' : `, and ${counted(removed)} of its rows ${removed === 1 ? 'is' : 'are'} gone`}`,
        ),
    },
    ...(baseline?.dataKey !== undefined && { earlier: baseline.dataKey }),
  });
  if ('problems' in result) return { kind: 'problems', problems: result.problems };
  const { preparation } = result;
  onRecords({ preparation, downloads: cachedDownloads(preparation) });
  const records = recordsOf(preparation, result.records);
  let keys: PageKeys | undefined;
  let rows: RowChanges;
  try {
    const compared = compareRows(input, preparation, records);
    if (compared.refusal) return { kind: 'refused', message: compared.refusal };
    rows = compared.rows;
    clock.end('validate');

    // Keys of the published build are a hint: taken only where they describe the same records (the
    // same preparation), or where rows changed in place and only their pages' keys are computed.
    const baselineKeys = baseline?.keys;
    const earlierKeys =
      baselineKeys && compared.changedInPlace ? { keys: baselineKeys, changedPositions: compared.changedInPlace } : undefined;
    // Without keys to compare with, every page is rendered whatever its key: they are made later,
    // beside Astro, as the listing's pages are written (listing-pages.ts), and Astro may start now.
    if (baselineKeys !== undefined)
      keys = baseline?.dataKey === preparation.key ? baselineKeys : pageKeysOf(records.listing(), input.addresses, earlierKeys);
  } finally {
    records.close();
  }
  clock.end('page keys');
  return { kind: 'ready', preparation, rows, keys, phases: clock.phases };
}

/** The preparation, and its downloads' hashes where they are cached and whole. */
interface PreparedRecords {
  preparation: Preparation;
  downloads: Record<string, string> | undefined;
}

/**
 * Starts `prepareDataSide` on a worker thread: `records` settles once they are prepared (undefined
 * if the data is bad or the thread failed first), `result` and `stop` are the thread's (threads.ts).
 */
export function startDataSide(input: DataSideInput) {
  let recordsPrepared: (prepared: PreparedRecords | undefined) => void = () => undefined;
  const records = new Promise<PreparedRecords | undefined>((done) => (recordsPrepared = done));
  const workerData: DataSideInput = { ...input, baseline: input.baseline && dataSideBaseline(input.baseline) };
  const run = runOnThread<DataSide, PreparedRecords>('data', new URL('./data-side-worker.ts', import.meta.url), workerData, {
    onNote: recordsPrepared,
  });
  // Bad data, or a thread that failed: no records to wait for.
  const result = run.answer.finally(() => recordsPrepared(undefined));
  return { records, result, stop: run.stop };
}
