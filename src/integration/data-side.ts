/**
 * The data side of a build: the data file validated and prepared (data-cache.ts), its rows
 * compared with the published site's, every page's cache key, and the staging folder's pages
 * taken from the published site where their key is unchanged. It runs on a worker thread while
 * Astro starts and Vite bundles the pages' code, which needs none of it: the listing integration
 * awaits it only before the pages are rendered, so a build costs the longer of the two, not their
 * sum. Everything it is given and gives back is plain data (it crosses between threads).
 */
import { writeFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { counted } from '../outputs/report.ts';
import { NO_ROW_CHANGES, publishedRecords, rowChanges, shrinkRefusal, type Changes, type PublishedSite } from '../outputs/changes.ts';
import { preparedRecordsFile, prepareRecords, type PreparedRecords } from '../data/prepared.ts';
import { pageKeysOf, type PageKeys } from '../listing/page-keys.ts';
import { linkUnchangedPages, reuseSpare, type BuildRecord } from '../publish/reuse.ts';
import type { Problem } from '../data/problems.ts';
import { isRecordFile, readRecordFile } from '../data/record-store.ts';
import type { CarModel } from '../data/schema.ts';
import type { Addresses } from '../listing/serialise.ts';

export interface BuildDataInput {
  /** The project folder (for the code fingerprint of preparations). */
  root: string;
  /** Where preparations are kept (see data-cache.ts). */
  preparedDir: string;
  dataFile: string;
  addresses: Addresses;
  outDir: string;
  allowShrink: boolean;
  /** The site this build replaces, if there is one. */
  published?: PublishedSite;
  /** The preparation the published site was built from (its records, while it is kept; see data-cache.ts). */
  publishedDataKey?: string;
  /**
   * The last published build, where the same code and addresses made it: its keys may be taken.
   * Only what the data side reads of its record: the file lists are long and cross threads by copy.
   */
  sameCode?: Pick<BuildRecord, 'dataKey' | 'keys' | 'writtenFiles'>;
  /**
   * How the staging folder gets the published pages whose key is unchanged: it is the spare
   * (cleared of all but pages), or they are linked into it, or (no usable cache) none are taken.
   */
  reuse: 'spare' | 'link' | 'none';
  staging: string;
  /** Where the page keys are written for the pages to read. */
  pageKeysFile: string;
}

export type BuildData =
  | { kind: 'problems'; problems: Problem[] }
  | { kind: 'refused'; message: string }
  | {
      kind: 'ready';
      prepared: PreparedRecords;
      rows: Changes['rows'];
      keys: PageKeys;
      /** Site paths of the staging folder's pages that are the published files themselves (hard links). */
      linkedPages: Set<string>;
      /** How long validating (with the comparison) and the page keys (with the pages taken) took. */
      phases: [string, number][];
    };

/**
 * Rows added, removed and changed against the published site. Nothing to compare when the data
 * and the assets address are those the site was built from; otherwise the records are needed.
 * Where rows changed only in place, compared with the records the published build was made from
 * (its page keys describe them), also the positions of the changed rows.
 */
function compareRows(input: BuildDataInput, prepared: PreparedRecords, records: () => readonly CarModel[]): { rows: Changes['rows']; refusal?: string; changedInPlace?: number[] } {
  const { published, publishedDataKey, addresses } = input;
  const publishedRecordsFile = publishedDataKey === undefined ? undefined : preparedRecordsFile(input.preparedDir, publishedDataKey);
  if (published && published.dataSha256 === prepared.dataSha256 && published.assetsUrl === addresses.assetsUrl) {
    return { rows: NO_ROW_CHANGES, changedInPlace: [] };
  }
  const fromPreparation = publishedRecordsFile !== undefined && isRecordFile(publishedRecordsFile);
  const comparison = rowChanges(published ? publishedRecords(published, publishedRecordsFile) : undefined, records(), addresses.assetsUrl);
  const refusal = input.allowShrink ? undefined : shrinkRefusal(comparison, input.outDir);
  if (refusal) return { rows: NO_ROW_CHANGES, refusal };
  return { rows: comparison.rows, ...(fromPreparation && comparison.inPlace ? { changedInPlace: comparison.changedPositions } : {}) };
}

/** Does the data side of a build; `onRecords` is told as soon as the records are prepared (the downloads can start). */
export async function prepareBuildData(input: BuildDataInput, onRecords: (prepared: PreparedRecords) => void = () => undefined): Promise<BuildData> {
  let phaseStarted = performance.now();
  const phases: [string, number][] = [];
  const endPhase = (name: string) => {
    const now = performance.now();
    phases.push([name, (now - phaseStarted) / 1000]);
    phaseStarted = now;
  };
  const preparation = await prepareRecords({
    root: input.root,
    cacheDir: input.preparedDir,
    dataFile: input.dataFile,
    assetsUrl: input.addresses.assetsUrl,
    progress: {
      onRows: (rows) => console.error(`  ${counted(rows)} rows validated`),
      onChangedRows: (checked, rows) => console.error(`  ${counted(checked)} changed rows validated; the other ${counted(rows - checked)} are as the published build validated them`),
    },
    ...(input.publishedDataKey !== undefined && { since: input.publishedDataKey }),
  });
  if ('problems' in preparation) return { kind: 'problems', problems: preparation.problems };
  const { data: prepared } = preparation;
  onRecords(prepared);
  let records = preparation.records;
  const recordsOnce = () => (records ??= readRecordFile(prepared.recordsFile));
  const { rows, refusal, changedInPlace } = compareRows(input, prepared, recordsOnce);
  if (refusal) return { kind: 'refused', message: refusal };
  endPhase('validate');

  const { sameCode } = input;
  // Rows changed in place: only their pages' keys can change.
  const since = sameCode && changedInPlace ? { keys: sameCode.keys, changedPositions: changedInPlace } : undefined;
  const keys = sameCode?.dataKey === prepared.key ? sameCode.keys : pageKeysOf(recordsOnce(), input.addresses, since);
  records = undefined;
  writeFileSync(input.pageKeysFile, serialize(keys));
  const linkedPages =
    input.reuse === 'spare' && sameCode
      ? reuseSpare(input.staging, input.outDir, sameCode, keys)
      : input.reuse === 'link' && sameCode
        ? linkUnchangedPages(sameCode.keys, keys, input.outDir, input.staging)
        : new Set<string>();
  endPhase('page keys');
  return { kind: 'ready', prepared, rows, keys, linkedPages, phases };
}

/** A message of the worker thread: the records prepared, then what it found. */
export type BuildDataMessage = { kind: 'records'; prepared: PreparedRecords } | BuildData;

export interface BuildDataRun {
  /** The preparation, once its records are written (undefined if the data is bad or the thread failed first). */
  records: Promise<PreparedRecords | undefined>;
  /** What the data side found; settled once the worker thread has ended (its memory is free again). */
  result: Promise<BuildData>;
}

/** Starts `prepareBuildData` on a worker thread. */
export function startBuildData(input: BuildDataInput): BuildDataRun {
  const worker = new Worker(new URL('./data-side-worker.ts', import.meta.url), { workerData: input });
  let found: BuildData | undefined;
  let recordsPrepared: (prepared: PreparedRecords | undefined) => void = () => undefined;
  const records = new Promise<PreparedRecords | undefined>((done) => (recordsPrepared = done));
  const result = new Promise<BuildData>((done, fail) => {
    worker.on('message', (message: BuildDataMessage) => {
      if (message.kind === 'records') recordsPrepared(message.prepared);
      else found = message;
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      recordsPrepared(undefined);
      if (found) done(found);
      else fail(new Error(`the build's data thread stopped (exit code ${code}) before it was done`));
    });
  });
  return { records, result };
}
