/**
 * Incremental builds: one site rebuilt through a run of edits, each result compared byte for byte
 * with a clean build of the same CSV and configuration (a fresh site), and the pages Astro renders
 * counted from the build's own log. The randomised rebuild test (test/rebuilds/) goes further:
 * kills, reverts, two builds at once, deleted caches.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/listing/languages.ts';
import { readBuildReport } from '../../src/outputs/report.ts';
import { storeDirOf } from '../../src/publish/store.ts';
import { VERCEL_OUTPUT_DIR } from '../../src/serve/hosts/vercel.ts';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import {
  ASTRO_BUILD,
  foldersIn,
  projectCopy,
  projectRoot,
  publishedState,
  publishedTree,
  renderedPages,
  runBuild,
  tempDir,
  treeHashes,
} from '../support/site.ts';

const workspace = tempDir('incremental');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(join(workspace, 'maintainer'));

const original = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8')
  .replace(/\r?\n$/, '')
  .split(/\r?\n/);
const [header, ...rows] = original as [string, ...string[]];
const csv = (lines: readonly string[]) => `${[header, ...lines].join('\n')}\n`;
/** Sets one field of a CSV row (the default data has no quoted commas in the fields edited here). */
const withField = (line: string, field: number, value: string) => line.split(',').with(field, value).join(',');

let cleanBuilds = 0;

interface Step {
  lines: readonly string[];
  env?: Record<string, string>;
}

/** Builds `step` over the incremental site and into a fresh one; returns the incremental build's log (both streams). */
function buildBoth(root: string, site: string, step: Step): string {
  const dataFile = join(workspace, `data-${cleanBuilds}.csv`);
  writeFileSync(dataFile, csv(step.lines));
  const env = { DATA_FILE: dataFile, BASE_URL: 'https://cars.example.com', ASSETS_URL: 'https://img.example.com/logos', ...step.env };
  const incremental = runBuild({ ...env, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, ALLOW_SHRINK: '1' }, root);
  expect(incremental.status, incremental.stderr).toBe(0);
  const clean = join(workspace, `clean-${cleanBuilds++}`);
  const fresh = runBuild({ ...env, OUT_DIR: clean, DEPLOY_DIR: `${clean}-deploy` }, root);
  expect(fresh.status, fresh.stderr).toBe(0);
  expect(publishedTree(site)).toEqual(publishedTree(clean));
  // No folder left behind either (a host may answer for an empty `page/27/`).
  expect(foldersIn(site)).toEqual(foldersIn(clean));
  // The report's size of the site is the site's.
  const report = readBuildReport(`${site}-report.json`);
  // The report counts the pages the build rendered as its log does.
  expect(report.rendered).toEqual(rendered(`${incremental.stdout}\n${incremental.stderr}`));
  const files = Object.keys(treeHashes(site));
  expect([report.files, report.bytes]).toEqual([files.length, files.reduce((sum, file) => sum + statSync(join(site, file)).size, 0)]);
  // Vercel's copy of the site is the site.
  const vercelCopy = join(`${site}-deploy`, VERCEL_OUTPUT_DIR, 'static');
  expect(treeHashes(vercelCopy)).toEqual(treeHashes(site));
  expect(foldersIn(vercelCopy)).toEqual(foldersIn(site));
  rmSync(clean, { recursive: true, force: true });
  return `${incremental.stdout}\n${incremental.stderr}`;
}

const rendered = renderedPages;
const PAGES = Math.ceil(rows.length / 10);
/** Every HTML page is there once a language. */
const HTML_PAGES = PAGES * LANGUAGES.length;

