/**
 * The downloads (the whole-listing files and the search index's, by the thousand: src/outputs/)
 * placed in a build's site. One with the published one's bytes is the published file, on the site's
 * own disk whatever disk the cache is on; a changed one is copied from the preparation, never
 * linked: a published file shares no bytes with a cache, so a damaged cache cannot reach a site.
 *
 * A recycled folder (see store.ts) keeps the search index of the build before the published one:
 * a file there that is still the published file, with the bytes this build wants, stays as it is,
 * so that a rebuild costs the index files that changed (two lookups each for the others), not a
 * link per file. Any other file there is removed first,
 * never written through (the published build may share it), and the files this build's index no
 * longer has go.
 */
import { constants, copyFileSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SEARCH_FOLDER } from '../listing/search.ts';
import { linkedFrom, namesFile } from '../files/links.ts';
import { contentsOf, removeIfEmpty } from './site-files.ts';
import { ifPresent } from '../files/missing.ts';
import { firstDamaged } from '../files/checked-files.ts';

/** The folder a recycled build folder keeps (besides its pages): the search index's. */
export const KEPT_DOWNLOADS_FOLDER = SEARCH_FOLDER.slice(1, -1);

export interface PlacedDownloads {
  /** Site paths of the files that are the published ones already (kept in a recycled folder): taken, as pages are. */
  kept: Set<string>;
  keptBytes: number;
  /** Site paths of the recycled folder's files this build does not have, removed. */
  removed: string[];
}

/** A file of the preparation's downloads that no longer has the hash it was recorded with: nothing of it reaches a site. */
export class DamagedDownload extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`${path} is damaged`);
    this.path = path;
  }
}

/**
 * Places `downloads` (SHA-256 by URL path) from `downloadsDir` into `siteDir`, keeping what a
 * recycled folder holds of them where it is the `published` file with the same bytes. A file of
 * `unread` (taken into the preparation without being read) is checked before it is copied.
 */
export function placeDownloads(
  siteDir: string,
  downloadsDir: string,
  downloads: Readonly<Record<string, string>>,
  published: { siteDir: string; hashes: Readonly<Record<string, string>> } | undefined,
  unread: ReadonlySet<string> = new Set(),
): PlacedDownloads {
  const placed: PlacedDownloads = { kept: new Set(), keptBytes: 0, removed: [] };
  const recycled = ifPresent(() => contentsOf(join(siteDir, KEPT_DOWNLOADS_FOLDER), new Set()));
  const folders = new Set<string>();
  for (const [path, sha256] of Object.entries(downloads)) {
    const name = path.slice(1);
    const to = join(siteDir, name);
    const parent = dirname(to);
    if (!folders.has(parent)) {
      mkdirSync(parent, { recursive: true });
      folders.add(parent);
    }
    const from = published !== undefined && published.hashes[name] === sha256 ? published.siteDir : undefined;
    const held =
      recycled !== undefined && name.startsWith(`${KEPT_DOWNLOADS_FOLDER}/`) ? lstatSync(to, { throwIfNoEntry: false }) : undefined;
    if (held !== undefined) {
      const publishedFile = from === undefined ? undefined : lstatSync(join(from, name), { bigint: true, throwIfNoEntry: false });
      if (publishedFile !== undefined && namesFile(to, publishedFile)) {
        placed.kept.add(name);
        placed.keptBytes += Number(publishedFile.size);
        continue;
      }
      rmSync(to, { recursive: true });
    }
    if (from !== undefined && linkedFrom(from, name, siteDir)) continue;
    if (unread.has(name) && firstDamaged(downloadsDir, { [name]: sha256 }) !== undefined)
      throw new DamagedDownload(join(downloadsDir, name));
    copyFileSync(join(downloadsDir, name), to, constants.COPYFILE_FICLONE);
  }
  if (recycled === undefined) return placed;
  for (const path of recycled.files) {
    const name = `${KEPT_DOWNLOADS_FOLDER}/${path}`;
    if (Object.hasOwn(downloads, `/${name}`)) continue;
    rmSync(join(siteDir, name));
    placed.removed.push(name);
  }
  // Folders left empty (a word's list gone), deepest first.
  for (const folder of recycled.folders.reverse()) removeIfEmpty(join(siteDir, KEPT_DOWNLOADS_FOLDER, folder));
  return placed;
}
