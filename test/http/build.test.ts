/** The build and check-data commands as a data maintainer runs them. */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticCsv } from '../../scripts/generate.ts';
import { countIn, LANGUAGES, MESSAGES } from '../../src/listing/languages.ts';
import { htmlPageFile } from '../../src/listing/routes.ts';
import { formatBuildReport, readBuildReport } from '../../src/outputs/report.ts';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import {
  ASTRO_BUILD,
  buildSite,
  fixture,
  projectRoot,
  runBuild,
  runScript,
  tempDir,
  treeHashes,
  withoutBuildDescription,
  projectCopy,
} from '../support/site.ts';

const workspace = tempDir('build-test');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('npm run check-data', () => {
  it('accepts the embedded dataset: at least 250 rows, not a multiple of 10', () => {
    const result = runScript('check-data.ts', {}, { root: project });
    expect(result.status).toBe(0);
    const rows = Number(/(\d+) rows valid/.exec(result.stdout)?.[1]);
    expect(rows).toBeGreaterThanOrEqual(250);
    expect(rows % 10).not.toBe(0);
  });

  it('reports every problem of a bad file with file, line, column, rule and value, and exits 1', () => {
    const file = fixture('bad/many-problems.csv');
    const result = runScript('check-data.ts', { DATA_FILE: file }, { root: project });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `${file}:2: column 4 (min_seat): must be a whole number from 1 to 100; got "0"`,
      `${file}:4: column 8 (min_price): must be a plain decimal number such as 549000 or 549000.00 (no sign, spaces, commas or exponent); got "abc"`,
      `${file}:4: column 10 (has_operation_type_auto): must be true or false; got "no"`,
      `${file}:6: column 13 (logo): must be empty or a relative path under the assets address such as media/brand/logo/toyota.png (letters, digits, . _ ~ - and /; no scheme, no leading /, no . or .. segments); got "../x.png"`,
      `4 problems in ${file}`,
    ]);
  });

  it('writes each problem as a GitHub annotation on its line and column, and a summary, as a step of a GitHub Actions job', () => {
    mkdirSync(join(project, 'data/bad'), { recursive: true });
    writeFileSync(join(project, 'data/bad/cars.csv'), readFileSync(fixture('bad/many-problems.csv')));
    // Saved a minute ago: a file saved just now is waited for (settled-read.ts), and said so on standard error.
    const savedAgo = new Date(Date.now() - 60_000);
    utimesSync(join(project, 'data/bad/cars.csv'), savedAgo, savedAgo);
    const summary = join(workspace, 'check-data-summary.md');
    const result = runScript(
      'check-data.ts',
      { DATA_FILE: 'data/bad/cars.csv', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: project, GITHUB_STEP_SUMMARY: summary },
      { root: project },
    );
    expect(result.status).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      '::error file=data/bad/cars.csv,line=2,col=25,title=min_seat%3A invalid value::column 4 (min_seat): must be a whole number from 1 to 100; got "0"',
      expect.stringMatching(
        /^::error file=data\/bad\/cars\.csv,line=4,col=39,title=min_price%3A invalid value::column 8 \(min_price\): must be a plain decimal/,
      ),
      '::error file=data/bad/cars.csv,line=4,col=53,title=has_operation_type_auto%3A invalid value::column 10 (has_operation_type_auto): must be true or false; got "no"',
      expect.stringMatching(
        /^::error file=data\/bad\/cars\.csv,line=6,col=71,title=logo%3A invalid value::column 13 \(logo\): must be empty or a relative path/,
      ),
    ]);
    expect(result.stderr.trim()).toBe('4 problems in data/bad/cars.csv');
    expect(readFileSync(summary, 'utf8')).toContain('| 2 | 4 | min_seat | must be a whole number from 1 to 100; got "0" |');
  });

  it('takes the file as an argument too', () => {
    const result = runScript('check-data.ts', {}, { root: project, args: [fixture('bad/encoding-big5.csv')] });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('encoding-big5.csv:3: is not UTF-8 text');
  });

  it('reads a spreadsheet\'s "Unicode Text" export and says how it read it', () => {
    const result = runScript('check-data.ts', {}, { root: project, args: [fixture('spreadsheet/unicode-text.txt')] });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/unicode-text\.txt: 259 rows valid, 26 pages, read as UTF-16LE, tab-separated \(/);
  });

  it('names a file that does not exist', () => {
    const result = runScript('check-data.ts', { DATA_FILE: join(workspace, 'nope.csv') }, { root: project });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/nope\.csv: does not exist \(ENOENT\): check DATA_FILE/);
  });

  it('refuses a folder and a named pipe as the data file, at once (a read of a pipe would wait for ever)', () => {
    const folder = join(workspace, 'cars.csv.d');
    mkdirSync(folder, { recursive: true });
    const folderResult = runScript('check-data.ts', { DATA_FILE: folder }, { root: project });
    expect(folderResult.status).toBe(1);
    expect(folderResult.stderr).toMatch(/cars\.csv\.d: is a folder, not a CSV file/);
    expect(folderResult.stderr).not.toMatch(/\n\s+at /);
    if (process.platform === 'win32') return;
    const pipe = join(workspace, 'cars.fifo');
    // A FIFO, as `mkfifo` makes one (coreutils, on every Linux and macOS).
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0);
    const pipeResult = runScript('check-data.ts', { DATA_FILE: pipe }, { root: project });
    expect(pipeResult.status).toBe(1);
    expect(pipeResult.stderr).toMatch(/cars\.fifo: is not a regular file/);
  });

  it('generates a CSV from a project whose path has a space, and says when the folder is missing', () => {
    const spaced = join(workspace, 'a project');
    mkdirSync(spaced, { recursive: true });
    symlinkSync(projectRoot, join(spaced, 'cars'));
    const file = join(workspace, 'generated.csv');
    // As run from there: the path the script is given, space and all, is its own URL (not the link's target).
    const made = spawnSync(process.execPath, ['--preserve-symlinks-main', join(spaced, 'cars/scripts/generate.ts'), '3', file], {
      encoding: 'utf8',
    });
    expect(made.status).toBe(0);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
    const missing = spawnSync(process.execPath, [join(spaced, 'cars/scripts/generate.ts'), '3', join(workspace, 'no/such.csv')], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/such\.csv: cannot be written \(ENOENT\): check that its folder exists/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an invalid configuration with a clear error and exit code 2', () => {
    const result = runScript('check-data.ts', { BASE_URL: 'not a url', PORT: 'eighty' }, { root: project });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('BASE_URL must be an absolute http(s) URL');
    expect(result.stderr).toContain('PORT must be a whole number');
  });
});

