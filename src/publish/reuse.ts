/**
 * Pages a rebuild takes from the published site instead of writing them again. Astro's incremental
 * build skips a page whose cache key and code are unchanged, and copies it from its cache unless
 * the file is already in the output folder: having the published file there first (a hard link)
 * makes that skip cost nothing, and the unchanged file keeps its inode, time and bytes all the way
 * to publication (so comparing it, and mirroring it for Vercel, costs nothing either).
 *
 * Where the last publication kept the site it replaced (the spare, see publish.ts), the staging
 * folder is made from it: its folders are all there and its pages are mostly the published files
 * already (the pages that build did not write), so only what the last build wrote and what this
 * one will write is unlinked or linked. Otherwise every unchanged page is linked into a new folder,
 * one folder per HTML page. Either way the staging folder then holds exactly the published files
 * of the pages whose key is unchanged, and nothing that Astro will write: a page it renders is
 * never a link to a published file.
 *
 * Pages are taken only when the last published build had the same code fingerprint (sources,
 * lock file, addresses) and the same key for them: then Astro skips them too, and were it ever to
 * render one again it would write the same bytes.
 */
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { htmlPageFile, pageFile } from '../listing/routes.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import { filesIn, linkFile, removeEmptyFolders } from './publish.ts';

const RECORD_FILE = 'listing-build.v8';
const SITE_FILE = 'site.txt';

/** What a published build leaves for the next one. */
export interface BuildRecord {
  /** Names the spare this build's publication kept (the site it replaced), if it kept one. */
  id: string;
  /** The site it was published to, so caches of sites that are gone can be recognised. */
  site: string;
  fingerprint: string;
  /** The preparation of its data (see data-cache.ts). */
  dataKey: string;
  keys: PageKeys;
  /** Every file of the published site (site paths), for the next build's mirror of it. */
  files: readonly string[];
  /** The published files this build wrote (the others are the replaced site's files, linked). */
  writtenFiles: readonly string[];
  /** Files of the replaced site the published one does not have. */
  removedFiles: readonly string[];
  /** The published site's size. */
  bytes: number;
}

export function readBuildRecord(cacheDir: string): BuildRecord | undefined {
  try {
    return deserialize(readFileSync(join(cacheDir, RECORD_FILE))) as BuildRecord;
  } catch {
    return undefined;
  }
}

export function writeBuildRecord(cacheDir: string, record: BuildRecord): void {
  writeFileSync(join(cacheDir, RECORD_FILE), serialize(record));
  // Apart from the record (which holds every page's key), so that pruning reads a line per site.
  writeFileSync(join(cacheDir, SITE_FILE), record.site);
}

/** Every page file of a site of `pages` pages (site paths), with the page's 0-based index and which of its keys names it. */
function* pageFilesOf(pages: number): Generator<{ index: number; path: string; key: 'json' | 'html' }> {
  for (let index = 0; index < pages; index += 1) {
    yield { index, path: pageFile(index + 1), key: 'json' };
    yield { index, path: htmlPageFile(index + 1), key: 'html' };
  }
}

/**
 * Site paths of the pages whose key did not change from `previous` to `next`: the pages a rebuild
 * may take from the published site. Page 1's HTML is the home page: no cache key, always rendered.
 */
function unchangedPages(previous: PageKeys, next: PageKeys): Set<string> {
  const unchanged = new Set<string>();
  for (const { index, path, key } of pageFilesOf(Math.min(previous.json.length, next.json.length))) {
    if (previous[key][index] === next[key][index] && path !== htmlPageFile(1)) unchanged.add(path);
  }
  return unchanged;
}

/** Links every published page whose key is unchanged into `staging`; returns their site paths. */
export function linkUnchangedPages(previous: PageKeys, next: PageKeys, siteDir: string, staging: string): Set<string> {
  const linked = new Set<string>();
  const folders = new Set<string>();
  for (const path of unchangedPages(previous, next)) {
    const from = join(siteDir, path);
    if (!existsSync(from)) continue;
    linkFile(from, join(staging, path), folders);
    linked.add(path);
  }
  return linked;
}

