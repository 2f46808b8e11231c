/**
 * Modification times that tell uploaders the truth. `rsync -a` and `aws s3 sync` upload a file when
 * its size differs or it is newer (rsync: differs), so every file of a new site whose bytes are the
 * published file's becomes that file (a hard link: the same inode, so the same time, exactly), and
 * every other file is newer than the one it replaces: a download taken from an older preparation
 * (going back to earlier data) is copied, so that it gets a time of its own.
 */
import { copyFileSync, linkSync, statSync, utimesSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { replaceAside } from './replace-aside.ts';
import { fileSha256 } from '../files/checked-files.ts';
import { ifPresent } from '../files/missing.ts';

/** What `linkUnchangedFiles` compares. */
interface SiteFiles {
  /** The published site's folder; none for a first build (every file is new). */
  publishedSiteDir: string | undefined;
  siteDir: string;
  /** The new site's files (site paths). */
  files: readonly string[];
  /** Files that are the published ones already (the pages taken from it). */
  taken: ReadonlySet<string>;
  /** The published files' SHA-256 by path (its manifest's): a file with another hash changed. */
  publishedHashes: Readonly<Record<string, string>>;
  /** The new files' SHA-256 where it is known without reading them (JSON pages hashed as written, downloads). */
  knownHashes?: ReadonlyMap<string, string>;
}

/**
 * Compares each of the new site's files with the published site's and applies the rule above: by
 * hash, the published manifest's where it lists the file's, else (a manifest of version 1) the
 * published file's own.
 */
export function linkUnchangedFiles({ publishedSiteDir, siteDir, files, taken, publishedHashes, knownHashes = new Map() }: SiteFiles) {
  /** Site paths of the new site's files that are new or whose bytes changed. */
  const changed = new Set<string>();
  /** Every file's SHA-256, by path (for the manifest). */
  const hashes = new Map<string, string>();
  /** How many files are unchanged: the published ones (linked now or before). */
  let unchanged = 0;
  for (const path of files) {
    const file = join(siteDir, path);
    const publishedHash = publishedHashes[path];
    if (taken.has(path)) {
      hashes.set(path, publishedHash ?? fileSha256(file));
      unchanged += 1;
      continue;
    }
    const hash = knownHashes.get(path) ?? fileSha256(file);
    hashes.set(path, hash);
    const published = publishedSiteDir === undefined ? undefined : join(publishedSiteDir, path);
    const before = published === undefined ? undefined : ifPresent(() => statSync(published, { bigint: true }));
    if (published === undefined || before === undefined || !before.isFile()) {
      changed.add(path);
      continue;
    }
    const after = statSync(file, { bigint: true });
    const sameFile = after.ino === before.ino && after.dev === before.dev;
    if (sameFile || (publishedHash ?? fileSha256(published)) === hash) {
      // Makes `file` the published file: a link renamed over it.
      if (!sameFile) replaceAside(file, (aside) => linkSync(published, aside));
      unchanged += 1;
      continue;
    }
    changed.add(path);
    if (after.mtimeNs <= before.mtimeNs) makeNewer(file, before);
  }
  return { changed, unchanged, hashes };
}

/**
 * Gives `file` a time newer than `replaced`'s. It is copied rather than touched: a download is
 * linked from its preparation, and a time set on it would be set on every other name it has.
 */
function makeNewer(file: string, replaced: BigIntStats): void {
  replaceAside(file, (aside) => copyFileSync(file, aside));
  // A clock behind the replaced file's time: past it by whole milliseconds. Node sets times as
  // float seconds, which land a few hundred nanoseconds off, so the result is read back.
  for (let step = 1; statSync(file, { bigint: true }).mtimeNs <= replaced.mtimeNs; step += 1) {
    const mtime = new Date(Number(replaced.mtimeNs / 1_000_000n) + step);
    utimesSync(file, mtime, mtime);
  }
}
