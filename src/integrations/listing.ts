/**
 * The listing as an Astro integration: the one build path of `npm run build`, `astro build` and
 * `astro dev`. When Astro starts it validates the data (every problem reported) and prepares it
 * once per distinct file (`data-cache.ts`); the pages read the prepared records through the
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
import { serialize } from 'node:v8';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import type { Plugin, ViteDevServer } from 'vite';
import { formatBuildReport, PhaseClock, reportBuild, reportPagesWritten, writeBuildReport } from '../lib/build-report.ts';
import { changesJson, changesOf, NO_ROW_CHANGES, publishedRecords, readPreviousSite, rowChanges, shrinkRefusal, summariseChanges, type Changes, type PreviousSite } from '../lib/changes.ts';
import { ConfigError, loadConfig, type Config } from '../lib/config.ts';
import { DOWNLOADS, prepareData, preparedRecordsFile, sourceFingerprint, type PreparedData } from '../lib/data-cache.ts';
import { serveListingInDev } from '../lib/dev-server.ts';
import { manifestJson, manifestOf, manifestPath } from '../lib/downloads.ts';
import { hostFiles, type HostFile, type HostInput } from '../lib/host-configs/index.ts';
import { VERCEL_OUTPUT_DIR } from '../lib/host-configs/vercel.ts';
import { pageCount } from '../lib/listing.ts';
import { pageKeysOf } from '../lib/page-keys.ts';
import { linkUnchangedPages, pruneSiteCaches, readBuildRecord, reuseSpare, siteFilesOf, writeBuildRecord, type BuildRecord } from '../lib/page-reuse.ts';
import { formatReport } from '../lib/problems.ts';
import { createStagingDir, discard, keepUnchangedTimes, linkFile, linkTree, publish, siteBytes, spareDirOf, writeFiles } from '../lib/publish.ts';
import { isRecordFile, readRecordFile } from '../lib/record-file.ts';
import { pageFile, pagePath, PUBLISHED } from '../lib/routes.ts';
import type { CarModel } from '../lib/schema.ts';

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

function datasetPlugin(config: Config, current: Current): Plugin {
  return {
    name: 'listing:dataset',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : undefined),
    load: (id) => (id === RESOLVED_VIRTUAL_ID ? datasetModule(config, current) : undefined),
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
  published: boolean;
  /** Astro's incremental cache of this site, where the page keys and the build record live too. */
  siteCacheDir: string;
  /** What this build leaves for the next one, once published (with the site's files). */
  record: Omit<BuildRecord, 'id' | 'files' | 'writtenFiles' | 'removedFiles' | 'bytes'>;
  /** What the last published build left. */
  previousRecord: BuildRecord | undefined;
  /** Site paths of the staging folder's pages that are the published files themselves (hard links): their key did not change. */
  linkedPages: ReadonlySet<string>;
}

const counted = (rows: number) => rows.toLocaleString('en');

/** Reads the configuration; an invalid one stops Astro with every bad variable named. */
function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(error.message);
    throw error;
  }
}

/** A build stopped before Astro renders anything: the reason on standard error, and a short error for Astro. */
function refuse(report: string, outDir: string): never {
  console.error(report);
  throw new Error(`Nothing was built; ${outDir}/ is unchanged.`);
}

/**
 * Rows added, removed and changed against the published site. Nothing to compare when the data
 * and the assets address are those the site was built from; otherwise the records are needed.
 * Where rows changed only in place, compared with the records the published build was made from
 * (its page keys describe them), also the positions of the changed rows.
 */
function compareRows(
  previous: PreviousSite | undefined,
  previousRecordsFile: string | undefined,
  prepared: PreparedData,
  config: Config,
  records: () => readonly CarModel[],
): {
  rows: Changes['rows'];
  refusal?: string;
  changedInPlace?: number[];
} {
  if (previous && previous.manifest.data.sha256 === prepared.dataSha256 && previous.manifest.assetsUrl === config.assetsUrl) {
    return { rows: NO_ROW_CHANGES, changedInPlace: [] };
  }
  const fromPreparation = previousRecordsFile !== undefined && isRecordFile(previousRecordsFile);
  const comparison = rowChanges(previous ? publishedRecords(previous, previousRecordsFile) : undefined, records(), config.assetsUrl);
  const refusal = config.allowShrink ? undefined : shrinkRefusal(comparison, config.outDir);
  if (refusal) return { rows: NO_ROW_CHANGES, refusal };
  return { rows: comparison.rows, ...(fromPreparation && comparison.inPlace ? { changedInPlace: comparison.changedPositions } : {}) };
}

