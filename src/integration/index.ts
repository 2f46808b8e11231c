/**
 * The listing as an Astro integration: the one build path of `npm run build`, `astro build` and
 * `astro dev`. The data is validated (every problem reported) and prepared once per distinct file
 * (`data-cache.ts`): in a build on a worker thread while Astro starts and bundles, awaited before
 * any page is rendered (`build-data.ts`); the pages read the prepared records through the
 * virtual module `virtual:listing/dataset`. A build renders into a staging folder beside the site
 * and, in `astro:build:done`, adds the downloads, manifest, host configurations and change report,
 * then publishes atomically: a failed or refused build leaves the published site as it was. In
 * `astro dev` the same request handler as the preview server answers the listing's URLs, and an
 * edited data file is prepared again and shown without a restart (its problems, if any, beside the
 * last good data).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import type { Plugin, ViteDevServer } from 'vite';
import { counted, formatBuildReport, PhaseClock, reportBuild, reportPagesWritten, writeBuildReport } from '../outputs/report.ts';
import { startBuildData } from './data-side.ts';
import { changesJson, changesOf, publishedSiteOf, readPreviousSite, summariseChanges, type Changes, type PreviousSite } from '../outputs/changes.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DOWNLOADS, prepareData, sourceFingerprint, withDownloads, type PreparedData } from '../data/prepared.ts';
import { serveListingInDev } from '../serve/dev-server.ts';
import { manifestJson, manifestOf, manifestPath } from '../outputs/downloads.ts';
import { hostFiles, type HostFile, type HostInput } from '../serve/hosts/index.ts';
import { VERCEL_OUTPUT_DIR } from '../serve/hosts/vercel.ts';
import { pageCount } from '../listing/pagination.ts';
import { clearSpare, pruneSiteCaches, readBuildRecord, siteFilesOf, writeBuildRecord, type BuildRecord } from '../publish/reuse.ts';
import { formatReport } from '../data/problems.ts';
import { createStagingDir, discard, keepUnchangedTimes, linkFile, linkTree, publish, siteBytes, spareDirOf, writeFiles } from '../publish/publish.ts';
import { pageFile, pagePath, PUBLISHED } from '../listing/routes.ts';

const VIRTUAL_ID = 'virtual:listing/dataset';
const PAGE_KEYS_FILE = 'page-keys.v8';
const RESOLVED_VIRTUAL_ID = `\0${VIRTUAL_ID}`;

/** Where prepared data is kept, under Astro's cache folder: shared by every site, named by content. */
const PREPARED_DIR = 'listing-data';
/** Astro's incremental build cache of one published site, so that two sites never share one. */
const BUILDS_DIR = 'listing-builds';

/** Astro's incremental build cache for the site published at `outDir`. */
export function buildCacheDir(cacheDir: string, outDir: string): string {
  return join(cacheDir, BUILDS_DIR, createHash('sha256').update(resolve(outDir)).digest('hex').slice(0, 16));
}

/** The prepared data the pages read, and (in dev) the problems of the file on disk. */
interface Current {
  prepared: PreparedData | undefined;
  /**
   * The records file the pages are told to read. A build names one fixed path per site (a link to
   * the prepared file): Astro hashes the pages' modules, this one included, to decide whether a
   * page's code changed, so the data must reach them through the cache keys, not the module text.
   */
  recordsFile: string | undefined;
  /** The build's page keys (V8-serialised PageKeys), also at a fixed path; none in dev. */
  pageKeysFile: string | undefined;
  problemReport: string | null;
}

function datasetModule(config: Config, current: Current): string {
  return [
    `export const addresses = ${JSON.stringify({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl })};`,
    `export const recordsFile = ${JSON.stringify(current.recordsFile ?? null)};`,
    `export const pageKeysFile = ${JSON.stringify(current.pageKeysFile ?? null)};`,
    `export const problemReport = ${JSON.stringify(current.problemReport)};`,
  ].join('\n');
}

