/**
 * The steps of a build once Astro has rendered its pages, in the order `finishBuild` (build.ts)
 * runs them: each takes the build and what earlier steps gave, and gives the next what it needs.
 * Nothing here changes what is published until `published`, the last step, one rename.
 */
import { constants, copyFileSync, linkSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pageCount } from '../listing/pagination.ts';
import { pageFile, pagePath, PUBLISHED } from '../listing/routes.ts';
import { changesJson, changesOf } from '../outputs/changes.ts';
import { DOWNLOADS } from '../outputs/downloads.ts';
import { manifestJson, manifestOf, manifestPath } from '../outputs/manifest.ts';
import type { PhaseClock } from '../outputs/report.ts';
import { takeSitemaps, writeSitemaps } from '../outputs/sitemap.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import { linkUnchangedFiles } from '../publish/file-times.ts';
import { refreshCopy } from '../publish/host-copies.ts';
import { killPoint } from '../publish/kill-points.ts';
import { writeRecord } from '../publish/record.ts';
import { moveRendered } from '../publish/render-folder.ts';
import { flaggedPages, takenPages } from '../publish/reuse.ts';
import { bytesOf, filesIn, siteFilesOf } from '../publish/site-files.ts';
import { linkSiteForHostFiles, publish } from '../publish/store.ts';
import type { HostFile } from '../serve/hosts/index.ts';
import { VERCEL_OUTPUT_DIR } from '../serve/hosts/vercel.ts';
import type { Rendering, StartedBuild } from './build.ts';
import { cachedHostFiles, writeFiles } from './host-files.ts';
import { Refusal } from './refusals.ts';

/** Vercel's copy of the site in a build's deploy folder. */
export const VERCEL_STATIC = join(VERCEL_OUTPUT_DIR, 'static');

/** Runs a step and ends the clock's phase under its name. */
export function timedSteps(clock: PhaseClock): <T>(name: string, work: () => T | Promise<T>) => Promise<T> {
  return async (name, work) => {
    const value = await work();
    clock.end(name);
    return value;
  };
}

/** The pages as written: every page's keys, the JSON pages' hashes, the pages taken from the baseline. */
export interface WrittenPages {
  keys: PageKeys;
  jsonHashes: ReadonlyMap<number, string>;
  taken: ReadonlySet<string>;
}

/** The JSON pages, written on their own thread while Astro rendered (usually done by now), and Astro's pages moved into the site. */
export async function pagesWritten(build: StartedBuild, { data, render, jsonPages, progress }: Rendering): Promise<WrittenPages> {
  const { hashes, keys: writtenKeys } = await jsonPages.written;
  const keys = data.keys ?? writtenKeys;
  if (keys === undefined) throw new Error('no page keys: neither the data side nor the JSON pages made them');
  clearInterval(progress);
  killPoint('pages rendered');
  moveRendered(build.folder.renderDir, build.folder.siteDir);
  rmSync(build.folder.renderFile);
  // Pages taken from the baseline are the published files, made so before Astro rendered (see reuse.ts).
  return { keys, jsonHashes: hashes, taken: takenPages(render) };
}

/** The sitemaps list every page at its address: the published ones where the code, the addresses and the page count are this build's. */
export async function sitemapsPlaced({ config, baseline, folder }: StartedBuild, { data }: Rendering): Promise<void> {
  const rows = data.preparation.rows;
  const same = baseline?.keys !== undefined && baseline.pageCount === pageCount(rows) && takeSitemaps(baseline.siteDir, folder.siteDir);
  if (!same) await writeSitemaps(folder.siteDir, config.baseUrl, rows);
}

/**
 * The downloads, written by a worker thread while Astro made the pages (usually done by now). One
 * with the published one's bytes is the published file, on the site's own disk whatever disk the
 * cache is on. A changed one is copied from the preparation, never linked: a published file shares
 * no bytes with a cache, so a damaged cache cannot reach a site. Gives their hashes by URL path.
 */
export async function downloadsPlaced(
  { baseline, folder }: StartedBuild,
  preparation: Rendering['data']['preparation'],
): Promise<Record<string, string>> {
  const downloads = await preparation.downloads;
  for (const path of DOWNLOADS) {
    const name = path.slice(1);
    if (baseline && baseline.hashes[path] === downloads[path] && linkedFrom(baseline.siteDir, name, folder.siteDir)) continue;
    copyFileSync(join(preparation.downloadsDir, name), join(folder.siteDir, name), constants.COPYFILE_FICLONE);
  }
  return downloads;
}