async function prepareBuild(config: Config, root: string, cacheDir: string, logger: AstroIntegrationLogger): Promise<BuildState> {
  const clock = new PhaseClock();
  const preparation = await prepareData({
    root,
    cacheDir: join(cacheDir, PREPARED_DIR),
    dataFile: config.dataFile,
    assetsUrl: config.assetsUrl,
    progress: { onRows: (rows) => console.error(`  ${counted(rows)} rows validated`) },
  });
  if ('problems' in preparation) refuse(formatReport(preparation.problems), config.outDir);
  const { data: prepared } = preparation;
  const previous = readPreviousSite(config.outDir);
  const site = buildCacheDir(cacheDir, config.outDir);
  const record = readBuildRecord(site);
  let records = preparation.records;
  const recordsOnce = () => (records ??= readRecordFile(prepared.recordsFile));
  // The published site's records, from its preparation while it is kept (see data-cache.ts).
  const previousRecordsFile = record && previous ? preparedRecordsFile(join(cacheDir, PREPARED_DIR), record.dataKey) : undefined;
  const { rows, refusal, changedInPlace } = compareRows(previous, previousRecordsFile, prepared, config, recordsOnce);
  if (refusal) refuse(refusal, config.outDir);
  clock.end('validate');
  const reused = prepared.validated ? '' : ' (unchanged since an earlier build: not validated again)';
  logger.info(`${config.dataFile}: ${counted(prepared.rows)} rows valid${reused}, building ${counted(pageCount(prepared.rows))} pages`);

  // Each page's cache key, once for the build (the pages read them), and the published pages whose key is unchanged.
  mkdirSync(site, { recursive: true });
  pruneSiteCaches(dirname(site), site);
  const addresses = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl };
  const fingerprint = createHash('sha256').update(sourceFingerprint(root, ['src', 'astro.config.mjs'])).update(JSON.stringify(addresses)).digest('hex');
  // The last published build, where the same code and addresses made it: its keys and pages may be taken.
  const sameCode = record?.fingerprint === fingerprint ? record : undefined;
  // Rows changed in place: only their pages' keys can change.
  const since = sameCode && changedInPlace ? { keys: sameCode.keys, changedPositions: changedInPlace } : undefined;
  const keys = sameCode?.dataKey === prepared.key ? sameCode.keys : pageKeysOf(recordsOnce(), addresses, since);
  records = undefined;
  writeFileSync(join(site, PAGE_KEYS_FILE), serialize(keys));
  // Astro skips pages only with its own cache of the last build; `--force` renders every page.
  const astroWillSkip = existsSync(join(site, 'incremental-build.json')) && !process.argv.includes('--force');
  const reusable = previous && astroWillSkip ? sameCode : undefined;
  const { dir: staging, fromSpare } = createStagingDir(config.outDir, reusable?.id);
  const linked = !reusable
    ? new Set<string>()
    : fromSpare
      ? reuseSpare(staging, config.outDir, reusable, keys)
      : linkUnchangedPages(reusable.keys, keys, config.outDir, staging);
  clock.end('page keys');
  return { config, prepared, staging, previous, rows, clock, published: false, siteCacheDir: site, record: { site: resolve(config.outDir), fingerprint, dataKey: prepared.key, keys }, previousRecord: record, linkedPages: linked };
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
  build.published = true;
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
  let build: BuildState | undefined;

  /** Prepares the data file again (dev): the pages then show it, or its problems beside the last good data. */
  const refresh = async (logger: AstroIntegrationLogger): Promise<void> => {
    const preparation = await prepareData({ root, cacheDir: preparedDir, dataFile: config.dataFile, assetsUrl: config.assetsUrl });
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
        const plugins = [datasetPlugin(config, current)];
        if (command === 'build') {
          build = await prepareBuild(config, root, cacheDir, logger);
          current.prepared = build.prepared;
          current.recordsFile = join(build.siteCacheDir, 'records.v8');
          current.pageKeysFile = join(build.siteCacheDir, PAGE_KEYS_FILE);
          rmSync(current.recordsFile, { force: true });
          linkFile(build.prepared.recordsFile, current.recordsFile);
          const state = build;
          // A build that fails after this point leaves the published site as it was.
          process.once('exit', () => {
            if (state.published) return;
            discard(state.staging);
            console.error(`\nThe build failed; ${config.outDir}/ is unchanged.`);
          });
          updateConfig({
            outDir: pathToFileURL(`${state.staging}/`),
            // One incremental cache per published site: a page's cached copy belongs to one site.
            cacheDir: pathToFileURL(`${buildCacheDir(cacheDir, config.outDir)}/`),
            vite: { plugins, build: { emptyOutDir: false } },
          });
        } else if (command === 'dev') {
          await refresh(logger);
          // The origin sends no CORS headers and answers OPTIONS itself; so does the dev server.
          updateConfig({ vite: { plugins, server: { cors: false } } });
        } else {
          updateConfig({ vite: { plugins } });
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
      'astro:build:start': () => {
        if (!build) return;
        build.progress = reportPagesWritten(build.staging, pageCount(build.prepared.rows));
      },
      'astro:build:done': async () => {
        if (build) await finishBuild(build);
      },
    },
  };
}