/**
 * The virtual module, and in a build the wait for the data: Vite's `buildApp` hooks of order
 * "post" run after the bundles and, ours being an ordinary plugin, before Astro's (an "enforce:
 * post" one), which renders the pages.
 */
function datasetPlugin(config: Config, current: Current, beforePages?: () => Promise<unknown>): Plugin {
  return {
    name: 'listing:dataset',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : undefined),
    load: (id) => (id === RESOLVED_VIRTUAL_ID ? datasetModule(config, current) : undefined),
    ...(beforePages && {
      buildApp: {
        order: 'post' as const,
        handler: async () => {
          await beforePages();
        },
      },
    }),
  };
}

/** A build under way: where it renders, what it replaces, and what it found so far. */
interface BuildState {
  config: Config;
  prepared: PreparedData;
  staging: string;
  previous: PreviousSite | undefined;
  rows: Changes['rows'];
  clock: PhaseClock;
  progress?: NodeJS.Timeout;
  status: BuildStatus;
  /** Astro's incremental cache of this site, where the page keys and the build record live too. */
  siteCacheDir: string;
  /** What this build leaves for the next one, once published (with the site's files). */
  record: Omit<BuildRecord, 'id' | 'files' | 'writtenFiles' | 'removedFiles' | 'bytes'>;
  /** What the last published build left. */
  previousRecord: BuildRecord | undefined;
  /** Site paths of the staging folder's pages that are the published files themselves (hard links): their key did not change. */
  linkedPages: ReadonlySet<string>;
}

/** Reads the configuration; an invalid one stops Astro with every bad variable named. */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(error.message);
    throw error;
  }
}

/** A build started: its staging folder made and its data side under way on a worker thread (see build-data.ts). */
interface StartedBuild {
  staging: string;
  /** The build once its data is ready; rejected (the reason already on standard error) when the data is refused. */
  ready: Promise<BuildState>;
  status: BuildStatus;
}

interface BuildStatus {
  /** The build stopped on purpose (bad data, too many rows gone) and has said so itself. */
  refused: boolean;
  published: boolean;
}

/**
 * Starts a build: what it needs of the published site and of the last build, its staging folder,
 * and its data side on a worker thread, which runs while Astro starts and bundles. The downloads
 * start as soon as the records are prepared.
 */
