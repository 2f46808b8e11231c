/**
 * linkinator crawls the whole built site of the embedded dataset through the real preview server:
 * every page, pagination link, JSON link, logo image, stylesheet, script, footer link and fragment.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { check, LinkState } from 'linkinator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSite, freePort, startPreview, tempDir, type RunningPreview, projectCopy } from '../support/site.ts';

const workspace = tempDir('links');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
let preview: RunningPreview | undefined;

beforeAll(async () => {
  const port = await freePort();
  const outDir = join(workspace, 'dist');
  // The default dataset, built for the address it is served at, so canonical URLs resolve too.
  buildSite({ DATA_FILE: 'data/captured-car-models.csv', OUT_DIR: outDir, BASE_URL: `http://127.0.0.1:${port}` }, project);
  preview = await startPreview({ OUT_DIR: outDir, PORT: String(port) });
});

afterAll(async () => {
  await preview?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

it('finds no broken link anywhere in the built site, logo images included', async () => {
  const origin = preview?.origin ?? '';
  const result = await check({ path: `${origin}/`, recurse: true, checkCss: true, checkFragments: true, concurrency: 8, timeout: 10_000 });
  const broken = result.links
    .filter((link) => link.state === LinkState.BROKEN)
    .map((link) => `${link.status} ${link.url} (on ${link.parent})`);
  expect(broken).toEqual([]);
  const checked = result.links.map((link) => new URL(link.url).pathname);
  expect(checked).toContain('/page/26/');
  // Each page links to its own JSON file, which answers on any host.
  expect(checked).toContain('/car/api/capture_car/latest/page/26.json');
  expect(checked.filter((path) => path.startsWith('/assets/media/brand/logo/')).length).toBeGreaterThanOrEqual(25);
  expect(checked).toContain('/openapi.json');
  expect(result.passed).toBe(true);
});

it('finds no broken link in the sitemap', async () => {
  const origin = preview?.origin ?? '';
  const result = await check({ path: `${origin}/`, sitemap: `${origin}/sitemap-index.xml`, concurrency: 8 });
  expect(result.links.filter((link) => link.state === LinkState.BROKEN)).toEqual([]);
  expect(result.links.length).toBeGreaterThanOrEqual(26);
});
