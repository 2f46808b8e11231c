/**
 * A build's steps, as the integration's hooks call them:
 *
 * 1. `startBuild` (before Astro loads under `npm run build`, else at astro:config:setup: see
 *    session.ts): opens the build store (the build lock, what is published, see
 *    src/publish/store.ts), makes the new build's folder, and starts the data side on a worker
 *    thread (data-side.ts) while Astro loads, starts and bundles.
 * 2. `awaitData` (before Astro renders any page): the data, or the build stops with its report.
 * 3. `finishBuild` (astro:build:done): sitemaps, downloads, host files, file times, manifest,
 *    changes, the record; then publication, one rename. It returns once the build
 *    is published, and only then: that is how the integration knows.
 * 4. `closeBuild`: after publication, older builds pruned, the lock released, and the report.
 *
 * Each step hands the next an immutable value. Whatever happens before publication (a refusal, a
 * failure, the process killed), what is published does not change.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import type { Config } from '../config.ts';
import { formatReport } from '../data/problems.ts';
import { counted } from '../listing/format.ts';
import { LANGUAGES, type Language } from '../listing/languages.ts';
import { pageCount } from '../listing/pagination.ts';
import { summariseChanges } from '../outputs/changes.ts';
import { VERCEL_STATIC_DIR } from '../serve/hosts/vercel.ts';
import { startListingPages, type ListingPagesRun } from '../outputs/listing-pages.ts';
import { withDownloads } from '../outputs/downloads-cache.ts';
import { PhaseClock, reportBuild, reportPagesWritten } from '../outputs/report.ts';
import { baselineOf, readPublishedBuild, UnreadableManifest, type PublishedBuild } from '../publish/baseline.ts';
import { linkOrCopy } from '../files/links.ts';
import { sourceFingerprint } from '../files/source-fingerprint.ts';
import { settingsOf, stampPublished } from '../publish/current.ts';
import { acquireBuildLocks } from '../publish/lock.ts';
import { clearRenderFolders, renderFolderFor } from '../publish/render-folder.ts';
import type { RenderSet } from '../publish/record.ts';
import { discardBuild, newBuildFolder, notALink, pruneBuilds, recycledBuildFolder, storeDirOf } from '../publish/store.ts';
import { startDataSide } from './data-side.ts';
import { startPagesSide } from './pages-side.ts';
import type { ListingPagesOfBuild, NewFolder, Publication, ReadyData, Rendering, StartedBuild } from './hand-offs.ts';
import {
  buildDescribed,
  downloadsPlaced,
  hostFilesPlaced,
  pagesWritten,
  published,
  recordWritten,
  sitemapsPlaced,
  unchangedFilesKept,
} from './finish-steps.ts';
import { machineFault } from './faults.ts';
import { Refusal, unchangedSite, unknownPublishedRows } from './refusals.ts';

/** Threads at work from a build's start until Astro renders: Astro's start on the main thread, the data side on its own. */
const THREADS_BUSY_BEFORE_PAGES = 2;

/** Prepared data is cached under Astro's cache folder, shared by every site, named by content. */
export const PREPARATIONS_DIR = 'listing-data';

/**
 * The published build; one whose manifest cannot be read stops the build, unless ALLOW_SHRINK=1
 * says that rows may go: then the build is a first build (every page rendered), and says so.
 */
function publishedOrRefuse(store: string, config: Config, warn: (message: string) => void): PublishedBuild | undefined {
  try {
    return readPublishedBuild(store, config.outDir);
  } catch (error) {
    if (!(error instanceof UnreadableManifest)) throw error;
    if (config.allowShrink) {
      warn(`${error.message}. ALLOW_SHRINK=1: this build replaces the published site as a first build would, without comparing with it.`);
      return undefined;
    }
    throw new Refusal(`${error.message}.\n${unknownPublishedRows(config.outDir)}`);
  }
}