function startBuild(config: Config, root: string, cacheDir: string, current: Current, logger: AstroIntegrationLogger): StartedBuild {
  const clock = new PhaseClock();
  const previous = readPreviousSite(config.outDir);
  const site = buildCacheDir(cacheDir, config.outDir);
  const previousRecord = readBuildRecord(site);
  mkdirSync(site, { recursive: true });
  pruneSiteCaches(dirname(site), site);
  const addresses = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl };
  const fingerprint = createHash('sha256').update(sourceFingerprint(root, ['src', 'astro.config.mjs'])).update(JSON.stringify(addresses)).digest('hex');
  // The last published build, where the same code and addresses made it: its keys and pages may be taken.
  const sameCode = previousRecord?.fingerprint === fingerprint ? previousRecord : undefined;
  // Astro skips pages only with its own cache of the last build; `--force` renders every page.
  const astroWillSkip = existsSync(join(site, 'incremental-build.json')) && !process.argv.includes('--force');
  const reusable = previous && astroWillSkip ? sameCode : undefined;
  const { dir: staging, fromSpare } = createStagingDir(config.outDir, reusable?.id);
  // Before Astro writes its assets there: what the spare holds besides pages goes now.
  if (reusable && fromSpare) clearSpare(staging, reusable);
  const preparedDir = join(cacheDir, PREPARED_DIR);
  const recordsFile = join(site, 'records.v8');
  const pageKeysFile = join(site, PAGE_KEYS_FILE);
  current.recordsFile = recordsFile;
  current.pageKeysFile = pageKeysFile;
  const run = startBuildData({
    root,
    preparedDir,
    dataFile: config.dataFile,
    addresses,
    outDir: config.outDir,
    allowShrink: config.allowShrink,
    ...(previous && { published: publishedSiteOf(previous) }),
    ...(previousRecord && previous && { publishedDataKey: previousRecord.dataKey }),
    ...(sameCode && { sameCode: { dataKey: sameCode.dataKey, keys: sameCode.keys, writtenFiles: sameCode.writtenFiles } }),
    reuse: !reusable ? 'none' : fromSpare ? 'spare' : 'link',
    staging,
    pageKeysFile,
  });
  const withTheirDownloads = run.records.then((prepared) => prepared && withDownloads(prepared, config.assetsUrl));
  const status: BuildStatus = { refused: false, published: false };
  // Said as soon as the data side finds it, while Vite may still be bundling.
  const refuse: (report: string) => never = (report) => {
    status.refused = true;
    console.error(report);
    throw new Error(`Nothing was built; ${config.outDir}/ is unchanged.`);
  };
  const ready = run.result.then(async (data): Promise<BuildState> => {
    if (data.kind === 'problems') refuse(formatReport(data.problems));
    if (data.kind !== 'ready') refuse(data.message);
    // The records were announced before the data side was done.
    const prepared = await withTheirDownloads;
    if (!prepared) throw new Error("the build's data thread ended without its records");
    for (const [name, seconds] of data.phases) clock.beside(name, seconds);
    const reused = prepared.validated ? '' : ' (unchanged since an earlier build: not validated again)';
    logger.info(`${config.dataFile}: ${counted(prepared.rows)} rows valid${reused}, building ${counted(pageCount(prepared.rows))} pages`);
    current.prepared = prepared;
    rmSync(recordsFile, { force: true });
    linkFile(prepared.recordsFile, recordsFile);
    return {
      config,
      prepared,
      staging,
      previous,
      rows: data.rows,
      clock,
      status,
      siteCacheDir: site,
      record: { site: resolve(config.outDir), fingerprint, dataKey: prepared.key, keys: data.keys },
      previousRecord,
      linkedPages: data.linkedPages,
    };
  });
  // Awaited before the pages are rendered; if Astro fails before that, its error is the one to report.
  ready.catch(() => undefined);
  return { staging, ready, status };
}

/** Astro is about to render the pages: the data is awaited, and its start (bundle and data side by side) ends. */
async function renderingPages(started: StartedBuild): Promise<void> {
  const build = await started.ready;
  build.clock.end('start');
  const pages = pageCount(build.prepared.rows);
  // Linked pages are all JSON or HTML pages: the others are HTML.
  let keptJson = 0;
  for (let page = 1; page <= pages; page += 1) if (build.linkedPages.has(pageFile(page))) keptJson += 1;
  build.progress = reportPagesWritten(build.staging, pages, { json: keptJson, html: build.linkedPages.size - keptJson });
}

const HOST_FILES_CACHE = 'host-files.json';

/**
 * The host configurations, generated (bundling the edge functions) only when what they are made
 * from changed: the listing's size and addresses, the folders, the code.
 */
async function cachedHostFiles(siteCacheDir: string, fingerprint: string, input: HostInput, deployDir: string): Promise<HostFile[]> {
  const key = createHash('sha256').update(JSON.stringify([fingerprint, input, deployDir])).digest('hex');
  const file = join(siteCacheDir, HOST_FILES_CACHE);
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key: string; files: HostFile[] };
    if (cached.key === key) return cached.files;
  } catch {
    // No usable cache: generate them.
  }
  const files = await hostFiles(input, deployDir);
  writeFileSync(file, JSON.stringify({ key, files }));
  return files;
}

/**
 * The new site's files, and which of them are those of the published site (they get its
 * modification time) or not (`changed`): pages linked from it are, without reading them.
 */
