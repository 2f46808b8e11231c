/**
 * `npm run build`: validates the data (every problem reported, nothing built if any), builds the
 * site with Astro into a staging folder, and publishes it over the output folder only on success.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { changesJson, changesOf, readPreviousSite, shrinkRefusal, summariseChanges } from '../src/lib/changes.ts';
import { MANIFEST_FILE, manifestSchema } from '../src/lib/manifest.ts';
import { PUBLISHED } from '../src/lib/routes.ts';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/lib/config.ts';
import { handOver } from '../src/lib/dataset.ts';
import { writeDownloads } from '../src/lib/downloads.ts';
import { pageCount } from '../src/lib/listing.ts';
import { loadFile } from '../src/lib/load.ts';
import { formatReport } from '../src/lib/problems.ts';
import { hostFiles } from '../src/lib/host-configs/index.ts';
import { VERCEL_OUTPUT_DIR } from '../src/lib/host-configs/vercel.ts';
import { createStagingDir, discard, keepUnchangedTimes, linkTree, publish, writeFiles } from '../src/lib/publish.ts';
import { exitOnConfigError, progressLine } from './cli.ts';
import { formatBuildReport, PhaseClock, reportBuild, reportPagesWritten, writeBuildReport } from './build-report.ts';

process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
const root = fileURLToPath(new URL('..', import.meta.url));
/** Where the time went, for the closing report: the phases a maintainer can act on. */
const clock = new PhaseClock();
const endPhase = (name: string) => clock.end(name);

const config = exitOnConfigError(loadConfig);
const { records, problems } = loadFile(config.dataFile, { onRows: progressLine('rows validated') });
endPhase('validate');
if (problems.length > 0) {
  console.error(formatReport(problems));
  console.error(`\nNothing was built; ${config.outDir}/ is unchanged.`);
  process.exit(1);
}
const previous = readPreviousSite(config.outDir);
const refusal = config.allowShrink ? undefined : shrinkRefusal(previous, records, config.outDir);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
console.error(`${config.dataFile}: ${records.length} rows valid, building ${pageCount(records.length)} pages`);
handOver({ config, records });

// Astro is loaded only once the data is known to be good, so a bad file fails fast.
const { build } = await import('astro');
const staging = createStagingDir(config.outDir);
const progress = reportPagesWritten(staging, pageCount(records.length));
let changes: ReturnType<typeof changesOf> | undefined;
try {
  await build({ root, outDir: staging, logLevel: process.env['BUILD_LOG'] === 'info' || records.length <= 10_000 ? 'info' : 'warn' });
  endPhase('pages (Astro)');
  await writeDownloads(staging, { config, records });
  endPhase('downloads');
  // Host configurations are generated for the site where it will be published, not the staging folder.
  const files = await hostFiles({ ...config, count: records.length, siteDir: resolve(config.outDir) }, config.deployDir);
  writeFiles(staging, files.filter((file) => file.place === 'site'));
  writeFiles(config.deployDir, files.filter((file) => file.place === 'deploy'));
  endPhase('host configs');
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(staging, MANIFEST_FILE), 'utf8')));
  changes = changesOf(previous, { dir: staging, manifest, records, assetsUrl: config.assetsUrl });
  writeFileSync(join(staging, PUBLISHED.changes.slice(1)), changesJson(changes));
  endPhase('changes');
} catch (error) {
  clearInterval(progress);
  discard(staging);
  console.error(error instanceof Error ? error.message : error);
  console.error(`\nThe build failed; ${config.outDir}/ is unchanged.`);
  process.exit(1);
}
clearInterval(progress);
keepUnchangedTimes(config.outDir, staging);
endPhase('keep unchanged times');
publish(staging, config.outDir);
endPhase('publish');
linkTree(config.outDir, join(config.deployDir, VERCEL_OUTPUT_DIR, 'static'));
endPhase('Vercel static links');
const report = reportBuild(config.outDir, config.dataFile, records.length, clock, changes ? summariseChanges(changes) : '');
writeBuildReport(config.reportFile, report);
console.error(formatBuildReport(report));
