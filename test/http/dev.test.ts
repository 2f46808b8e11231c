/**
 * `npm run dev` (astro dev with the listing integration) over real HTTP: the listing's URLs answer
 * as they do from the preview server, byte for byte against the fixture build, and the downloads,
 * search index and manifest are there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { fixture } from '../support/site.ts';
import { startDevServer, type RunningDevServer } from '../../scripts/lib/servers.ts';

describe('astro dev with the listing integration', () => {
  let dev: RunningDevServer | undefined;
  const outDir = inject('outDir');
  beforeAll(async () => {
    // The fixture build's configuration, so that every answer can be compared with its files.
    dev = await startDevServer({ DATA_FILE: fixture('listing-23.csv'), BASE_URL: inject('baseUrl'), ASSETS_URL: `${inject('origin')}/assets` });
  });
  afterAll(async () => {
    await dev?.stop();
  });

  listingBehaviour({ origin: () => dev?.origin ?? '', outDir, baseUrl: inject('baseUrl'), differences: { ownStaticMethodNotAllowed: true } });

  it.each(['/all.json', '/all.csv', '/search-index.json'])('serves %s with the bytes the build publishes', async (path) => {
    const response = await fetch(`${dev!.origin}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(join(outDir, path.slice(1)), 'utf8'));
  });

  it('serves a manifest with the hashes of the pages the build writes', async () => {
    const response = await fetch(`${dev!.origin}/manifest.json`);
    const { builtAt: _devTime, ...served } = (await response.json()) as Record<string, unknown>;
    const { builtAt: _buildTime, ...built } = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(served).toEqual(built);
  });

  it('renders the HTML pages from the same data', async () => {
    const html = await (await fetch(`${dev!.origin}/page/3/`)).text();
    expect(html).toContain('Models 21–23 of 23');
  });
});