/**
 * The new build's folder: the build before the published one gives its folder, pages in place,
 * where there is one; else the folder is new: a recycled folder with no pages, made ready the same
 * way (see src/publish/reuse.ts).
 */
function newFolder(store: string, published: PublishedBuild | undefined, root: string, cacheDir: string): NewFolder {
  const folder = (published ? recycledBuildFolder(store, VERCEL_STATIC_DIR) : undefined) ?? newBuildFolder(store, VERCEL_STATIC_DIR);
  clearRenderFolders(cacheDir);
  const renderDir = renderFolderFor(folder, { store, projectRoot: root, cacheDir });
  return {
    ...folder,
    renderDir,
    recordsFile: join(folder.dir, 'records.v8'),
    summaryFile: join(folder.dir, 'summary.v8'),
    renderFile: join(folder.dir, 'render.v8'),
  };
}

/**
 * Starts the data side on its worker thread; the data once it is ready, with the pages to write
 * decided, the build's folder given the others, and the downloads under way.
 */
function startData(
  build: Pick<StartedBuild, 'config' | 'folder' | 'clock' | 'baseline'>,
  root: string,
  cacheDir: string,
): Pick<StartedBuild, 'data' | 'stopData' | 'beginDownloads'> {
  const { config, folder, clock, baseline } = build;
  const run = startDataSide({
    root,
    preparationsDir: join(cacheDir, PREPARATIONS_DIR),
    dataFile: config.dataFile,
    addresses: { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl },
    outDir: config.outDir,
    allowShrink: config.allowShrink,
    baseline,
  });
  let astroStarted: () => void = () => undefined;
  const astroStart = new Promise<void>((started) => (astroStarted = started));
  // Astro's start keeps the main thread busy and the data side its own thread. Where more cores
  // than that are free, the downloads' thread begins as soon as the records are prepared. On two,
  // it waits for both: beside Astro's start it slows the start more than it saves, and beside the
  // data side their memory adds up (a million rows' worth each). Then it runs beside the pages'
  // thread, which links or removes a file a page: the kernel's work more than a core's.
  const downloadsMayBegin =
    availableParallelism() > THREADS_BUSY_BEFORE_PAGES
      ? Promise.resolve()
      : Promise.all([
          // The data side's failure is reported where `data` is awaited.
          run.result.catch(() => undefined),
          astroStart,
        ]).then(
          // No downloads for data the build refused or failed on: the build stops (a promise that never settles holds nothing).
          ([side]) => (side?.kind === 'ready' ? undefined : new Promise<void>(() => undefined)),
        );
  const withItsDownloads = run.records.then(
    (prepared) => prepared && withDownloads(prepared.preparation, config.assetsUrl, prepared.downloads, downloadsMayBegin),
  );
  let stopped = false;
  let pagesSide: ReturnType<typeof startPagesSide> | undefined;
  const data = run.result.then(async (side): Promise<ReadyData> => {
    if (side.kind === 'problems')
      throw new Refusal(`${unchangedSite(config.outDir)} Fix these problems and build again:\n${formatReport(side.problems)}`);
    if (side.kind === 'refused') throw new Refusal(side.message);
    if (stopped) throw new Error('the build stopped before its pages were decided');
    pagesSide = startPagesSide({
      siteDir: folder.siteDir,
      renderFile: folder.renderFile,
      pages: pageCount(side.preparation.rows),
      keys: side.keys,
      baseline: baseline && { siteDir: baseline.siteDir, keys: baseline.keys, rendered: baseline.rendered },
    });
    const [preparation, pages] = await Promise.all([withItsDownloads, pagesSide.answer]);
    if (!preparation) throw new Error("the build's data thread ended without its records");
    for (const [name, seconds] of side.phases) clock.beside(name, seconds);
    clock.beside('pages taken', pages.seconds);
    linkOrCopy(preparation.recordsFile, folder.recordsFile);
    linkOrCopy(preparation.summaryFile, folder.summaryFile);
    return { ...side, preparation, toRender: pages.toRender, takenBytes: pages.takenBytes };
  });
  // Awaited before the pages are rendered; if Astro fails before that, its error is the one to
  // report, but for a refusal under `npm run build`, said as soon as it comes (index.ts).
  data.catch(() => undefined);
  const stopData = async () => {
    stopped = true;
    await Promise.all([run.stop(), pagesSide?.stop()]);
  };
  return { data, stopData, beginDownloads: astroStarted };
}

