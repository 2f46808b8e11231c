/**
 * The steps of a build once Astro has rendered its pages, in the order `finishBuild` (build.ts)
 * runs them: each takes the build and what earlier steps gave, and gives the next what it needs.
 * Nothing here changes what is published until `published`, the last step, one rename.
 */
import { linkSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { damagedCacheLine, fileSha256 } from '../files/checked-files.ts';
import type { ChangeDocument, Changes, HistoryEntry } from '../listing/documents.ts';
import { counted } from '../listing/format.ts';
import { pageCount } from '../listing/pagination.ts';
import { changedDownloads, changedUrls, type ChangeSummary } from '../outputs/changes.ts';
import { CHANGES_FILE, changeDocumentFile, publishedHistory } from '../outputs/history.ts';
import { writeJsonFile } from '../outputs/json-file.ts';
import { MANIFEST_FILE, manifestOf, manifestPath } from '../outputs/manifest.ts';
import { takeSitemaps, writeSitemaps } from '../outputs/sitemap.ts';
import type { WrittenPages } from '../outputs/listing-pages.ts';
import { linkUnchangedFiles } from '../publish/file-times.ts';
import { DamagedDownload, placeDownloads, type PlacedDownloads } from '../publish/downloads-placed.ts';
import { removeDownloads } from '../outputs/downloads-cache.ts';
import { linkedFrom } from '../files/links.ts';
import { killPoint } from '../publish/kill-points.ts';
import { writeRecord } from '../publish/record.ts';
import { moveRendered } from '../publish/render-folder.ts';
import { takenPages } from '../publish/reuse.ts';
import { bytesOf, contentsOf, siteFilesOf } from '../publish/site-files.ts';
import { linkSiteForHostFiles, publish } from '../publish/store.ts';
import type { HostFile } from '../serve/hosts/index.ts';
import type { Rendering, StartedBuild } from './hand-offs.ts';
import { cachedHostFiles, writeHostFiles } from './host-files.ts';
import { checkPages } from './page-check.ts';
import { Refusal, unchangedSite } from './refusals.ts';

/** The pages as their writers wrote them, with every page's keys, and the files taken from the baseline. */
interface PagesOfSite extends Required<WrittenPages> {
  /** Site paths of the files that are the published ones already: the pages taken, then the search index files kept (`downloadsPlaced`). */
  taken: Set<string>;
}

/**
 * The listing's pages, written on their threads while Astro rendered the rest, checked against the
 * pages Astro rendered to check them by (page-check.ts), and Astro's pages moved into the site.
 */
export async function pagesWritten(build: StartedBuild, { data, render, pages, progress }: Rendering): Promise<PagesOfSite> {
  const { hashes, bytes, keys: writtenKeys } = await pages.written;
  const keys = data.keys ?? writtenKeys;
  if (keys === undefined) throw new Error("no page keys: neither the data side nor the listing pages' writers made them");
  clearInterval(progress);
  checkPages(build.folder.siteDir, pages.checked, build.config.outDir);
  console.error(`Listing pages: ${counted(pages.checked.length)} checked against Astro's own rendering, byte for byte`);
  killPoint('pages rendered');
  moveRendered(build.folder.renderDir, build.folder.siteDir);
  rmSync(build.folder.renderFile);
  // Pages taken from the baseline are the published files, made so before Astro rendered (see reuse.ts).
  return { keys, hashes, bytes, taken: takenPages(render) };
}

/** The sitemaps list every page at its address: the published ones where the code, the addresses and the page count are this build's. */
export async function sitemapsPlaced({ config, baseline, folder }: StartedBuild, { data }: Rendering): Promise<void> {
  const rows = data.preparation.rows;
  const same = baseline?.keys !== undefined && baseline.pageCount === pageCount(rows) && takeSitemaps(baseline.siteDir, folder.siteDir);
  if (!same) await writeSitemaps(folder.siteDir, config.baseUrl, rows);
}

/**
 * The downloads, written by a worker thread while Astro made the pages (usually done by now),
 * placed in the site (see src/publish/downloads-placed.ts); the search index files a recycled
 * folder kept are taken from the published build, as pages are. Gives their hashes by URL path.
 */
export async function downloadsPlaced(
  { config, baseline, folder }: StartedBuild,
  preparation: Rendering['data']['preparation'],
  pages: PagesOfSite,
): Promise<{ downloads: Record<string, string>; placed: PlacedDownloads }> {
  const { hashes: downloads, unread } = await preparation.downloads;
  let placed: PlacedDownloads;
  try {
    placed = placeDownloads(folder.siteDir, preparation.downloadsDir, downloads, baseline, unread);
  } catch (error) {
    if (!(error instanceof DamagedDownload)) throw error;
    // Removed, with those it took files from, so that the next build writes them anew.
    removeDownloads(preparation.downloadsDir);
    throw new Refusal(`${damagedCacheLine(error.path)}\n${unchangedSite(config.outDir)} Build again: the downloads are written anew.`);
  }
  for (const path of placed.kept) pages.taken.add(path);
  return { downloads, placed };
}

/** The host configurations, in the site and the deploy folder; they name the site where it is published, not the build's folder. */
export async function hostFilesPlaced({ config, store, folder, fingerprint }: StartedBuild, count: number): Promise<HostFile[]> {
  const input = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl, count, siteDir: resolve(config.outDir) };
  const hostFiles = await cachedHostFiles(store.dir, { fingerprint, input, deployDir: resolve(config.deployDir) });
  writeHostFiles(hostFiles, { site: folder.siteDir, deploy: folder.deployDir });
  linkSiteForHostFiles(folder, config.outDir, config.deployDir);
  return hostFiles;
}

