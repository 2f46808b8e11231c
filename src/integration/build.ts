/**
 * A build's three steps, as the integration's hooks call them:
 *
 * 1. `startBuild` (astro:config:setup): takes the build lock, reads what is published (the site and
 *    its record, see src/publish/store.ts), makes the new build's folder, and starts the data side
 *    on a worker thread (data-side.ts) while Astro starts and bundles.
 * 2. `awaitData` (before Astro renders any page): the data, or the build stops with its report.
 * 3. `finishBuild` (astro:build:done): the pages Astro did not render taken from the published
 *    site, sitemaps, downloads, host files, file times, manifest, changes, Vercel's copy, the
 *    record; then publication, one rename, and the report.
 *
 * Each step hands the next an immutable value. Whatever happens before publication (a refusal, a
 * failure, the process killed), what is published does not change.
 */
import { createHash } from 'node:crypto';
import { constants, copyFileSync, linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize } from 'node:v8';
import type { AstroIntegrationLogger } from 'astro';
import type { Config } from '../config.ts';
import { sourceFingerprint } from '../data/prepared.ts';
import { withDownloads, type PreparedData } from '../outputs/prepared-downloads.ts';
import { formatReport } from '../data/problems.ts';
import type { Changes } from '../listing/changes-schema.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import { pageCount } from '../listing/pagination.ts';
import { pageFile, pagePath, PUBLISHED } from '../listing/routes.ts';
import { changesJson, changesOf, summariseChanges } from '../outputs/changes.ts';
import { DOWNLOADS } from '../outputs/downloads.ts';
import { manifestJson, manifestOf, manifestPath, manifestSchema, type Manifest } from '../outputs/manifest.ts';
import { counted } from '../listing/format.ts';
import { formatBuildReport, PhaseClock, reportBuild, reportPagesWritten, writeBuildReport } from '../outputs/report.ts';
import { writeSitemaps } from '../outputs/sitemap.ts';
import { keepUnchangedFiles } from '../publish/file-times.ts';
import { refreshCopy } from '../publish/host-copies.ts';
import { linkOrCopy } from '../publish/links.ts';
import { clearRenderFolders, moveRendered, renderFolderFor } from '../publish/render-folder.ts';
import { cachedHostFiles, writeFiles } from './host-files.ts';
import { acquireBuildLock, type BuildLock } from '../publish/lock.ts';
import { readRecord, writeRecord, type BuildRecord } from '../publish/record.ts';
import { flaggedPages, keptPages, pagesIn, type RenderSet } from '../publish/reuse.ts';
import { startJsonPages, type JsonPagesRun } from '../outputs/json-pages.ts';
import { filesIn, siteFilesOf } from '../publish/site-files.ts';
import { killPoint } from '../publish/kill-points.ts';
import { discardBuild, keptIsTrusted, linkSiteForHostFiles, newBuildFolder, notALink, publish, publishedBuild, pruneBuilds, recycledBuildFolder, storeDirOf, trustAgain, type BuildFolder } from '../publish/store.ts';
import { VERCEL_OUTPUT_DIR } from '../serve/hosts/vercel.ts';
import { startDataSide } from './data-side.ts';
import { Refusal } from './refusals.ts';

/** Vercel's copy of the site in a build's deploy folder. */
const VERCEL_STATIC = join(VERCEL_OUTPUT_DIR, 'static');

/** Prepared data is kept under Astro's cache folder, shared by every site, named by content. */
export const PREPARED_DIR = 'listing-data';

/** The published build a new one replaces: its folders, manifest and record. */
interface Published {
  folder: BuildFolder;
  manifest: Manifest;
  record: BuildRecord | undefined;
}