describe('an incremental build gives the bytes of a clean build', () => {
  const site = join(workspace, 'site');

  it('first build, then the same data again: nothing is rendered again and no file changes', () => {
    buildBoth(project, site, { lines: rows });
    const before = statSync(join(site, 'page/2/index.html')).mtimeMs;
    const log = buildBoth(project, site, { lines: rows });
    expect(rendered(log)).toEqual({ json: 0, html: 0 });
    expect(statSync(join(site, 'page/2/index.html')).mtimeMs).toBe(before);
  });

  it('after an edit: the two pages that show the edited rows are rendered again, the rest reused', () => {
    const edited = rows.map((line, index) => (index === 3 ? withField(line, 7, '123456') : index === 15 ? withField(line, 4, '9') : line));
    const log = buildBoth(project, site, { lines: edited });
    // Page 1 (row 4) and page 2 (row 16): JSON and HTML, in each language.
    expect(rendered(log)).toEqual({ json: 2, html: 2 * LANGUAGES.length });
    // Only the two edited rows were parsed and checked; the site is still a clean build's (buildBoth).
    expect(log).toMatch(new RegExp(`2 (changed )?rows validated.*${rows.length - 2}`));
  });

  it('after rows are added, removed and reordered', () => {
    const added = [
      ...rows,
      withField(withField(rows[0]!, 0, '990001'), 1, '新車 New Car One'),
      withField(withField(rows[1]!, 0, '990002'), 1, '新車 New Car Two'),
    ];
    buildBoth(project, site, { lines: added });
    buildBoth(project, site, { lines: rows.slice(5) });
    const reordered = [...rows];
    [reordered[10], reordered[200]] = [reordered[200]!, reordered[10]!];
    buildBoth(project, site, { lines: reordered });
  });

  it('after BASE_URL or ASSETS_URL changes', () => {
    buildBoth(project, site, { lines: rows, env: { BASE_URL: 'https://listing.example.org/cars' } });
    buildBoth(project, site, { lines: rows, env: { ASSETS_URL: 'https://cdn.example.org/img' } });
    // The same file under another assets address: every row with a logo changed its logo's URL.
    const { rows: changed } = JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as { rows: { changed: { fields: string[] }[] } };
    expect(changed.changed.length).toBeGreaterThan(0);
    expect(new Set(changed.changed.map(({ fields }) => fields.join()))).toEqual(new Set(['logo']));
  });

  it('after its caches were deleted: nothing to render again, the data validated again', () => {
    // Back to the default addresses first: a change of address renders every page.
    expect(rendered(buildBoth(project, site, { lines: rows }))).toEqual({ json: PAGES, html: HTML_PAGES });
    rmSync(join(project, 'node_modules/.astro/listing-data'), { recursive: true, force: true });
    const log = buildBoth(project, site, { lines: rows });
    expect(rendered(log)).toEqual({ json: 0, html: 0 });
    expect(log).toContain(`${rows.length} rows valid;`);
    expect(log).not.toContain('not validated again');
  });
});

describe('a changed template', () => {
  it('renders every page of that template again and gives the bytes of a clean build', () => {
    // A copy of the project of its own, so that editing a component cannot disturb anything else running.
    const copy = projectCopy(join(workspace, 'template'));
    const site = join(workspace, 'template-site');
    buildBoth(copy, site, { lines: rows });
    // The frame Astro renders: every page is written from it.
    const component = join(copy, 'src/components/ListingPage.astro');
    writeFileSync(component, `${readFileSync(component, 'utf8')}\n<p class="template-changed">Changed template</p>\n`);
    const log = buildBoth(copy, site, { lines: rows });
    expect(readFileSync(join(site, 'page/7/index.html'), 'utf8')).toContain('Changed template');
    expect(readFileSync(join(site, 'zh-hk/page/7/index.html'), 'utf8')).toContain('Changed template');
    // A changed source renders every page again: the code that made the published ones is not this code.
    expect(rendered(log)).toEqual({ json: PAGES, html: HTML_PAGES });

    // Then a change of code that changes no page: every page is rendered again, and each is the
    // published file (a hard link: its time kept).
    // The listing's pages (HTML in each language, and JSON), which the build's own writers write; Astro writes the others (404, schemas).
    const pages = Object.keys(treeHashes(site)).filter((path) => /^(zh-hk\/)?(page\/\d+\/)?index\.html$|\/page\/\d+\.json$/.test(path));
    const inodesIn = (dir: string) => pages.map((path) => statSync(join(dir, path)).ino);
    const before = inodesIn(site);
    const report = join(copy, 'src/outputs/report.ts');
    writeFileSync(report, `${readFileSync(report, 'utf8')}\n// A comment: the code changed, no page did.\n`);
    // Killed as its pages are rendered, before its unchanged files are made the published ones: each
    // page is the published file already, linked as it was rendered, not written.
    const dataFile = join(workspace, 'same-rows.csv');
    writeFileSync(dataFile, csv(rows));
    const killed = runBuild(
      {
        DATA_FILE: dataFile,
        BASE_URL: 'https://cars.example.com',
        ASSETS_URL: 'https://img.example.com/logos',
        OUT_DIR: site,
        DEPLOY_DIR: `${site}-deploy`,
        LISTING_KILL_AT: 'pages rendered',
      },
      copy,
    );
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const store = storeDirOf(site);
    // The killed build's folder: not the published one (it took the folder of the build before it).
    const publishedFolder = realpathSync(join(store, 'current'));
    const [unpublished, ...others] = readdirSync(store, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && join(store, entry.name) !== publishedFolder)
      .map((entry) => join(store, entry.name, 'site'))
      .filter((dir) => existsSync(join(dir, 'page/7/index.html')));
    expect(others).toEqual([]);
    const asRendered = inodesIn(unpublished!);
    expect(pages.filter((_path, index) => asRendered[index] !== before[index])).toEqual([]);
    expect(rendered(buildBoth(copy, site, { lines: rows }))).toEqual({ json: PAGES, html: HTML_PAGES });
    const after = inodesIn(site);
    expect(pages.filter((_path, index) => after[index] !== before[index])).toEqual([]);
    expect(pages).toHaveLength(HTML_PAGES + PAGES);
  });
});