/** The site's files compared with the published ones: the unchanged made the published files, the changed newer. */
export interface ComparedFiles {
  /** Every file of the new site (site paths), `manifest.json` and `changes.json` last. */
  files: string[];
  /** The files a host serves, with their SHA-256: the manifest's (all but the hosts' own configuration, and the manifest). */
  served: Map<string, string>;
  /** Files a host serves that are new or whose bytes changed; the published ones gone. */
  changed: Set<string>;
  removed: string[];
  unchanged: number;
  /** The published history, carried into this site (its documents linked). */
  history: HistoryEntry[];
}

/**
 * The published history's documents carried into the site (see src/outputs/history.ts); then every
 * file whose bytes are the published file's made that file (see file-times.ts), each file hashed
 * for the manifest: a download or a page written now has its hash already (hundreds of MB of
 * downloads at 1M rows; a page is hashed as it is written), a page taken the published one's.
 */
export function unchangedFilesKept(
  { config, baseline, folder, warn }: StartedBuild,
  { data }: Rendering,
  { pages, downloads, hostFiles }: { pages: PagesOfSite; downloads: Record<string, string>; hostFiles: HostFile[] },
): ComparedFiles {
  const history = baseline ? publishedHistory(baseline.siteDir, warn).slice(0, config.changesKept) : [];
  for (const entry of history) {
    mkdirSync(dirname(join(folder.siteDir, entry.file)), { recursive: true });
    linkSync(join(baseline!.siteDir, entry.file), join(folder.siteDir, entry.file));
  }
  const files = siteFilesOf(folder.siteDir, pageCount(data.preparation.rows));
  const knownHashes = new Map<string, string>([
    ...pages.hashes,
    ...Object.entries(downloads).map(([path, hash]) => [path.slice(1), hash] as const),
  ]);
  const { changed, unchanged, hashes } = linkUnchangedFiles({
    publishedSiteDir: baseline?.siteDir,
    siteDir: folder.siteDir,
    files,
    taken: pages.taken,
    publishedHashes: baseline?.hashes ?? {},
    knownHashes,
  });
  // The hosts' own configuration files are read by the host, never served: no mirror fetches them.
  const configuration = new Set(hostFiles.filter((file) => file.place === 'site').map((file) => file.path));
  const served = new Map([...hashes].filter(([path]) => !configuration.has(path)));
  const newFiles = new Set(files);
  const publishedFiles = baseline ? (baseline.files ?? contentsOf(baseline.siteDir, new Set()).files) : [];
  const describing = new Set<string>([MANIFEST_FILE, CHANGES_FILE]);
  return {
    files,
    served,
    changed: new Set([...changed].filter((path) => !configuration.has(path) && !describing.has(path))),
    removed: publishedFiles.filter((path) => !newFiles.has(path) && !configuration.has(path) && !describing.has(path)),
    unchanged,
    history,
  };
}

