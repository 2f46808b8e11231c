/**
 * Nothing bad gets in, nothing good is lost: every file of the bad corpus is refused by the real
 * build with a clear error and leaves the last good site byte-identical; valid data carrying HTML
 * and JavaScript comes out as inert text in the pages and exact strings in the JSON; a build killed
 * mid-way leaves the last good site as it was.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCsv } from '../../scripts/generate.ts';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import { ASTRO_BUILD, fixture, runBuild, tempDir, treeHashes, buildSite, projectCopy } from '../support/site.ts';

const workspace = tempDir('hostile');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
const site = join(workspace, 'dist');
let goodTree: Record<string, string>;

beforeAll(() => {
  buildSite({ DATA_FILE: fixture('listing-23.csv'), OUT_DIR: site }, project);
  goodTree = treeHashes(site);
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

type Expected = [line: number, field: string | null, rule: string][] | null;
const expected = JSON.parse(readFileSync(fixture('bad/expected.json'), 'utf8')) as Record<string, Expected>;
/**
 * Every file of the bad corpus goes through the loader in test/data/load.test.ts; through the real
 * build go one of each way a file fails: encoding, random bytes, a broken header, broken quoting,
 * broken rows, many problems at once, a hostile logo path.
 */
const THROUGH_THE_BUILD = [
  'encoding-big5.csv',
  'garbage-3mb.csv',
  'column-misspelt.csv',
  'quote-not-closed.csv',
  'row-too-short.csv',
  'many-problems.csv',
  'logo-javascript.csv',
];
const corpus = THROUGH_THE_BUILD.map((name) => [name, expected[name]] as const);

describe('bad files through the real build', () => {
  it('are files of the corpus', () => {
    expect(THROUGH_THE_BUILD.filter((name) => !(name in expected))).toEqual([]);
  });

  it.each(corpus)('%s: refused with file, line and field named; the last good site is byte-identical', (name, problems) => {
    const file = fixture(`bad/${name}`);
    const result = runBuild({ DATA_FILE: file, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` }, project);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Nothing was published');
    for (const [line, field, rule] of problems ?? [[1, null, 'is not UTF-8 text']]) {
      const where = line > 0 ? `${file}:${line}:` : `${file}:`;
      const report = result.stderr
        .split('\n')
        .find(
          (text) => text.startsWith(where) && text.includes(rule) && (!field || text.includes(`(${field})`) || text.includes(` ${field}:`)),
        );
      expect(report, `${where} ${field ?? ''} … ${rule}`).toBeDefined();
    }
    expect(treeHashes(site)).toEqual(goodTree);
  });
});

describe('valid data carrying HTML and JavaScript', () => {
  const payloadSite = join(workspace, 'payloads');
  beforeAll(() => buildSite({ DATA_FILE: fixture('good/html-payloads.csv'), OUT_DIR: payloadSite }, project));

  it('comes out as escaped text in the HTML, never as markup', () => {
    const html = readFileSync(join(payloadSite, 'index.html'), 'utf8');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot; onmouseover=&quot;alert(1)');
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&amp;amp; &amp;lt;b&amp;gt; &amp; &lt; &gt;');
    expect(html).not.toMatch(/<script>alert|<img src=x|<svg onload|onmouseover="alert/);
    // A make carrying markup, in the search form's make filter, rendered in the frame every listing
    // page is written in (Search.astro): text in the option, and in its quoted value, never an element.
    for (const file of ['index.html', 'page/2/index.html', 'zh-hk/index.html']) {
      const makeFilter = /<select id="search-make".*?<\/select>/s.exec(readFileSync(join(payloadSite, file), 'utf8'))?.[0] ?? '';
      const option = /<option value="<b>Make<\/b>"((?:\s[\w-]+="[^"]*")*)>([^<]*)<\/option>/.exec(makeFilter);
      expect(option?.[1]).toBe(' data-latin="<i>Brand</i>"');
      expect(option?.[2]).toMatch(/^&lt;i&gt;Brand&lt;\/i&gt; &lt;b&gt;Make&lt;\/b&gt;/);
      expect(makeFilter.replaceAll(/"[^"]*"/g, '""')).not.toMatch(/<(b|i)>/);
    }
    // The only scripts are the site's own module, from a file.
    expect(html.match(/<script\b[^>]*>/g)).toEqual([expect.stringMatching(/^<script type="module" src="\/_astro\/[^"]+\.js">$/)]);
  });

  it('comes out as the exact strings in the JSON', () => {
    const page = JSON.parse(readFileSync(join(payloadSite, 'car/api/capture_car/latest/page/1.json'), 'utf8')) as {
      results: { combined_car_model: string }[];
    };
    const names = page.results.map((result) => result.combined_car_model);
    expect(names).toContain('豐田 Toyota <script>alert("x")</script>');
    expect(names).toContain('豐田 Toyota {{constructor.constructor("alert(1)")()}}');
    expect(names).toContain('豐田 Toyota Line\u2028Separator\u2029Para');
    const raw = readFileSync(join(payloadSite, 'car/api/capture_car/latest/page/1.json'), 'utf8');
    expect(raw).toContain('Line\\u2028Separator\\u2029Para');
  });
});

describe('a build killed mid-way', () => {
  it('leaves the last good site intact, and the next build cleans up after it', async () => {
    const big = join(workspace, 'big.csv');
    await writeSyntheticCsv(big, 6000);
    const child = spawn(process.execPath, ASTRO_BUILD, {
      cwd: project,
      env: { ...cleanEnvironment(), DATA_FILE: big, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: 'ignore',
    });
    // The builds in the build store beside the site: the published one, and the killed one's.
    const store = join(workspace, '.dist.builds');
    const builds = () => readdirSync(store).filter((entry) => /^[0-9a-z]+-[0-9a-f]{8}$/.test(entry));
    const published = builds();
    // Kill it once Astro has started writing into its own build folder.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const folder = builds().find((entry) => !published.includes(entry));
      if (folder && existsSync(join(store, folder, 'site/_astro'))) break;
      await new Promise((wait) => setTimeout(wait, 20));
    }
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
    expect(builds()).toHaveLength(published.length + 1);
    expect(treeHashes(site)).toEqual(goodTree);

    // The next build removes the killed build's folder; whatever it cached is whole or absent (written aside, renamed, hashed).
    const next = runBuild({ DATA_FILE: fixture('listing-23.csv'), OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` }, project);
    expect(next.status, next.stderr).toBe(0);
    await expect.poll(() => builds().length).toBeLessThanOrEqual(2);
    expect(JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8'))).toMatchObject({ count: 23 });
  });
});
