/**
 * `npm run check-live [-- --json FILE]`: what publishing the built site (OUT_DIR, as `npm run
 * build` left it) over the live site (LIVE_URL, else BASE_URL) changes there: rows added, removed
 * and changed, the pages, files and URLs, and the shrink guard's verdict, read from the live
 * site's `manifest.json`, `changes.json` and `all.csv` (src/ci/). As text; as Markdown in the job
 * summary of a GitHub Actions step; as JSON where `--json` names a file. Exits 1 where the guard
 * refuses (unless ALLOW_SHRINK=1) or the live site cannot be read; 0 without a live site to read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../src/config.ts';
import { readDataFile } from '../src/data/read.ts';
import { formatReport } from '../src/data/problems.ts';
import { ifPresent } from '../src/files/missing.ts';
import { logoUrl } from '../src/listing/serialise.ts';
import { PUBLISHED } from '../src/listing/routes.ts';
import { MANIFEST_FILE, readManifest } from '../src/outputs/manifest.ts';
import { rowChanges } from '../src/outputs/row-changes.ts';
import { appendJobSummary } from '../src/ci/job-summary.ts';
import { liveChanges } from '../src/ci/live-changes.ts';
import { liveReportMarkdown, liveReportText } from '../src/ci/live-report.ts';
import { downloadAllCsv, readLiveSite, UnreadableLiveSite } from '../src/ci/live-site.ts';
import { inGitHubActions, workflowCommand } from '../src/ci/workflow-commands.ts';

const { values } = parseArgs({ options: { json: { type: 'string' } } });
const config = loadConfigOrExit();
const actions = inGitHubActions();

/** Says `message` (an error annotation too, under GitHub Actions) and exits 1. */
function stop(message: string, title: string): never {
  console.error(message);
  if (actions) {
    console.log(workflowCommand('error', { title }, message));
    appendJobSummary(`### Live check: ${title}\n\n${message}\n`);
  }
  process.exit(1);
}

/** Says `message` in the log and the job summary; the check goes on or ends with 0. */
function say(message: string): void {
  console.log(message);
  if (actions) appendJobSummary(`### Live check\n\n${message}\n`);
}

if (config.liveUrl === undefined) {
  say('check-live: skipped: set LIVE_URL (or BASE_URL) to the published site to compare this build with it.');
  process.exit(0);
}
const liveUrl = config.liveUrl;

const builtText = ifPresent(() => readFileSync(join(config.outDir, MANIFEST_FILE), 'utf8'));
if (builtText === undefined) stop(`Nothing is built at ${config.outDir}/: run npm run build first, then this check.`, 'nothing built');
let builtJson: unknown;
try {
  builtJson = JSON.parse(builtText);
} catch {
  // Said as what it means for this check: the build is not whole.
  stop(`${config.outDir}/${MANIFEST_FILE} is not JSON: run npm run build again.`, 'nothing built');
}
const builtRead = readManifest(builtJson);
if ('problems' in builtRead)
  stop(`${config.outDir}/${MANIFEST_FILE} is not a manifest of this version: run npm run build again.`, 'nothing built');
const built = builtRead.manifest;
const newRows = await readDataFile(config.dataFile);
if (newRows.sha256 === undefined) stop(formatReport(newRows.problems), 'the data file cannot be read');
if (newRows.sha256 !== built.data.sha256) {
  stop(
    `${config.outDir}/ is built from another version of ${config.dataFile}: run npm run build, then this check.`,
    'the build is not of this data',
  );
}

const cannotTell = (why: string) =>
  `The live site cannot be read: ${why}. This check cannot tell what is published there, so it cannot guard the published rows. ` +
  'If the site is not published there yet, or you mean to replace it, set ALLOW_SHRINK=1.';

const workspace = mkdtempSync(join(tmpdir(), 'check-live-'));
// On any way out, process.exit included.
process.on('exit', () => rmSync(workspace, { recursive: true, force: true }));
try {
  const live = await readLiveSite(liveUrl);
  if (live === undefined) {
    say(`Nothing is published at ${liveUrl} yet (its ${MANIFEST_FILE} answers 404): this build publishes all of its ${built.count} rows.`);
    process.exit(0);
  }
  const liveCsv = join(workspace, 'all.csv');
  await downloadAllCsv(liveUrl, live.manifest.files[PUBLISHED.allCsv.slice(1)], liveCsv);
  // This process's own download, whole once it is read: not a file a maintainer may be saving.
  const publishedRows = await readDataFile(liveCsv, { quietMs: 0 });
  if (publishedRows.problems.length > 0)
    throw new UnreadableLiveSite(`its ${PUBLISHED.allCsv.slice(1)} is not data this check reads:\n${formatReport(publishedRows.problems)}`);
  if (newRows.problems.length > 0) stop(formatReport(newRows.problems), 'the data file has problems');
  const rows = rowChanges(
    {
      chunks: () => [publishedRows.records as unknown as Record<string, unknown>[]],
      logoUrlOf: (record) => logoUrl(record['logo'] as string | null, live.manifest.assetsUrl),
    },
    newRows.records,
    built.assetsUrl,
  );
  const changes = liveChanges(live, built, rows, config.changesKept);
  const check = { liveUrl, liveBuild: live.manifest.buildId, dataFile: config.dataFile, allowShrink: config.allowShrink };
  console.log(liveReportText(changes, check));
  if (actions) appendJobSummary(liveReportMarkdown(changes, check));
  if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify({ ...check, ...changes }, null, 2)}\n`);
  if (changes.shrinks && !config.allowShrink) {
    stop(
      `The shrink guard refuses this data: it removes ${changes.rows.removed.length} of the ${changes.published} rows ${liveUrl} publishes. ` +
        'Nothing may be published from it. If those rows are really gone, set ALLOW_SHRINK=1.',
      'shrink guard',
    );
  }
} catch (error) {
  if (!(error instanceof UnreadableLiveSite)) throw error;
  if (!config.allowShrink) stop(cannotTell(error.message), 'the live site cannot be read');
  console.warn(`${cannotTell(error.message)}\nALLOW_SHRINK=1: going on without the check.`);
}