/**
 * `changes.json`, this build's change document and `manifest.json`, written into the site. A build
 * that changed no file a host serves adds no change document and keeps the published `changes.json`
 * (the same file): its manifest names the build that last changed anything (`changedBy`), so a mirror
 * at that build has nothing to fetch but the manifest. Any other build adds its document, the
 * history keeping at most CHANGES_KEPT of them (an older one past that is removed, and said so).
 * Gives the build's change summary for the report (none where it changed nothing) and its manifest.
 */
export function buildDescribed({ config, baseline, folder }: StartedBuild, { data }: Rendering, compared: ComparedFiles) {
  const { preparation } = data;
  const site = folder.siteDir;
  const builtAt = new Date();
  const unchangedSite = baseline?.changedBy !== undefined && compared.changed.size === 0 && compared.removed.length === 0;
  let summary: ChangeSummary | undefined;
  if (unchangedSite && linkedFrom(baseline.siteDir, CHANGES_FILE, site)) {
    compared.served.set(CHANGES_FILE, baseline.hashes[CHANGES_FILE] ?? fileSha256(join(site, CHANGES_FILE)));
    compared.files.push(CHANGES_FILE);
  } else {
    const chained = { buildId: folder.id, previousBuildId: baseline?.changedBy ?? null, builtAt: builtAt.toISOString() };
    const entry = { ...chained, file: changeDocumentFile(folder.id) };
    const history = [entry, ...compared.history].slice(0, config.changesKept);
    const pruned = compared.history.slice(history.length - 1).map((old) => old.file);
    for (const file of pruned) {
      rmSync(join(site, file));
      compared.served.delete(file);
      compared.files.splice(compared.files.indexOf(file), 1);
    }
    const changedFiles = new Set([...compared.changed, CHANGES_FILE, entry.file]);
    const removedFiles = [...compared.removed, ...pruned];
    const { urls, pages } = changedUrls(baseline?.pageCount, {
      pageCount: pageCount(preparation.rows),
      baseUrl: config.baseUrl,
      // manifest.json too: it changes with every build.
      changedFiles: new Set([...changedFiles, MANIFEST_FILE]),
      removedFiles,
    });
    const document: ChangeDocument = {
      ...chained,
      dataSha256: preparation.dataSha256,
      previousDataSha256: baseline?.dataSha256 ?? null,
      rows: data.rows,
      files: { changed: [...changedFiles].sort(), removed: removedFiles.sort() },
      urls,
    };
    mkdirSync(dirname(join(site, entry.file)), { recursive: true });
    // Each document as its own published file, followed by a new line.
    for (const [file, content] of [
      [entry.file, document],
      [CHANGES_FILE, { ...document, history } satisfies Changes],
    ] as const) {
      compared.served.set(file, writeJsonFile(join(site, file), content, '\n'));
      compared.files.push(file);
    }
    summary = { rows: data.rows, pages, ...changedDownloads(compared.changed) };
  }
  const manifest = manifestOf({
    buildId: folder.id,
    changedBy: unchangedSite ? baseline.changedBy! : folder.id,
    count: preparation.rows,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    data: { file: preparation.dataFile, sha256: preparation.dataSha256 },
    files: compared.served,
    builtAt,
  });
  writeJsonFile(manifestPath(site), manifest);
  compared.files.push(MANIFEST_FILE);
  return { changes: summary, manifest };
}

/** The build's record (what the next build needs), written into its folder; gives the site's size in bytes. */
export function recordWritten(
  { folder, fingerprint }: StartedBuild,
  { data, render }: Rendering,
  pages: PagesOfSite,
  placed: PlacedDownloads,
  { files }: ComparedFiles,
): number {
  // Of the files this build wrote, the pages (hundreds of thousands at 1M rows) were counted as they were written: the others looked up.
  const others = files.filter((path) => !pages.taken.has(path) && !pages.hashes.has(path));
  const bytes = data.takenBytes + placed.keptBytes + pages.bytes + bytesOf(folder.siteDir, others);
  killPoint('site complete');
  writeRecord(folder.dir, { fingerprint, dataKey: data.preparation.key, keys: pages.keys, rendered: render, files, bytes });
  killPoint('record written');
  return bytes;
}

/** Publication, in one rename; refused where the build lost its lock. */
export function published({ config, store, folder }: StartedBuild): void {
  if (store.lock.lost()) {
    throw new Refusal(`Another process took this build's lock while it ran. ${unchangedSite(config.outDir)} Build again.`);
  }
  publish(store.dir, folder, config.outDir, config.deployDir);
  killPoint('links made');
}