/** A build under way, from its start to its publication. */
export interface StartedBuild {
  config: Config;
  store: string;
  folder: BuildFolder;
  published: Published | undefined;
  fingerprint: string;
  /** False when an earlier build was killed part way: then no kept copy is taken on trust. */
  trusted: boolean;
  lock: BuildLock;
  clock: PhaseClock;
  /** The records file the pages read (a link to the preparation's, so pruning cannot take it away). */
  recordsFile: string;
  /** Which pages Astro renders (written by the data side). */
  renderFile: string;
  /** Where Astro renders: the build's site, or a folder in the project's cache where the store is on another file system (see render-folder.ts). */
  renderDir: string;
  /** The data, once ready; rejected with a `Refusal` when it is bad or would shrink the site too much. */
  data: Promise<ReadyData>;
  status: { published: boolean };
}

/** The data side's result, with the downloads under way. */
interface ReadyData {
  prepared: PreparedData;
  rows: Changes['rows'];
  keys: PageKeys;
  rendered: { json: number; html: number };
  /** Site paths of a recycled folder's pages removed or linked again before Astro rendered. */
  touched: ReadonlySet<string>;
}

function readPublished(store: string, outDir: string): Published | undefined {
  const folder = publishedBuild(store, outDir);
  if (!folder) return undefined;
  try {
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath(folder.siteDir), 'utf8')));
    return { folder, manifest, record: readRecord(folder.dir) };
  } catch {
    return undefined;
  }
}

/** Step 1. */
export async function startBuild(config: Config, root: string, cacheDir: string, logger: AstroIntegrationLogger): Promise<StartedBuild> {
  const notPublishable = notALink(config.outDir, 'OUT_DIR') ?? notALink(config.deployDir, 'DEPLOY_DIR');
  if (notPublishable !== undefined) throw new Refusal(notPublishable);
  const store = storeDirOf(config.outDir);
  // One build at a time in a checkout, whatever site it publishes: Astro writes its bundles into
  // the project's own folders.
  const lock = await acquireBuildLock(cacheDir, (message) => logger.warn(message));
  const clock = new PhaseClock();
  // Folders left by builds killed part way are the marks of a build that never finished.
  const trusted = keptIsTrusted(store, pruneBuilds(store).unfinished);
  if (!trusted) logger.warn('An earlier build was stopped part way: this build checks everything again instead of reusing what was kept.');
  const published = readPublished(store, config.outDir);
  // The build before the published one gives its folder, pages in place, where everything is
  // trusted; else the folder is new: a recycled folder with no pages, made ready the same way.
  const folder = (trusted && published ? recycledBuildFolder(store, VERCEL_STATIC) : undefined) ?? newBuildFolder(store);
  clearRenderFolders(cacheDir);
  const renderDir = renderFolderFor(store, folder.siteDir, root, cacheDir, folder.id);
  const addresses = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl };
  const fingerprint = createHash('sha256').update(sourceFingerprint(root, ['src', 'astro.config.mjs'])).update(JSON.stringify(addresses)).digest('hex');
  const record = trusted ? published?.record : undefined;
  const renderFile = join(folder.dir, 'render.v8');
  const recordsFile = join(folder.dir, 'records.v8');
  const run = startDataSide({
    root,
    preparedDir: join(cacheDir, PREPARED_DIR),
    dataFile: config.dataFile,
    addresses,
    outDir: config.outDir,
    allowShrink: config.allowShrink,
    trusted,
    renderFile,
    siteDir: folder.siteDir,
    pages: { oldPages: pagesIn(folder.siteDir), publishedRendered: published?.record?.rendered },
    ...(published && {
      published: {
        dir: published.folder.siteDir,
        dataSha256: published.manifest.data.sha256,
        assetsUrl: published.manifest.assetsUrl,
        ...(record && { dataKey: record.dataKey }),
        ...(record?.fingerprint === fingerprint && { keys: record.keys }),
      },
    }),
  });
  const downloads = run.records.then((prepared) => prepared && withDownloads(prepared, config.assetsUrl));
  const data = run.result.then(async (side): Promise<ReadyData> => {
    if (side.kind === 'problems') throw new Refusal(`Nothing was built; ${config.outDir}/ is unchanged. Fix these problems and build again:\n${formatReport(side.problems)}`);
    if (side.kind === 'refused') throw new Refusal(side.message);
    const prepared = await downloads;
    if (!prepared) throw new Error("the build's data thread ended without its records");
    for (const [name, seconds] of side.phases) clock.beside(name, seconds);
    linkOrCopy(prepared.recordsFile, recordsFile);
    return { prepared, rows: side.rows, keys: side.keys, rendered: side.rendered, touched: new Set(side.touched) };
  });
  // Awaited before the pages are rendered; if Astro fails before that, its error is the one to report.
  data.catch(() => undefined);
  return { config, store, folder, published, fingerprint, trusted, lock, clock, recordsFile, renderFile, renderDir, data, status: { published: false } };
}