/** Links site path `name` from `fromSite` into `toSite`; false where it is not there (the published site lost it: copied then). */
function linkedFrom(fromSite: string, name: string, toSite: string): boolean {
  try {
    linkSync(join(fromSite, name), join(toSite, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The host configurations, in the site and the deploy folder; they name the site where it is published, not the build's folder. */
export async function hostFilesPlaced({ config, store, folder, fingerprint }: StartedBuild, count: number): Promise<HostFile[]> {
  const input = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl, count, siteDir: resolve(config.outDir) };
  const hostFiles = await cachedHostFiles(store.dir, { fingerprint, input, deployDir: resolve(config.deployDir) });
  writeFiles(
    folder.siteDir,
    hostFiles.filter((file) => file.place === 'site'),
  );
  writeFiles(
    folder.deployDir,
    hostFiles.filter((file) => file.place === 'deploy'),
  );
  linkSiteForHostFiles(folder, config.outDir, config.deployDir);
  return hostFiles;
}

/** The site's files compared with the published ones: the unchanged made the published files, the changed newer. */
export interface ComparedFiles {
  /** Every file of the new site (site paths), `manifest.json` and `changes.json` last. */
  files: string[];
  changed: ReadonlySet<string>;
  unchanged: number;
}

/**
 * Every file whose bytes are the published file's is made that file (see file-times.ts). A
 * download or a JSON page written now whose hash the published manifest lists is compared by hash,
 * not read (hundreds of MB of downloads at 1M rows; a JSON page is hashed as it is written).
 */
export function unchangedFilesKept(
  { baseline, folder }: StartedBuild,
  { data, render }: Rendering,
  pages: WrittenPages,
  downloads: Record<string, string>,
): ComparedFiles {
  const files = siteFilesOf(folder.siteDir, pageCount(data.preparation.rows));
  const known = new Map<string, boolean>();
  for (const path of DOWNLOADS) {
    const hash = baseline?.hashes[path];
    if (hash !== undefined) known.set(path.slice(1), hash === downloads[path]);
  }
  for (const page of flaggedPages(render.json)) {
    const [before, after] = [baseline?.hashes[pagePath(page)], pages.jsonHashes.get(page)];
    if (before !== undefined && after !== undefined) known.set(pageFile(page), before === after);
  }
  const { changed, unchanged } = linkUnchangedFiles({
    publishedSiteDir: baseline?.siteDir,
    siteDir: folder.siteDir,
    files,
    taken: pages.taken,
    known,
  });
  // Both describe this build (its time, its changes): new files every time.
  return { files: [...files, PUBLISHED.manifest.slice(1), PUBLISHED.changes.slice(1)], changed, unchanged };
}

/** `manifest.json` and `changes.json`, written into the site. */
export function buildDescribed(
  { config, baseline, folder }: StartedBuild,
  { data }: Rendering,
  {
    pages,
    downloads,
    hostFiles,
    compared,
  }: { pages: WrittenPages; downloads: Record<string, string>; hostFiles: HostFile[]; compared: ComparedFiles },
): { changes: ReturnType<typeof changesOf> } {
  const { preparation } = data;
  const manifest = manifestOf(folder.siteDir, {
    count: preparation.rows,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    data: { file: preparation.dataFile, sha256: preparation.dataSha256 },
    downloads,
    // A page file that is the published one has its published hash; one written now, the hash taken as it was written.
    knownPageHash: (page) =>
      (baseline && !compared.changed.has(pageFile(page)) ? baseline.hashes[pagePath(page)] : undefined) ?? pages.jsonHashes.get(page),
  });
  writeFileSync(manifestPath(folder.siteDir), manifestJson(manifest));
  const newFiles = new Set(compared.files);
  const publishedFiles = baseline ? (baseline.files ?? filesIn(baseline.siteDir)) : [];
  const changes = changesOf(baseline, {
    manifest,
    rows: data.rows,
    // Both describe this build (its time, its changes): changed every time.
    changedFiles: new Set([...compared.changed, PUBLISHED.manifest.slice(1), PUBLISHED.changes.slice(1)]),
    removedFiles: publishedFiles.filter((path) => !newFiles.has(path)),
    notServed: new Set(hostFiles.filter((file) => file.place === 'site').map((file) => file.path)),
  });
  writeFileSync(join(folder.siteDir, PUBLISHED.changes.slice(1)), changesJson(changes));
  return { changes };
}

/** Vercel's copy of the site (hard links) brought up to date: the pages the data side touched, and every file not taken. */
export function vercelCopyRefreshed({ folder }: StartedBuild, { data }: Rendering, pages: WrittenPages, { files }: ComparedFiles): void {
  const copied = [...data.touched, ...files.filter((path) => !pages.taken.has(path))];
  refreshCopy(folder.siteDir, copied, join(folder.deployDir, VERCEL_STATIC));
}

/** The build's record (what the next build needs), written into its folder; gives the site's size in bytes. */
export function recordWritten(
  { folder, fingerprint }: StartedBuild,
  { data, render }: Rendering,
  pages: WrittenPages,
  { files }: ComparedFiles,
): number {
  const bytes =
    data.takenBytes +
    bytesOf(
      folder.siteDir,
      files.filter((path) => !pages.taken.has(path)),
    );
  killPoint('site complete');
  writeRecord(folder.dir, { fingerprint, dataKey: data.preparation.key, keys: pages.keys, rendered: render, files, bytes });
  killPoint('record written');
  return bytes;
}

/** Publication, in one rename; refused where the build lost its lock. */
export function published({ config, store, folder }: StartedBuild): void {
  if (store.lock.lost()) {
    throw new Refusal(
      `Another process took this build's lock while it ran: nothing was published; ${config.outDir}/ is unchanged. Build again.`,
    );
  }
  publish(store.dir, folder, config.outDir, config.deployDir);
  killPoint('links made');
}