describe('npm run build', () => {
  const outDir = join(workspace, 'site');

  it('builds an empty listing from a header-only file: count 0 and an empty page 1', () => {
    const result = runBuild({ DATA_FILE: fixture('good/header-only.csv'), OUT_DIR: outDir, DEPLOY_DIR: `${outDir}-deploy` }, project);
    expect(result.status).toBe(0);
    // The machine-readable report beside the site (the bench reads it), and the same report on screen.
    const report = readBuildReport(`${outDir}-report.json`);
    expect(report).toMatchObject({ outDir, rows: 0, pages: { json: 1, html: 2 } });
    // The build began before Astro loaded, and the integration built that one (src/integration/session.ts).
    expect(
      result.stderr,
      "npm run build's early build was not taken: is Astro's default cacheDir still PROJECT_CACHE_DIR (src/publish/lock.ts)?",
    ).not.toContain("Astro's cache folder is");
    expect(report.besidePhases.map(([name]) => name)).toEqual(['validate', 'page keys', 'pages taken']);
    expect(report.phases.map(([name]) => name)).toEqual([
      'start',
      'Astro',
      'listing pages',
      'kept pages',
      'downloads',
      'host configs',
      'keep unchanged files',
      'changes',
      'publish',
      'stamp',
    ]);
    expect(report.built).toBe(true);
    expect(report.files).toBeGreaterThan(10);
    expect(report.peakMemoryBytes).toBeGreaterThan(50 * 1_048_576);
    expect(report.seconds).toBeGreaterThanOrEqual(report.phases.reduce((sum, [, seconds]) => sum + seconds, 0) - 0.01);
    expect(result.stderr).toContain(formatBuildReport(report));
    expect(result.stderr).toMatch(
      /rows +0.*\n +pages +1 JSON \+ 2 HTML\n +files +\d+ \(\d+ unchanged, keeping their published time\)\n +bytes +[\d.]+ MiB\n +time +[\d.]+ s \(start [\d.]+ s \[on another thread meanwhile: validate [\d.]+ s, page keys [\d.]+ s, pages taken [\d.]+ s\], Astro/,
    );
    expect(readFileSync(join(outDir, 'car/api/capture_car/latest/page/1.json'), 'utf8')).toBe(
      '{"count":0,"next":null,"previous":null,"results":[]}',
    );
    expect(existsSync(join(outDir, 'car/api/capture_car/latest/page/2.json'))).toBe(false);
    // npm run build shows Astro's warnings alone (no line per page, no folder of the store): the build says what it does.
    expect(stripVTControlCharacters(result.stdout)).toBe('');
    expect(result.stderr).toMatch(/: 0 rows valid.*; rendering 1 of 1 JSON and 2 of 2 HTML pages/);
  });

  it.each([
    // Up to a few thousand files, one thread writes them (a thread's start costs more than they do; more: test/outputs/listing-pages.test.ts).
    ['the shipped data', 'data/captured-car-models.csv', 26],
    ['5,000 generated rows', 'generated-5000.csv', 500],
  ])('writes every HTML page of %s, whole, and names none of them on its way', async (_data, dataFile, pages) => {
    const data = dataFile.startsWith('data/') ? dataFile : join(workspace, dataFile);
    if (!dataFile.startsWith('data/')) await writeSyntheticCsv(data, 5000);
    const site = join(workspace, `pages-written-${pages}`);
    const result = runBuild({ DATA_FILE: data, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` }, project);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("Listing pages: written from Astro's frames on one thread");
    // The first, second, middle and last pages of each language, checked against Astro's rendering of them.
    expect(result.stderr).toContain(`Listing pages: 8 checked against Astro's own rendering, byte for byte`);
    expect(result.stderr).not.toMatch(/broke an assumption/);
    const report = readBuildReport(`${site}-report.json`);
    // Each page in each language; Astro's frames are not published.
    expect(report.pages.html).toBe(pages * LANGUAGES.length);
    expect(existsSync(join(site, 'listing-frame'))).toBe(false);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/file not created|├─/);
    // The search form, in the frame of each language: on every page of that language, whole, with the listing's size and its script.
    const searchForms = new Map(LANGUAGES.map((language) => [language, new Set<string>()]));
    for (let page = 1; page <= pages; page += 1) {
      for (const [language, forms] of searchForms) {
        const file = htmlPageFile(page, language);
        const html = readFileSync(join(site, file), 'utf8');
        expect(html).toMatch(/^<!DOCTYPE html>.*<\/html>$/s);
        expect(html).not.toContain('<!--listing-page:');
        const form = /<section class="search".*?<script type="module" src="\/_astro\/[^"]+"><\/script>/s.exec(html);
        forms.add(form?.[0] ?? `none in ${file}`);
      }
    }
    for (const [language, forms] of searchForms) {
      expect([...forms]).toEqual([expect.stringContaining(MESSAGES[language].searchAll(countIn(language, report.rows)))]);
    }
  });

  it.each([
    // Names with & < > " ', Chinese and emoji, models with and without logos, seat and engine ranges, electric ones; 23 rows: a partial last page.
    ['every kind of value a page shows', fixture('good/page-markup.csv'), 3],
    ['the XSS corpus', fixture('good/html-payloads.csv'), 2],
    ['an empty listing', fixture('good/header-only.csv'), 1],
    // A random sample of the real data's shape (scripts/generate.ts, seeded).
    ['2,345 generated rows', 'generated-2345.csv', 235],
  ])(
    'writes each listing page of %s as Astro renders it, byte for byte, in both languages (CHECK_PAGES=all)',
    async (_data, dataFile, pages) => {
      const data = dataFile.startsWith('/') ? dataFile : join(workspace, dataFile);
      if (!dataFile.startsWith('/')) await writeSyntheticCsv(data, 2345);
      const site = join(workspace, `checked-${pages}`);
      const result = runBuild({ DATA_FILE: data, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, CHECK_PAGES: 'all' }, project);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain(`Listing pages: ${pages * LANGUAGES.length} checked against Astro's own rendering, byte for byte`);
    },
  );

  it("stops before it publishes where a page's markup left the shared functions, naming the page and where it differs", () => {
    const drifted = join(workspace, 'drifted');
    mkdirSync(drifted);
    const copy = projectCopy(drifted);
    // Markup of the page's own outside src/listing/listing-page.ts: the frame holds "frame", each page its number.
    const component = join(copy, 'src/components/ListingPage.astro');
    writeFileSync(component, readFileSync(component, 'utf8').replace('<h1>', '<h1 data-page={String(page)}>'));
    const site = join(drifted, 'site');
    const result = runBuild({ DATA_FILE: fixture('good/page-markup.csv'), OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` }, copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /The listing page (?:zh-hk\/)?(?:page\/\d\/)?index.html that the build wrote is not the page Astro renders \(at character \d+: the build wrote …".*<h1 data-page=\\"frame\\">.*"…, Astro rendered …".*<h1 data-page=\\"\d\\">.*\n.*Nothing was published/,
    );
    // A message, not a crash.
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(site)).toBe(false);
  });

  it('fails on bad data with every problem, builds nothing and leaves the last good site byte-identical', () => {
    const before = treeHashes(outDir);
    const result = runBuild({ DATA_FILE: fixture('bad/many-problems.csv'), OUT_DIR: outDir }, project);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('many-problems.csv:2: column 4 (min_seat)');
    expect(result.stderr).toContain('many-problems.csv:6: column 13 (logo)');
    expect(result.stderr).toContain('4 problems in');
    expect(result.stderr).toContain('Nothing was published');
    // A message, once, not a crash.
    expect(result.stderr.match(/Nothing was published/g)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/Stack trace|Location:|\n\s+at /);
    expect(treeHashes(outDir)).toEqual(before);
  });

  it('says a data file that is a folder is one, leaving the last good site, with no stack trace', () => {
    const before = treeHashes(outDir);
    const folder = join(workspace, 'folder.csv');
    mkdirSync(folder, { recursive: true });
    const result = runBuild({ DATA_FILE: folder, OUT_DIR: outDir }, project);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/folder\.csv: is a folder, not a CSV file/);
    expect(result.stderr).not.toMatch(/Stack trace|Location:|\n\s+at |EISDIR/);
    expect(treeHashes(outDir)).toEqual(before);
  });

  it('refuses a DEPLOY_DIR that names the data file, before anything is written (exit 2), and the file stays', () => {
    const data = join(workspace, 'kept.csv');
    writeFileSync(data, readFileSync(fixture('good/header-only.csv')));
    const result = runBuild({ DATA_FILE: data, OUT_DIR: join(workspace, 'kept-site'), DEPLOY_DIR: data }, project);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/DATA_FILE \(.*kept\.csv\) must not be in DEPLOY_DIR/);
    expect(readFileSync(data)).toEqual(readFileSync(fixture('good/header-only.csv')));
  });

  it('builds a semicolon-separated Calc export into the same site as the original CSV', () => {
    const addresses = { BASE_URL: 'https://cars.example.com', ASSETS_URL: 'https://img.example.com' };
    const fromCalc = join(workspace, 'calc');
    buildSite({ DATA_FILE: fixture('spreadsheet/semicolon-quoted.csv'), OUT_DIR: fromCalc, ...addresses }, project);
    const fromOriginal = join(workspace, 'original');
    buildSite({ DATA_FILE: 'data/captured-car-models.csv', OUT_DIR: fromOriginal, ...addresses }, project);
    // The manifest and changes.json name the data file's hash, which differs; every other byte is the same.
    const { 'manifest.json': calcManifest } = treeHashes(fromCalc);
    const { 'manifest.json': originalManifest } = treeHashes(fromOriginal);
    const [calcTree, originalTree] = [withoutBuildDescription(treeHashes(fromCalc)), withoutBuildDescription(treeHashes(fromOriginal))];
    expect(calcManifest).toBeDefined();
    expect(originalManifest).toBeDefined();
    expect(Object.keys(calcTree).length).toBeGreaterThan(50);
    expect(calcTree).toEqual(originalTree);
  });

  it('publishes each build whole in one folder of the build store; keeps the one it replaced and no other', async () => {
    buildSite({ DATA_FILE: 'data/captured-car-models.csv', OUT_DIR: outDir, BASE_URL: 'https://cars.example.com' }, project);
    const first = realpathSync(outDir);
    buildSite(
      { DATA_FILE: fixture('good/bom-crlf.csv'), OUT_DIR: outDir, BASE_URL: 'https://cars.example.com', ALLOW_SHRINK: '1' },
      project,
    );
    const page = JSON.parse(readFileSync(join(outDir, 'car/api/capture_car/latest/page/1.json'), 'utf8')) as { count: number };
    expect(page.count).toBe(2);
    expect(readlinkSync(outDir)).toBe('.site.builds/current/site');
    expect(readlinkSync(`${outDir}-deploy`)).toBe('.site.builds/current/deploy');
    const store = join(workspace, '.site.builds');
    const builds = () => readdirSync(store).filter((entry) => /^[0-9a-z]+-[0-9a-f]{8}$/.test(entry));
    await expect.poll(() => builds().length).toBe(2);
    expect(realpathSync(join(store, 'previous', 'site'))).toBe(first);
    expect(builds()).toContain(readlinkSync(join(store, 'current')));
  });

  it('runs the builds of two checkouts publishing one site one after the other, the second told why it waits', async () => {
    const shared = join(workspace, 'shared-site');
    const other = projectCopy(join(workspace, 'second-checkout'));
    const larger = join(workspace, 'larger.csv');
    // Long enough to render that the second starts while the first holds the site.
    await writeSyntheticCsv(larger, 30_000);
    let firstSaid = '';
    const build = (root: string, data: string, said: (text: string) => void = () => undefined) =>
      new Promise<{ status: number | null; stderr: string }>((resolveBuild) => {
        const child = spawn(process.execPath, ASTRO_BUILD, {
          cwd: root,
          env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', DATA_FILE: data, OUT_DIR: shared, ALLOW_SHRINK: '1' },
        });
        // Astro's logger writes the wait on standard output, the progress on standard error: both, in order.
        let stderr = '';
        for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => said((stderr += chunk.toString())));
        child.on('close', (status) => resolveBuild({ status, stderr }));
      });
    const first = build(project, larger, (text) => (firstSaid = text));
    await expect.poll(() => firstSaid, { timeout: 60_000 }).toMatch(/rows valid/);
    const second = build(other, join(projectRoot, 'data/captured-car-models.csv'));
    const [one, two] = await Promise.all([first, second]);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(two.stderr).toMatch(/Another build is running for the site at .*shared-site \(from another checkout\) \(pid \d+/);
    // The second published last, whole: the shipped rows.
    const count = () =>
      (JSON.parse(readFileSync(join(shared, 'car/api/capture_car/latest/page/1.json'), 'utf8')) as { count: number }).count;
    expect(count()).toBe(259);
    // Its data is what it published: asked again while the first builds anew, it still waits (it would
    // remove the store's folders that are not published, the first's under way among them).
    firstSaid = '';
    const third = build(project, larger, (text) => (firstSaid = text));
    await expect.poll(() => firstSaid, { timeout: 60_000 }).toMatch(/rows valid/);
    const fourth = build(other, join(projectRoot, 'data/captured-car-models.csv'));
    const [three, four] = await Promise.all([third, fourth]);
    expect(three.status, three.stderr).toBe(0);
    expect(four.status, four.stderr).toBe(0);
    expect(four.stderr).toMatch(/Another build is running for the site at .*shared-site \(from another checkout\)/);
    expect(count()).toBe(259);
  });
});

describe('what a build changes', () => {
  const site = join(workspace, 'changes');
  const fixtureLines = readFileSync(fixture('listing-23.csv'), 'utf8').trimEnd().split('\n');
  const edited = join(workspace, 'edited.csv');
  const truncated = join(workspace, 'truncated.csv');
  const changesOf = () =>
    JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as {
      previousDataSha256: string | null;
      dataSha256: string;
      rows: { added: number[]; removed: number[]; changed: { id: number; fields: string[] }[] };
      urls: string[];
    };

  it('lists everything as added on a first build', () => {
    buildSite({ DATA_FILE: fixture('listing-23.csv'), OUT_DIR: site, BASE_URL: 'https://cars.example.com' }, project);
    const changes = changesOf();
    expect(changes.previousDataSha256).toBeNull();
    expect(changes.rows.added).toHaveLength(23);
  });

  it('names rows added, removed and changed (with the fields), and every URL whose answer changed', () => {
    // Row 5's price changes, row 23 goes, row 24 comes: pages 1 and 3 change, page 2 does not.
    const lines = fixtureLines
      .filter((line) => !line.startsWith('23,'))
      .map((line) => (line.startsWith('5,') ? line.replace(',200000,', ',210000,') : line));
    lines.push(fixtureLines.at(-1)!.replace(/^23,/, '24,').replace('Model 23', 'Model 24').replaceAll(',123,', ',124,'));
    writeFileSync(edited, `${lines.join('\n')}\n`);
    const previous = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { data: { sha256: string } };
    const firstTimes = Object.fromEntries(
      ['car/api/capture_car/latest/page/1.json', 'car/api/capture_car/latest/page/2.json', 'page/2/index.html'].map((file) => [
        file,
        Math.floor(statSync(join(site, file)).mtimeMs),
      ]),
    );
    const result = runBuild(
      { DATA_FILE: edited, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, BASE_URL: 'https://cars.example.com' },
      project,
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /changes +\+1 −1 ~1 rows; 2 JSON and 4 HTML pages; downloads \/all\.json, \/all\.csv; \d+ search index files/,
    );
    const changes = changesOf();
    expect(changes.previousDataSha256).toBe(previous.data.sha256);
    expect(changes.rows).toEqual({ added: [24], removed: [23], changed: [{ id: 5, fields: ['min_price'] }] });
    const listing = 'https://cars.example.com/car/api/capture_car/latest';
    for (const url of [
      listing,
      `${listing}?page=1`,
      `${listing}?format=api&page=1`,
      `${listing}/page/1.json`,
      `${listing}?page=last`,
      `${listing}?format=api&page=3`,
      'https://cars.example.com/',
      'https://cars.example.com/page/3/',
      'https://cars.example.com/all.csv',
    ]) {
      expect(changes.urls, url).toContain(url);
    }
    expect(changes.urls.filter((url) => url.includes('page=2') || url.includes('page/2'))).toEqual([]);
    // Files whose bytes did not change keep their time (rsync -a, aws s3 sync); changed ones do not.
    expect(Math.floor(statSync(join(site, 'car/api/capture_car/latest/page/2.json')).mtimeMs)).toBe(
      firstTimes['car/api/capture_car/latest/page/2.json'],
    );
    expect(Math.floor(statSync(join(site, 'page/2/index.html')).mtimeMs)).toBe(firstTimes['page/2/index.html']);
    expect(Math.floor(statSync(join(site, 'car/api/capture_car/latest/page/1.json')).mtimeMs)).not.toBe(
      firstTimes['car/api/capture_car/latest/page/1.json'],
    );
  });

  it('publishes the schema of changes.json, which the file meets', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(site, 'schema/changes.schema.json'), 'utf8')) as object);
    expect(validate(changesOf()), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...changesOf(), urls: ['not a url'] })).toBe(false);
  });

  it('refuses to remove more than 20 % of the published rows, leaving the site as it is, unless told ALLOW_SHRINK=1', () => {
    writeFileSync(truncated, `${fixtureLines.slice(0, 11).join('\n')}\n`);
    const before = treeHashes(site);
    const refused = runBuild(
      { DATA_FILE: truncated, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, BASE_URL: 'https://cars.example.com' },
      project,
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('This build would remove 13 of the 23 published rows (57 %), more than 20 %');
    expect(refused.stderr).toContain('build again with ALLOW_SHRINK=1');
    expect(treeHashes(site)).toEqual(before);
    const allowed = runBuild(
      {
        DATA_FILE: truncated,
        OUT_DIR: site,
        DEPLOY_DIR: `${site}-deploy`,
        BASE_URL: 'https://cars.example.com',
        ALLOW_SHRINK: '1',
      },
      project,
    );
    expect(allowed.status).toBe(0);
    expect(changesOf().rows.removed).toHaveLength(13);
  });

  it('refuses an empty export over a published listing', () => {
    const result = runBuild({ DATA_FILE: fixture('good/header-only.csv'), OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` }, project);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('This build would remove 10 of the 10 published rows (100 %)');
  });
});