/** What step 2 hands to step 3. */
export interface Rendering {
  data: ReadyData;
  render: RenderSet;
  /** The JSON pages, written on their own thread while Astro renders the HTML pages. */
  jsonPages: JsonPagesRun;
  progress: NodeJS.Timeout;
}

/** Step 2: the data (and a recycled folder's pages made this build's), awaited before Astro renders any page; the progress of the pages reported meanwhile. */
export async function awaitData(build: StartedBuild, logger: AstroIntegrationLogger): Promise<Rendering> {
  const data = await build.data;
  const render = deserialize(readFileSync(build.renderFile)) as RenderSet;
  build.clock.end('start');
  const reused = data.prepared.validated ? '' : ' (unchanged since an earlier build: not validated again)';
  const pages = pageCount(data.prepared.rows);
  logger.info(
    `${build.config.dataFile}: ${counted(data.prepared.rows)} rows valid${reused}; rendering ${counted(data.rendered.json)} of ${counted(pages)} JSON and ${counted(data.rendered.html + 1)} of ${counted(pages)} HTML pages`,
  );
  const jsonPages = startJsonPages({
    siteDir: build.folder.siteDir,
    recordsFile: build.recordsFile,
    count: data.prepared.rows,
    pages: flaggedPages(render.json),
    addresses: { baseUrl: build.config.baseUrl, assetsUrl: build.config.assetsUrl },
  });
  return { data, render, jsonPages, progress: reportPagesWritten(build.renderDir, jsonPages.written, data.rendered) };
}

/** Links site path `name` from `fromSite` into `toSite`, if it is there. */
function linkedFrom(fromSite: string, name: string, toSite: string): boolean {
  try {
    linkSync(join(fromSite, name), join(toSite, name));
    return true;
  } catch {
    return false;
  }
}

/** The sizes of `files` in `dir`, added up. */
function bytesOf(dir: string, files: readonly string[]): number {
  let bytes = 0;
  for (const path of files) bytes += statSync(join(dir, path)).size;
  return bytes;
}

