/**
 * The downloads of a preparation (`all.json`, `all.csv`, the search index; see
 * src/data/prepared.ts for the records): written once per preparation by a worker thread from its
 * records file, a chunk at a time, while the caller goes on (a build renders its pages meanwhile,
 * on the other core); an edit's downloads copy the unchanged rows' bytes from the earlier
 * preparation's. Written aside, then renamed: complete or absent.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { inUse, preparedDownloadsDir, prepareRecords, readSince, type PrepareOptions, type Prepared, type PreparedRecords } from '../data/prepared.ts';
import type { EarlierDownloads } from './downloads.ts';

/** Written last in the downloads folder: the downloads' hashes by URL path. */
const HASHES_FILE = 'hashes.json';
/** URL path of each download → SHA-256 of its bytes. */
const hashesSchema = z.record(z.string(), z.string());

export interface PreparedData extends PreparedRecords {
  /** The downloads' hashes by URL path, once they are written (a worker thread writes them). */
  downloads: Promise<Record<string, string>>;
}

export type Preparation = Prepared<PreparedData>;

/**
 * The prepared data of `dataFile`, validating and exporting it only if no earlier preparation of
 * the same bytes exists. Returns every problem instead when the data is bad. When it validated
 * now, the records are returned too (the caller may need them; they are not kept).
 */
export async function prepareData(options: PrepareOptions): Promise<Preparation> {
  const preparation = await prepareRecords(options);
  return 'problems' in preparation ? preparation : { ...preparation, data: withDownloads(preparation.data, options.assetsUrl) };
}

/** The preparation with its downloads: read when complete, else written now by a worker thread. */
export function withDownloads(data: PreparedRecords, assetsUrl: string): PreparedData {
  return { ...data, downloads: readyDownloads(data, assetsUrl) };
}

/** Downloads being written, by preparation folder: one worker each. */
const pendingDownloads = new Map<string, Promise<Record<string, string>>>();

/**
 * The downloads of the preparation in `dir`: read when complete, else written by a worker thread
 * from its records file (into a folder beside, renamed when complete).
 */
function readyDownloads({ downloadsDir: target, recordsFile }: PreparedRecords, assetsUrl: string): Promise<Record<string, string>> {
  const dir = dirname(target);
  try {
    return Promise.resolve(hashesSchema.parse(JSON.parse(readFileSync(join(target, HASHES_FILE), 'utf8'))));
  } catch {
    // Not written yet, or cut short: write them.
  }
  const pending = pendingDownloads.get(dir);
  if (pending) return pending;
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const earlier = earlierDownloads(dir);
  const written = new Promise<Record<string, string>>((done, fail) => {
    const worker = new Worker(new URL('./downloads-worker.ts', import.meta.url), {
      workerData: { recordsFile, dir: staging, assetsUrl, earlier },
    });
    worker.once('message', (hashes: Record<string, string>) => done(hashes));
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the downloads worker stopped (exit code ${code}) before it was done`)));
  }).then((hashes) => {
    writeFileSync(join(staging, HASHES_FILE), JSON.stringify(hashes));
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return hashes;
  });
  pendingDownloads.set(dir, written);
  inUse.add(dir);
  // Settled either way it is no longer pending; a failure is the awaiting caller's to report.
  written
    .finally(() => {
      pendingDownloads.delete(dir);
      inUse.delete(dir);
    })
    .catch(() => undefined);
  return written;
}

/** The downloads of the preparation that of `dir` was validated against, where they are complete. */
function earlierDownloads(dir: string): EarlierDownloads | undefined {
  const since = readSince(dir);
  if (!since) return undefined;
  const downloads = preparedDownloadsDir(dirname(dir), since.key);
  // The folder is renamed into place when complete.
  return existsSync(join(downloads, HASHES_FILE)) ? { dir: downloads, changed: since.changed } : undefined;
}