/**
 * Step 1: each step above, in order; `warn` says what the maintainer should know meanwhile (a wait
 * for another build's lock). Refuses where OUT_DIR or DEPLOY_DIR cannot become the links a build
 * publishes through. The lock is let go again if a step after it fails: a process that goes on
 * (a session begun again, see session.ts) must not keep it.
 */
export async function startBuild(config: Config, root: string, cacheDir: string, warn: (message: string) => void): Promise<StartedBuild> {
  const notPublishable = notALink(config.outDir, 'OUT_DIR') ?? notALink(config.deployDir, 'DEPLOY_DIR');
  if (notPublishable !== undefined) throw new Refusal(notPublishable);
  // One build at a time in a checkout and one at a time for a site (acquireBuildLocks says why).
  const dir = storeDirOf(config.outDir);
  const lock = await acquireBuildLocks(root, dir, config.outDir, warn);
  try {
    // The build store of the site at OUT_DIR: what earlier builds left removed, the published build read.
    const store = { dir, lock };
    pruneBuilds(store.dir);
    const published = publishedOrRefuse(store.dir, config, warn);
    const clock = new PhaseClock();
    const folder = newFolder(store.dir, published, root, cacheDir);
    // The code (the sources under `src/`, astro.config.mjs, the lock file) and the addresses: pages are taken only from a build of the same.
    const fingerprint = createHash('sha256')
      .update(sourceFingerprint(root, 'pages'))
      .update(JSON.stringify({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl }))
      .digest('hex');
    const started = {
      config,
      store,
      folder,
      fingerprint,
      root,
      settings: settingsOf(config, root),
      baseline: baselineOf(published, fingerprint),
      clock,
      warn,
    };
    return { ...started, ...startData(started, root, cacheDir) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Step 2: the data (and a recycled folder's pages made this build's), awaited before Astro renders
 * any page; the listing's pages to write, begun once Astro has rendered their frames; their
 * progress reported meanwhile.
 */
export async function awaitData(build: StartedBuild): Promise<Rendering> {
  const { config, folder } = build;
  build.beginDownloads();
  const data = await build.data;
  const render = deserialize(readFileSync(folder.renderFile)) as RenderSet;
  build.clock.end('start');
  const reused = data.preparation.validated ? '' : ' (unchanged since an earlier build: not validated again)';
  const pageCountNow = pageCount(data.preparation.rows);
  // On standard error, as the progress lines and the report: `npm run build` shows Astro's warnings alone.
  console.error(
    `${config.dataFile}: ${counted(data.preparation.rows)} rows valid${reused}; rendering ${counted(data.toRender.json)} of ${counted(pageCountNow)} JSON and ${counted(data.toRender.html)} of ${counted(pageCountNow * LANGUAGES.length)} HTML pages`,
  );
  const pages = listingPagesOf(build, data, render);
  return { data, render, pages, progress: reportPagesWritten(pages.progress, pageCountNow) };
}

/** The listing's pages of `build`: which to write, from what, and where the published ones are. */
function listingPagesOf(build: StartedBuild, data: ReadyData, render: RenderSet): ListingPagesOfBuild {
  const { config, folder, baseline } = build;
  let run: ListingPagesRun | undefined;
  let begin: (frames: Record<Language, string>) => void = () => undefined;
  const written = new Promise<ListingPagesRun>((started) => {
    begin = (frames) => {
      run = startListingPages({
        siteDir: folder.siteDir,
        recordsFile: folder.recordsFile,
        summaryFile: folder.summaryFile,
        addresses: { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl },
        flags: render,
        frames,
        // Where no keys were made before (nothing to take pages from), every page is written: its keys are made as it is.
        makeKeys: data.keys === undefined,
        // The store is one folder on one file system: a page may be the published file.
        ...(baseline && { published: { siteDir: baseline.siteDir, sha256: baseline.hashes } }),
      });
      if (run.threads > 0)
        console.error(`Listing pages: written from Astro's frames on ${run.threads === 1 ? 'one thread' : `${run.threads} threads`}`);
      started(run);
    };
  }).then((started) => started.written);
  // Awaited when the build finishes; a failure is that step's to report.
  written.catch(() => undefined);
  return {
    // Astro's phase ends with its frames: the writers' time is the next phase's (the rest Astro renders meanwhile is small).
    begin: (frames) => {
      build.clock.end('Astro');
      begin(frames);
    },
    written,
    progress: () => run?.progress() ?? 0,
    stop: () => run?.stop(),
    checked: [],
  };
}

/** Step 3: each step of the finished site, timed under its name; returns once the build is published. */
export async function finishBuild(build: StartedBuild, rendering: Rendering): Promise<Publication> {
  const step = async <T>(name: string, work: () => T | Promise<T>): Promise<T> => {
    const value = await work();
    build.clock.end(name);
    return value;
  };
  const pages = await step('listing pages', () => pagesWritten(build, rendering));
  await step('kept pages', () => sitemapsPlaced(build, rendering));
  const { downloads, placed } = await step('downloads', () => downloadsPlaced(build, rendering.data.preparation, pages));
  const hostFiles = await step('host configs', () => hostFilesPlaced(build, rendering.data.preparation.rows));
  const compared = await step('keep unchanged files', () => unchangedFilesKept(build, rendering, { pages, downloads, hostFiles }));
  const described = await step('changes', () => buildDescribed(build, rendering, compared));
  const bytes = recordWritten(build, rendering, pages, placed, compared);
  published(build);
  return {
    buildId: described.manifest.buildId,
    changedBy: described.manifest.changedBy,
    rows: rendering.data.preparation.rows,
    rendered: rendering.data.toRender,
    files: compared.files.length,
    bytes,
    changes: summariseChanges(described.changes),
    unchangedFiles: compared.unchanged,
    dataValidated: rendering.data.preparation.validated,
    dataSha256: rendering.data.preparation.dataSha256,
  };
}

/**
 * Step 4, once the build is published: older builds go, its stamp is left (the next build with the
 * same inputs has nothing to build), the lock is released, and the report.
 */
export async function closeBuild(build: StartedBuild, publication: Publication): Promise<void> {
  const { config, store, clock } = build;
  const { dataSha256, ...outcome } = publication;
  pruneBuilds(store.dir);
  clock.end('publish');
  try {
    // A source saved while the build ran (and perhaps undone since) is code this build may not have
    // built with: no stamp then, and the next build builds in full.
    if (settingsOf(config, build.root) === build.settings)
      stampPublished(store.dir, build.folder, { settings: build.settings, dataSha256, ...outcome });
  } catch (error) {
    const fault = machineFault(error);
    if (fault === undefined) throw error;
    // The build is published whole; without its stamp the next build only does the work again.
    build.warn(
      `The published build's stamp could not be written (${fault.code}): the next build builds again in full, even with nothing changed.`,
    );
  } finally {
    store.lock.release();
  }
  clock.end('stamp');

  reportBuild(clock, { ...outcome, outDir: config.outDir, dataFile: config.dataFile, built: true }, config);
}

/** A build that did not publish: its folder goes (the lock goes with the process). */
export function abandonBuild(build: StartedBuild): void {
  const { folder } = build;
  try {
    if (folder.renderDir !== folder.siteDir) rmSync(folder.renderDir, { recursive: true, force: true });
    discardBuild(folder);
  } catch {
    // A read-only or vanished store: the next build that can write there removes the folder
    // (see pruneBuilds), as it does a killed build's.
  }
}
