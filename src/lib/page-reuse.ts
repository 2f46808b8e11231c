/**
 * Pages a rebuild takes from the published site instead of writing them again. Astro's incremental
 * build skips a page whose cache key and code are unchanged, and copies it from its cache unless
 * the file is already in the output folder: linking the published file there first makes that
 * skip cost one hard link, and the unchanged file keeps its inode, time and bytes all the way to
 * publication (so comparing it, and mirroring it for Vercel, costs nothing either).
 *
 * A page is linked only when the last published build had the same code fingerprint (sources,
 * lock file, addresses) and the same key for it: then Astro skips it too, and were it ever to
 * render it again it would write the same bytes.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { htmlPageFile, pageFile } from './routes.ts';
import type { PageKeys } from './page-keys.ts';
import { linkFile } from './publish.ts';

const RECORD_FILE = 'listing-build.v8';
const SITE_FILE = 'site.txt';

/** What a published build leaves for the next one. */
export interface BuildRecord {
  /** The site it was published to, so caches of sites that are gone can be recognised. */
  site: string;
  fingerprint: string;
  /** The preparation of its data (see data-cache.ts). */
  dataKey: string;
  keys: PageKeys;
  /** Every file of the published site (site paths), for the next build's mirror of it. */
  files: readonly string[];
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

/** Links every published page whose key is unchanged into `staging`; returns their site paths. */
export function linkUnchangedPages(previous: PageKeys, next: PageKeys, siteDir: string, staging: string): Set<string> {
  const linked = new Set<string>();
  const folders = new Set<string>();
  const link = (file: string) => {
    const from = join(siteDir, file);
    if (!existsSync(from)) return;
    linkFile(from, join(staging, file), folders);
    linked.add(file);
  };
  for (let index = 0; index < next.json.length; index += 1) {
    if (previous.json[index] === next.json[index]) link(pageFile(index + 1));
    // Page 1's HTML is the home page: no cache key, always rendered.
    if (index > 0 && previous.html[index] === next.html[index]) link(htmlPageFile(index + 1));
  }
  return linked;
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
