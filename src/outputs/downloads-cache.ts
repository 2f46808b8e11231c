/**
 * The downloads cache: a preparation's downloads (downloads.ts) and search index (search-files.ts),
 * written once by a worker thread (downloads-worker.ts) into the preparation's folder
 * (preparation.ts), complete or absent (written aside, then renamed), and taken again as they are
 * while every file still has its hash. After an edit in place, the unchanged rows' bytes are copied
 * from the downloads of the preparation it was validated against.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { checkedJson, readCheckedJson, rememberSha256, removeDamaged, wholeFolder } from '../files/checked-files.ts';
import { runOnThread } from '../threads.ts';
import type { EarlierDownloads, WrittenDownloads } from './downloads.ts';
import { readEarlier, type Preparation } from './preparation.ts';

/** Written last in the downloads folder, with its own hash: the downloads' hashes by URL path, and every other file's. */
const HASHES_FILE = 'hashes.json';
const hashesSchema = z.object({
  /** URL path of each download → SHA-256 of its bytes (the manifest's). */
  downloads: z.record(z.string(), z.string()),
  /** Every file of the folder (downloads included) → SHA-256, checked before any is used. */
  files: z.record(z.string(), z.string()),
});

/** A preparation's downloads, once written. */
export interface Downloads {
  /** The downloads' hashes by URL path. */
  hashes: Record<string, string>;
  /**
   * The files the worker took from the earlier preparation's without reading them (see
   * downloads-worker.ts): their hash is the one recorded there, so any copied out of the cache is
   * checked first. None where the folder was found cached: it was checked whole as it was found.
   */
  unread: ReadonlySet<string>;
}

/** A preparation with its downloads under way. */
export interface PreparationWithDownloads extends Preparation {
  downloads: Promise<Downloads>;
}

/**
 * The preparation with its downloads: `cached` (`cachedDownloads`'s), or read when complete, else
 * written by a worker thread once `begin` settles (a build lets them begin as Astro begins to
 * render: before, the worker would compete with Astro's own start for the machine's cores).
 */
export function withDownloads(
  preparation: Preparation,
  assetsUrl: string,
  cached?: Record<string, string>,
  begin: Promise<void> = Promise.resolve(),
): PreparationWithDownloads {
  const hashes = cached ?? cachedDownloads(preparation);
  return {
    ...preparation,
    downloads: hashes ? Promise.resolve({ hashes, unread: new Set() }) : writtenDownloads(preparation, assetsUrl, begin),
  };
}

/**
 * The hashes of a preparation's downloads where they are cached and whole (each file checked now),
 * else undefined: a build's data side checks them on its thread, while Astro starts on the main one
 * (`withDownloads` then takes them as they are).
 */
export function cachedDownloads({ downloadsDir }: Preparation): Record<string, string> | undefined {
  return wholeFolder(downloadsDir, HASHES_FILE, hashesSchema)?.downloads;
}

/**
 * Removes the downloads of the preparation whose downloads folder is `downloadsDir`, and those of
 * the preparation it was validated against, whose files its unread ones are (the same inodes): a
 * damaged one is then in neither, and the next build writes them anew.
 */
export function removeDownloads(downloadsDir: string): void {
  const earlier = readEarlier(dirname(downloadsDir));
  if (earlier) rmSync(earlier.downloadsDir, { recursive: true, force: true });
  rmSync(downloadsDir, { recursive: true, force: true });
}

/** Downloads being written by this process, by preparation folder: one worker each. */
const pendingDownloads = new Map<string, Promise<Downloads>>();

/**
 * The downloads of `preparation` (not written yet, cut short or damaged), written by a worker
 * thread beside, aside (`<downloads>.<pid>.tmp`: the preparation cache keeps a folder holding one,
 * see preparation.ts), and renamed when complete.
 */
function writtenDownloads({ downloadsDir: target, recordsFile }: Preparation, assetsUrl: string, begin: Promise<void>): Promise<Downloads> {
  const dir = dirname(target);
  const pending = pendingDownloads.get(dir);
  if (pending) return pending;
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const work: DownloadsWork = { recordsFile, dir: staging, assetsUrl, earlier: earlierDownloads(dir) };
  const written = begin
    .then(() => runOnThread<WrittenDownloads>('downloads', new URL('./downloads-worker.ts', import.meta.url), work).answer)
    .then(({ downloads, files, unread = [] }) => {
      // Hashed by the worker as it wrote them: remembered, not read again. Those it took unread
      // from the earlier preparation are read when first used (`firstDamaged`).
      const notRead = new Set(unread);
      for (const [name, sha256] of Object.entries(files)) if (!notRead.has(name)) rememberSha256(join(staging, name), sha256);
      writeFileSync(join(staging, HASHES_FILE), checkedJson({ downloads, files }));
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
      return { hashes: downloads, unread: notRead };
    });
  pendingDownloads.set(dir, written);
  // Settled either way it is no longer pending; a failure is the awaiting caller's to report.
  written.finally(() => pendingDownloads.delete(dir)).catch(() => undefined);
  return written;
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
  const { downloadsDir } = earlier;
  const hashes = readCheckedJson(join(downloadsDir, HASHES_FILE), hashesSchema, (path) => removeDamaged(downloadsDir, path));
  return hashes && { dir: downloadsDir, changed: earlier.changed, changedFields: earlier.changedFields, files: hashes.files };
}
