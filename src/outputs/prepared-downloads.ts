/**
 * The downloads of a preparation (`all.json`, `all.csv`, the search index; see
 * src/data/prepared.ts for the records): written once per preparation by a worker thread from its
 * records file, a chunk at a time, while the caller goes on (a build renders its pages meanwhile,
 * on the other core); an edit's downloads copy the unchanged rows' bytes from the earlier
 * preparation's. Written aside, then renamed: complete or absent.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { checkedJson, damagedCacheLine, firstDamaged, readCheckedJson, rememberSha256 } from '../data/checked-files.ts';
import { dirname, join } from 'node:path';
import { runOnThread } from '../threads.ts';
import { z } from 'zod';
import {
  inUse,
  preparedDownloadsDir,
  prepareRecords,
  readEarlier,
  type PrepareOptions,
  type Preparation,
  type PreparationResult,
} from '../data/prepared.ts';
import type { EarlierDownloads, WrittenDownloads } from './downloads.ts';

/** Written last in the downloads folder, with its own hash: the downloads' hashes by URL path, and every other file's. */
const HASHES_FILE = 'hashes.json';
const hashesSchema = z.object({
  /** URL path of each download → SHA-256 of its bytes (the manifest's). */
  downloads: z.record(z.string(), z.string()),
  /** Every file of the folder (downloads included) → SHA-256, checked before any is used. */
  files: z.record(z.string(), z.string()),
});

/** A preparation with its downloads under way. */
export interface PreparationWithDownloads extends Preparation {
  /** The downloads' hashes by URL path, once they are written (a worker thread writes them). */
  downloads: Promise<Record<string, string>>;
}

/**
 * The prepared data of `dataFile`, validating and exporting it only if no earlier preparation of
 * the same bytes exists. Returns every problem instead when the data is bad. When it validated
 * now, the records are returned too (the caller may need them; nothing else holds them in memory).
 */
export async function prepareData(options: PrepareOptions): Promise<PreparationResult<PreparationWithDownloads>> {
  const result = await prepareRecords(options);
  return 'problems' in result ? result : { ...result, preparation: withDownloads(result.preparation, options.assetsUrl) };
}

/**
 * The preparation with its downloads: read when complete, else written by a worker thread once
 * `begin` settles (a build lets them begin as Astro begins to render: before, the worker would
 * compete with Astro's own start for the machine's cores).
 */
export function withDownloads(
  preparation: Preparation,
  assetsUrl: string,
  cached?: Record<string, string>,
  begin: Promise<void> = Promise.resolve(),
): PreparationWithDownloads {
  return { ...preparation, downloads: cached ? Promise.resolve(cached) : readyDownloads(preparation, assetsUrl, begin) };
}

/**
 * The hashes of a preparation's downloads where they are cached and whole (each file checked now),
 * else undefined: a build's data side checks them on its thread, while Astro starts on the main one
 * (`withDownloads` then takes them as they are).
 */
export function cachedDownloads(preparation: Preparation): Record<string, string> | undefined {
  return wholeDownloads(preparation.downloadsDir);
}

/** Downloads being written, by preparation folder: one worker each. */
const pendingDownloads = new Map<string, Promise<Record<string, string>>>();

/**
 * The downloads of the preparation in `dir`: read when complete, else written by a worker thread
 * from its records file (into a folder beside, renamed when complete), once `begin` settles.
 */
function readyDownloads(
  { downloadsDir: target, recordsFile }: Preparation,
  assetsUrl: string,
  begin: Promise<void>,
): Promise<Record<string, string>> {
  const dir = dirname(target);
  const whole = wholeDownloads(target);
  if (whole) return Promise.resolve(whole);
  // Not written yet, cut short or damaged: write them.
  const pending = pendingDownloads.get(dir);
  if (pending) return pending;
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const work: DownloadsWork = { recordsFile, dir: staging, assetsUrl, earlier: earlierDownloads(dir) };
  const written = begin
    .then(() => writtenByWorker(work))
    .then(({ downloads, files }) => {
      // Hashed by the worker as it wrote them: remembered, not read again.
      for (const [name, sha256] of Object.entries(files)) rememberSha256(join(staging, name), sha256);
      writeFileSync(join(staging, HASHES_FILE), checkedJson({ downloads, files }));
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
      return downloads;
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

/** `work` done by a downloads worker thread (downloads-worker.ts). */
function writtenByWorker(work: DownloadsWork): Promise<WrittenDownloads> {
  return runOnThread<WrittenDownloads>('downloads', new URL('./downloads-worker.ts', import.meta.url), work).answer;
}

/** What the downloads worker is given: the records, where to write, and the earlier downloads it may copy from once it has checked them. */
export interface DownloadsWork {
  recordsFile: string;
  dir: string;
  assetsUrl: string;
  earlier: (EarlierDownloads & { files: Record<string, string> }) | undefined;
}

/**
 * The downloads of the preparation that of `dir` was validated against, where they are complete
 * (their bytes are copied), with every file's hash: the worker checks them (hundreds of MB at a
 * million rows) on its own thread.
 */
function earlierDownloads(dir: string): DownloadsWork['earlier'] {
  const earlier = readEarlier(dir);
  if (!earlier) return undefined;
  const downloads = preparedDownloadsDir(dirname(dir), earlier.key);
  const hashes = existsSync(downloads) ? readHashes(downloads) : undefined;
  return hashes && { dir: downloads, changed: earlier.changed, changedFields: earlier.changedFields, files: hashes.files };
}

/**
 * The hashes of the downloads in `dir` where the folder is complete (it is renamed into place when
 * it is) and every file in it still has the hash it was written with; a damaged folder is said and
 * removed.
 */
function wholeDownloads(dir: string): Record<string, string> | undefined {
  const hashes = existsSync(dir) ? readHashes(dir) : undefined;
  if (!hashes) return undefined;
  const bad = firstDamaged(dir, hashes.files);
  if (bad === undefined) return hashes.downloads;
  damaged(dir, join(dir, bad));
  return undefined;
}

/** The hashes file of the downloads folder `dir`, if it is whole; a damaged one is said, and the folder removed. */
function readHashes(dir: string): z.infer<typeof hashesSchema> | undefined {
  return readCheckedJson(join(dir, HASHES_FILE), hashesSchema, (path) => damaged(dir, path));
}

/** Says that `path` is damaged, and removes the downloads folder `dir` it is in. */
function damaged(dir: string, path: string): void {
  console.error(damagedCacheLine(path));
  rmSync(dir, { recursive: true, force: true });
}