/** Step 3. */
export async function finishBuild(build: StartedBuild, { data, render, jsonPages, progress }: Rendering): Promise<void> {
  const { config, folder, published, clock } = build;
  const { prepared } = data;
  const site = folder.siteDir;
  const pages = pageCount(prepared.rows);
  clock.end('pages (Astro)');
  // Written on their own thread while Astro rendered the HTML pages: usually done by now.
  const jsonHashes = await jsonPages.hashes;
  clearInterval(progress);
  clock.end('JSON pages');
  killPoint('pages rendered');
  await moveRendered(build.renderDir, site);

  // Kept pages are the published files, made so before Astro rendered (see reuse.ts).
  const linked = keptPages(render);
  rmSync(build.renderFile);
  await writeSitemaps(site, config.baseUrl, prepared.rows);
  clock.end('kept pages');

  // Written by a worker thread while Astro made the pages (see src/data/prepared.ts): usually done by now.
  const downloads = await prepared.downloads;
  for (const path of DOWNLOADS) {
    const name = path.slice(1);
    // A download with the published one's bytes is the published file, on the site's own disk
    // whatever disk the cache is on. A changed one is copied from the preparation, never linked:
    // a published file shares no bytes with a cache, so a damaged cache cannot reach a site.
    if (published && published.manifest.files[path] === downloads[path] && linkedFrom(published.folder.siteDir, name, site)) continue;
    copyFileSync(join(prepared.downloadsDir, name), join(site, name), constants.COPYFILE_FICLONE);
  }
  clock.end('downloads');

  // Host configurations name the site where it is published, not the build's folder.
  const hostInput = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl, count: prepared.rows, siteDir: resolve(config.outDir) };
  const hostFiles = await cachedHostFiles(build.store, { fingerprint: build.fingerprint, input: hostInput, deployDir: resolve(config.deployDir), trusted: build.trusted });
  const siteHostFiles = hostFiles.filter((file) => file.place === 'site');
  writeFiles(site, siteHostFiles);
  writeFiles(folder.deployDir, hostFiles.filter((file) => file.place === 'deploy'));
  linkSiteForHostFiles(folder, config.outDir, config.deployDir);
  clock.end('host configs');

  const files = siteFilesOf(site, pages);
  // A download whose hash the published manifest lists is compared by hash, not read (hundreds of MB at 1M rows).
  const knownDownloads = new Map(
    DOWNLOADS.flatMap((path) => {
      const hash = published?.manifest.files[path];
      return hash === undefined ? [] : [[path.slice(1), hash === downloads[path]] as const];
    }),
  );
  const { changed, kept } = await keepUnchangedFiles(published?.folder.siteDir, site, files, linked, knownDownloads);
  clock.end('keep unchanged files');

  const manifest = manifestOf(site, {
    count: prepared.rows,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    data: { file: prepared.dataFile, sha256: prepared.dataSha256 },
    downloads,
    // A page file that is the published one has its published hash; one written now, the hash taken as it was written.
    knownPageHash: (page) => (published && !changed.has(pageFile(page)) ? published.manifest.files[pagePath(page)] : undefined) ?? jsonHashes.get(page),
  });
  writeFileSync(manifestPath(site), manifestJson(manifest));
  const newFiles = new Set(files);
  const publishedFiles = published ? (published.record?.files ?? filesIn(published.folder.siteDir)) : [];
  const changes = changesOf(published, {
    manifest,
    rows: data.rows,
    changedFiles: changed,
    removedFiles: publishedFiles.filter((path) => !newFiles.has(path)),
    notServed: new Set(siteHostFiles.map((file) => file.path)),
  });
  writeFileSync(join(site, PUBLISHED.changes.slice(1)), changesJson(changes));
  // Both describe this build (its time, its changes): new files every time.
  for (const path of [PUBLISHED.manifest, PUBLISHED.changes]) files.push(path.slice(1));
  clock.end('changes');

  const copy = join(folder.deployDir, VERCEL_STATIC);
  await refreshCopy(site, [...data.touched, ...files.filter((path) => !linked.has(path))], copy);
  clock.end('Vercel copy');

  const bytes = bytesOf(site, files);
  killPoint('site complete');
  writeRecord(folder.dir, { fingerprint: build.fingerprint, dataKey: prepared.key, keys: data.keys, rendered: render, files, bytes });
  killPoint('record written');
  if (build.lock.lost()) throw new Refusal(`Another process took this build's lock while it ran: nothing was published; ${config.outDir}/ is unchanged. Build again.`);
  publish(build.store, folder, config.outDir, config.deployDir);
  killPoint('links made');
  build.status.published = true;
  if (!build.trusted) trustAgain(build.store);
  pruneBuilds(build.store);
  await build.lock.release();
  clock.end('publish');

  const report = reportBuild(config.outDir, config.dataFile, prepared.rows, clock, {
    files: files.length,
    bytes,
    changes: summariseChanges(changes),
    unchangedFiles: kept,
    dataValidated: prepared.validated,
  });
  writeBuildReport(config.reportFile, report);
  console.error(formatBuildReport(report));
}

/** A build that did not publish: its folder goes (the lock goes with the process). */
export function abandonBuild(build: StartedBuild): void {
  if (build.status.published) return;
  try {
    if (build.renderDir !== build.folder.siteDir) rmSync(build.renderDir, { recursive: true, force: true });
    discardBuild(build.folder);
  } catch {
    // A read-only or vanished store: the next build that can write there removes the folder
    // (see pruneBuilds), as it does a killed build's.
  }
}