/** Removes `path` from `staging`, and its folder where that is left empty: a host might answer for an empty folder. */
function removeFrom(staging: string, path: string): void {
  rmSync(join(staging, path), { force: true });
  removeEmptyFolders(staging, dirname(path));
}

/**
 * Takes out of `staging`, the spare (the site `record`'s build replaced), what is not the
 * published site's and is not a page: the files gone since, and what the last build wrote besides
 * pages (assets, downloads, manifest…), which this build writes again. Done before Astro writes
 * anything there; the pages are `reuseSpare`'s, once their keys are known.
 */
export function clearSpare(staging: string, record: BuildRecord): void {
  const pagePaths = new Set<string>();
  for (const { path } of pageFilesOf(record.keys.json.length)) pagePaths.add(path);
  for (const path of record.removedFiles) removeFrom(staging, path);
  for (const path of record.writtenFiles) if (!pagePaths.has(path)) removeFrom(staging, path);
}

/**
 * Makes the pages of `staging`, a spare cleared by `clearSpare`, the published site's pages whose
 * key is unchanged; returns their site paths. The spare's pages are those of the published site
 * except `record.writtenFiles` (written since): a page kept must become the published file, and a
 * page Astro renders must not be one (it is unlinked, so Astro writes a new file rather than
 * through a shared one). Only page files and their folders are touched: Astro may be writing its
 * assets into `staging` meanwhile.
 */
export function reuseSpare(staging: string, siteDir: string, record: Pick<BuildRecord, 'keys' | 'writtenFiles'>, next: PageKeys): Set<string> {
  const unchanged = unchangedPages(record.keys, next);
  const written = new Set(record.writtenFiles);
  const linked = new Set<string>();
  const unlink = (path: string) => rmSync(join(staging, path), { force: true });
  for (const { index, path } of pageFilesOf(Math.max(record.keys.json.length, next.json.length))) {
    if (index >= next.json.length) removeFrom(staging, path);
    else if (!unchanged.has(path)) unlink(path);
    else if (!written.has(path)) linked.add(path);
    else {
      unlink(path);
      if (linkIfThere(join(siteDir, path), join(staging, path))) linked.add(path);
    }
  }
  return linked;
}

/** Hard-links `from` at `to`; false when `from` is not there. */
function linkIfThere(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The folders that hold nothing but pages, named by the route table: `page/`, the JSON pages' folder. */
const PAGE_FOLDERS = new Set([dirname(dirname(htmlPageFile(2))), dirname(pageFile(1))]);

/**
 * Every file of a built site of `pages` pages (site paths): its pages, named by the route table,
 * and the few dozen others (assets, downloads, host files) found by walking every folder but the
 * page folders, so that listing a million-row site reads a few folders, not 100,000.
 */
export function siteFilesOf(dir: string, pages: number): string[] {
  const files = filesIn(dir, PAGE_FOLDERS);
  // Page 1's HTML, the home page, is not in a page folder: the walk found it.
  for (const { path } of pageFilesOf(pages)) if (path !== htmlPageFile(1)) files.push(path);
  return files;
}

/**
 * Removes the caches of sites that are gone (a build record naming a folder that no longer exists),
 * and caches that never saw a build published, a day on: each holds a copy of a whole site.
 */
export function pruneSiteCaches(buildsDir: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 60 * 60_000;
  for (const name of readdirSync(buildsDir)) {
    const dir = join(buildsDir, name);
    if (dir === keep) continue;
    let site: string | undefined;
    try {
      site = readFileSync(join(dir, SITE_FILE), 'utf8');
    } catch {
      site = undefined;
    }
    if (site !== undefined ? !existsSync(site) : statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
  }
}