function compareWithPublished(build: BuildState, downloads: Record<string, string>): { siteFiles: string[]; kept: number; changed: Set<string> } {
  const { config, staging, previous } = build;
  const siteFiles = siteFilesOf(staging, pageCount(build.prepared.rows));
  // A download whose hash the published manifest lists is compared by hash, not read (hundreds of MB at 1M rows).
  const knownDownloads = new Map(
    DOWNLOADS.flatMap((path) => {
      const published = previous?.manifest.files[path];
      return published === undefined ? [] : [[path.slice(1), published === downloads[path]] as const];
    }),
  );
  const { kept, changed } = keepUnchangedTimes(config.outDir, staging, build.linkedPages, siteFiles, knownDownloads);
  return { siteFiles, kept, changed };
}

/**
 * Publishes the staging folder and records the build for the next one; returns the site's size.
 * The site this replaces is kept as the next build's starting point when this build's record can
 * say how it differs from the published one: which files are gone and which were written.
 */
function publishAndRecord(build: BuildState, siteFiles: readonly string[]): number {
  const { config, staging, previous, previousRecord } = build;
  const previousFiles = previousRecord?.files;
  const published = new Set(siteFiles);
  const removedFiles = previous && previousFiles ? previousFiles.filter((path) => !published.has(path)) : undefined;
  const replaced = previous && previousFiles && previousRecord?.bytes !== undefined ? { dir: config.outDir, files: previousFiles, bytes: previousRecord.bytes } : undefined;
  const bytes = siteBytes(staging, siteFiles, build.linkedPages, replaced);
  const id = randomUUID();
  publish(staging, config.outDir, removedFiles ? spareDirOf(config.outDir, id) : undefined);
  build.status.published = true;
  writeBuildRecord(build.siteCacheDir, {
    ...build.record,
    id,
    files: siteFiles,
    writtenFiles: siteFiles.filter((path) => !build.linkedPages.has(path)),
    removedFiles: removedFiles ?? [],
    bytes,
  });
  return bytes;
}

/** Everything after Astro's pages: downloads, manifest, host configurations, change report, publication. */
async function finishBuild(build: BuildState): Promise<void> {
  const { config, prepared, staging, previous, clock } = build;
  clearInterval(build.progress);
  clock.end('pages (Astro)');
  // Written by a worker thread while Astro made the pages (see data-cache.ts): usually done by now.
  const downloads = await prepared.downloads;
  for (const path of DOWNLOADS) linkFile(join(prepared.downloadsDir, path.slice(1)), join(staging, path.slice(1)));
  clock.end('downloads');
  // Host configurations name the site where it will be published, not the staging folder.
  const hostInput = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl, count: prepared.rows, siteDir: resolve(config.outDir) };
  const files = await cachedHostFiles(build.siteCacheDir, build.record.fingerprint, hostInput, resolve(config.deployDir));
  writeFiles(staging, files.filter((file) => file.place === 'site'));
  writeFiles(config.deployDir, files.filter((file) => file.place === 'deploy'));
  clock.end('host configs');
  const { siteFiles, kept, changed } = compareWithPublished(build, downloads);
  clock.end('keep unchanged times');
  const manifest = manifestOf(staging, {
    count: prepared.rows,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    data: { file: prepared.dataFile, sha256: prepared.dataSha256 },
    downloads,
    // A page file whose bytes are those of the published one has its published hash.
    knownPageHash: (page) => (previous && !changed.has(pageFile(page)) ? previous.manifest.files[pagePath(page)] : undefined),
  });
  writeFileSync(manifestPath(staging), manifestJson(manifest));
  const changes = changesOf(previous, { manifest, rows: build.rows, changedFiles: changed });
  writeFileSync(join(staging, PUBLISHED.changes.slice(1)), changesJson(changes));
  // Both describe this build (its time, its changes): new files every time.
  for (const path of [PUBLISHED.manifest, PUBLISHED.changes]) {
    siteFiles.push(path.slice(1));
    changed.add(path.slice(1));
  }
  clock.end('changes');
  const bytes = publishAndRecord(build, siteFiles);
  clock.end('publish');
  // The mirror is that of the published site only when the last build recorded it.
  const previousFiles = build.previousRecord?.files;
  linkTree(config.outDir, join(config.deployDir, VERCEL_OUTPUT_DIR, 'static'), previous && previousFiles ? { changed, files: siteFiles, previousFiles } : undefined);
  clock.end('Vercel static links');
  const report = reportBuild(config.outDir, config.dataFile, prepared.rows, clock, {
    files: siteFiles.length,
    bytes,
    changes: summariseChanges(changes),
    unchangedFiles: kept,
    dataValidated: prepared.validated,
  });
  writeBuildReport(config.reportFile, report);
  console.error(formatBuildReport(report));
}