describe('the same data, code and settings again', () => {
  it('has nothing to build: said before Astro loads, the published build untouched; a change of any input, a changed published file or FULL_BUILD=1 builds', async () => {
    const copy = projectCopy(join(workspace, 'same-again'));
    const site = join(workspace, 'same-again-site');
    const deploy = `${site}-deploy`;
    const dataFile = join(workspace, 'same-again.csv');
    writeFileSync(dataFile, csv(rows));
    const env = { DATA_FILE: dataFile, OUT_DIR: site, DEPLOY_DIR: deploy, BASE_URL: 'https://cars.example.com' };
    const build = (extra: Record<string, string> = {}) => {
      const result = runBuild({ ...env, ...extra }, copy);
      const log = `${result.stdout}\n${result.stderr}`;
      expect(result.status, log).toBe(0);
      return log;
    };
    /** Every file of the site and deploy folder, by bytes, inode and time, and the folders of the build store. */
    const state = () => ({ site: publishedState(site), deploy: publishedState(deploy), store: readdirSync(storeDirOf(site)).sort() });
    const builtAgain = (log: string) => log.includes('Astro: bundling the pages');

    expect(builtAgain(build())).toBe(true);
    const { buildId } = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { buildId: string };
    const before = state();
    // The data file saved again with the same bytes: its time is not what counts.
    writeFileSync(dataFile, csv(rows));
    const log = build();
    expect(log).toContain(`Nothing to build: ${site}/ is current (build ${buildId}, built from this data, code and settings`);
    expect(builtAgain(log)).toBe(false);
    expect(state()).toEqual(before);
    expect(readBuildReport(`${site}-report.json`)).toMatchObject({
      buildId,
      built: false,
      rendered: { json: 0, html: 0 },
      rows: rows.length,
    });

    // FULL_BUILD=1 builds (and finds nothing changed); the addresses, a source file, a published file rewritten: each builds.
    const full = build({ FULL_BUILD: '1' });
    expect(builtAgain(full)).toBe(true);
    expect(rendered(full)).toEqual({ json: 0, html: 0 });
    expect(builtAgain(build({ ASSETS_URL: 'https://cdn.example.org/img' }))).toBe(true);
    expect(builtAgain(build({ ASSETS_URL: 'https://cdn.example.org/img' }))).toBe(false);
    expect(builtAgain(build())).toBe(true);
    const source = join(copy, 'src/listing/format.ts');
    writeFileSync(source, `${readFileSync(source, 'utf8')}\n// A comment: the code changed.\n`);
    expect(builtAgain(build())).toBe(true);
    expect(builtAgain(build())).toBe(false);
    // The site is a clean build's.
    const clean = join(workspace, 'same-again-clean');
    expect(runBuild({ ...env, OUT_DIR: clean, DEPLOY_DIR: `${clean}-deploy` }, copy).status).toBe(0);
    expect(publishedTree(site)).toEqual(publishedTree(clean));
    // A published file written in place (its inode kept): the published build is no longer what it published.
    const page = join(site, 'all.json');
    writeFileSync(page, readFileSync(page, 'utf8').replace('[', '[ '));
    expect(builtAgain(build())).toBe(true);
    expect(builtAgain(build())).toBe(false);

    // A source saved while a build runs, then undone: that build may have built either version, so it
    // leaves no stamp, and the build after the undo builds.
    const saved = readFileSync(source, 'utf8');
    const running = spawn(process.execPath, ASTRO_BUILD, {
      cwd: copy,
      env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env, FULL_BUILD: '1' },
    });
    let output = '';
    running.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Astro: bundling') && readFileSync(source, 'utf8') === saved)
        writeFileSync(source, `${saved}// Saved while a build ran.\n`);
    });
    const code = await new Promise((done) => running.once('close', done));
    expect(code, output).toBe(0);
    expect(readFileSync(source, 'utf8')).not.toBe(saved);
    writeFileSync(source, saved);
    expect(builtAgain(build())).toBe(true);
    expect(builtAgain(build())).toBe(false);
  });
});
