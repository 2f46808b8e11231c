/**
 * `npm run dev` (astro dev with the listing integration) over real HTTP: the listing's URLs answer
 * as they do from the preview server, byte for byte against the fixture build, and the downloads,
 * search index and manifest are there.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { ASTRO_BUILD, fixture, projectRoot, tempDir, treeHashes, withoutBuildDescription } from '../support/site.ts';
import { cleanEnvironment, startDevServer, type RunningDevServer } from '../../scripts/lib/servers.ts';

describe('astro dev with the listing integration', () => {
  let dev: RunningDevServer | undefined;
  const outDir = inject('outDir');
  beforeAll(async () => {
    // The fixture build's configuration, so that every answer can be compared with its files.
    dev = await startDevServer({
      DATA_FILE: fixture('listing-23.csv'),
      BASE_URL: inject('baseUrl'),
      ASSETS_URL: `${inject('origin')}/assets`,
    });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  listingBehaviour({
    origin: () => dev?.origin ?? '',
    outDir,
    baseUrl: inject('baseUrl'),
    differences: { ownStaticMethodNotAllowed: true, noFingerprintedFiles: true, noBuildHistory: true },
  });

  it.each(['/all.json', '/all.csv', '/search/order/listing/0.json', '/search/order/name/0.json'])(
    'serves %s with the bytes the build publishes',
    async (path) => {
      const response = await fetch(`${dev!.origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(readFileSync(join(outDir, path.slice(1)), 'utf8'));
    },
  );

  it.each(['/', '/page/2/', '/zh-hk/', '/zh-hk/page/3/'])(
    'renders %s whole from the components, the body the build wrote from its frame',
    async (path) => {
      // Up to its scripts, whose addresses differ in dev (Vite serves the sources).
      const body = (html: string) => /<body>.*<\/body>/s.exec(html)?.[0].replaceAll(/<script[^>]*>.*?<\/script>/gs, '<script>');
      const built = body(readFileSync(join(outDir, path.slice(1), 'index.html'), 'utf8'));
      expect(built).toContain('<select id="search-make"');
      expect(built).toContain('<nav class="pagination"');
      expect(body(await (await fetch(`${dev!.origin}${path}`)).text())).toBe(built);
    },
  );

  it("serves a manifest as the build's, naming the preparation, with the hashes of the JSON pages and downloads the build writes", async () => {
    const response = await fetch(`${dev!.origin}/manifest.json`);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    type Manifest = { builtAt: string; buildId: string; changedBy: string; files: Record<string, string> };
    const { builtAt: _devTime, buildId, changedBy, files: servedFiles, ...served } = (await response.json()) as Manifest;
    const {
      builtAt: _buildTime,
      buildId: _buildId,
      changedBy: _changedBy,
      files: builtFiles,
      ...built
    } = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as Manifest;
    expect(served).toEqual(built);
    expect(buildId).toMatch(/^dev-[0-9a-f]{8}$/);
    expect(changedBy).toBe(buildId);
    const pagesAndDownloads = Object.fromEntries(
      Object.entries(builtFiles).filter(([path]) =>
        /^car\/api\/capture_car\/latest\/page\/\d+\.json$|^all\.(json|csv)$|^search\//.test(path),
      ),
    );
    expect(servedFiles).toEqual(pagesAndDownloads);
  });

  it('renders the HTML pages from the same data', async () => {
    const html = await (await fetch(`${dev!.origin}/page/3/`)).text();
    expect(html).toContain('Models 21–23 of 23');
  });

  it('runs beside a build: the build publishes what a build alone publishes, and dev goes on answering', async () => {
    const workspace = tempDir('dev-beside-build');
    try {
      const env = { DATA_FILE: fixture('listing-23.csv'), BASE_URL: inject('baseUrl'), ASSETS_URL: `${inject('origin')}/assets` };
      const site = join(workspace, 'site');
      // The build runs in its own process while dev keeps answering requests, one after another.
      const build = spawn(process.execPath, ASTRO_BUILD, {
        cwd: projectRoot,
        env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy` },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((done) => build.once('exit', done));
      let running = true;
      void exited.then(() => (running = false));
      const statuses: number[] = [];
      for (let page = 1; running; page = (page % 3) + 1)
        statuses.push((await fetch(`${dev!.origin}/car/api/capture_car/latest?page=${page}`)).status);
      expect(await exited).toBe(0);
      expect(statuses.length).toBeGreaterThan(5);
      expect(new Set(statuses)).toEqual(new Set([200]));
      const builtTree = withoutBuildDescription(treeHashes(site));
      const fixtureTree = withoutBuildDescription(treeHashes(outDir));
      expect(builtTree).toEqual(fixtureTree);
      const page = await fetch(`${dev!.origin}/car/api/capture_car/latest?page=3`);
      expect(await page.text()).toBe(readFileSync(join(outDir, 'car/api/capture_car/latest/page/3.json'), 'utf8'));
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