export default function listing(): AstroIntegration {
  let config: Config;
  let root: string;
  let preparedDir: string;
  const current: Current = { prepared: undefined, recordsFile: undefined, pageKeysFile: undefined, problemReport: null };
  let build: StartedBuild | undefined;

  /** Prepares the data file again (dev): the pages then show it, or its problems beside the last good data. */
  const refresh = async (logger: AstroIntegrationLogger): Promise<void> => {
    const preparation = await prepareData({
      root,
      cacheDir: preparedDir,
      dataFile: config.dataFile,
      assetsUrl: config.assetsUrl,
      // An edit of the data shown: its unchanged rows keep their records.
      ...(current.prepared && { since: current.prepared.key }),
    });
    if ('problems' in preparation) {
      current.problemReport = formatReport(preparation.problems);
      logger.error(`${current.problemReport}\n${current.prepared ? 'Showing the last good data until the file is fixed.' : 'No good data yet: the listing is empty until the file is fixed.'}`);
      return;
    }
    // Every file the dev server serves must be there before the pages show the new data.
    await preparation.data.downloads;
    current.prepared = preparation.data;
    current.recordsFile = preparation.data.recordsFile;
    current.problemReport = null;
    logger.info(`${config.dataFile}: ${counted(preparation.data.rows)} rows valid`);
  };

  return {
    name: 'listing',
    hooks: {
      'astro:config:setup': async ({ command, config: astroConfig, updateConfig, logger }) => {
        config = readConfig();
        root = fileURLToPath(astroConfig.root);
        const cacheDir = fileURLToPath(astroConfig.cacheDir);
        preparedDir = join(cacheDir, PREPARED_DIR);
        if (command === 'build') {
          const started = startBuild(config, root, cacheDir, current, logger);
          build = started;
          // A build that fails after this point leaves the published site as it was.
          process.once('exit', () => {
            if (started.status.published) return;
            discard(started.staging);
            if (!started.status.refused) console.error(`\nThe build failed; ${config.outDir}/ is unchanged.`);
          });
          updateConfig({
            outDir: pathToFileURL(`${started.staging}/`),
            // One incremental cache per published site: a page's cached copy belongs to one site.
            cacheDir: pathToFileURL(`${buildCacheDir(cacheDir, config.outDir)}/`),
            vite: { plugins: [datasetPlugin(config, current, () => renderingPages(started))], build: { emptyOutDir: false } },
          });
        } else if (command === 'dev') {
          await refresh(logger);
          // The origin sends no CORS headers and answers OPTIONS itself; so does the dev server.
          updateConfig({ vite: { plugins: [datasetPlugin(config, current)], server: { cors: false } } });
        } else {
          updateConfig({ vite: { plugins: [datasetPlugin(config, current)] } });
        }
      },
      'astro:server:setup': ({ server, logger }) => {
        serveListingInDev(server as unknown as ViteDevServer, {
          dataFile: resolve(config.dataFile),
          current: () => current.prepared,
          addresses: { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl },
          refresh: () => refresh(logger),
          virtualModuleId: RESOLVED_VIRTUAL_ID,
        });
      },
      'astro:build:done': async () => {
        // Settled before the pages were rendered (see datasetPlugin).
        if (build) await finishBuild(await build.ready);
      },
    },
  };
}
