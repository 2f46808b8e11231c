/**
 * The function-free configurations, each on the host's own software where it runs offline:
 * Netlify's redirect rules on `netlify dev --offline`, Vercel's `vercel.json` through
 * `@vercel/routing-utils`' own route list, `.htaccess` on Debian's apache2. Their answers to every
 * listing URL of the behaviour suite are compared with the origin's (the preview server over the
 * same build): the differences are asserted, one by one, and listed in docs/hosting.md.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { differencesFrom } from '../support/differences.ts';
import {
  hasApache,
  hasNetlifyCli,
  NETLIFY_DEV_CACHE_CONTROL,
  startApache,
  startNetlifyDev,
  startVercelStatic,
  type RunningHost,
} from '../support/hosts.ts';
import { expectFirstPageRedirects } from '../support/listing-behaviour.ts';
import { projectRoot } from '../support/site.ts';
import { runsWith } from '../support/software.ts';
import { EXPECTED } from './static-hosts.expected.ts';
import { FINGERPRINTED_HEADERS } from '../../src/listing/routes.ts';

/** Each host: its name, whether it can run here, how it starts, and the Cache-Control its local server puts over the configuration's. */
const hosts: [keyof typeof EXPECTED, boolean, () => Promise<RunningHost>, string?][] = [
  [
    'Netlify without functions (deploy/netlify-static on netlify dev)',
    runsWith(hasNetlifyCli, 'Netlify without functions', 'netlify-cli', 'npm ci --prefix test/hosts/netlify'),
    () => startNetlifyDev(inject('deployDir'), 'netlify-static', inject('outDir')),
    NETLIFY_DEV_CACHE_CONTROL,
  ],
  ['Vercel without functions (vercel.json)', true, () => startVercelStatic(inject('outDir'))],
  [
    'Apache (.htaccess on apache2)',
    runsWith(hasApache, 'Apache', 'apache2', 'apt-get install apache2'),
    () => startApache(inject('outDir')),
  ],
];

for (const [name, available, start, ownCacheControl] of hosts) {
  describe.runIf(available)(name, () => {
    let host: RunningHost | undefined;
    beforeAll(async () => {
      host = await start();
    });
    afterAll(async () => {
      await host?.stop();
    });

    it('answers every listing URL as the origin does, but for the differences docs/hosting.md lists', async () => {
      const differences = await differencesFrom(inject('origin'), host?.origin ?? '', inject('outDir'));
      // What was measured, beside the screenshots, for docs/hosting.md's per-host table.
      mkdirSync(join(projectRoot, 'test-results'), { recursive: true });
      writeFileSync(
        join(projectRoot, `test-results/differences-${name.split(' ')[0]!.toLowerCase()}.json`),
        `${JSON.stringify(differences, null, 2)}\n`,
      );
      expect(differences).toEqual(EXPECTED[name]);
    });

    it('sends page 1 by its number to the home page of its language, the query kept', async () => {
      await expectFirstPageRedirects((path, init) => fetch(`${host?.origin ?? ''}${path}`, init), {
        dropsTrailingSlash: name.startsWith('Vercel'),
      });
    });

    // netlify dev's own Cache-Control is asserted as such; Netlify's parser reads the rule in netlify.test.ts.
    it('marks the fingerprinted files (/_astro/) immutable for a year', async () => {
      for (const name of readdirSync(join(inject('outDir'), '_astro'))) {
        const response = await fetch(`${host?.origin ?? ''}/_astro/${name}`);
        expect(response.status, name).toBe(200);
        expect(response.headers.get('cache-control'), name).toBe(ownCacheControl ?? FINGERPRINTED_HEADERS['Cache-Control']);
      }
      expect((await fetch(`${host?.origin ?? ''}/`)).headers.get('cache-control') ?? '').not.toContain('immutable');
    });
  });
}
