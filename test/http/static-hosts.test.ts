/**
 * The function-free configurations, each on the host's own software where it runs offline:
 * Netlify's redirect rules on `netlify dev --offline`, Vercel's `vercel.json` through
 * `@vercel/routing-utils`' own route list, `.htaccess` on Debian's apache2. Their answers to every
 * listing URL of the behaviour suite are compared with the origin's (the preview server over the
 * same build): the differences are asserted, one by one, and listed in README.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { differencesFrom } from '../support/differences.ts';
import { hasApache, hasNetlifyCli, startApache, startNetlifyDev, startVercelStatic, type RunningHost } from '../support/hosts.ts';
import { projectRoot } from '../support/site.ts';
import { runsWith } from '../support/software.ts';
import { EXPECTED } from './static-hosts.expected.ts';

const hosts: [keyof typeof EXPECTED, boolean, () => Promise<RunningHost>][] = [
  ['Netlify without functions (deploy/netlify-static on netlify dev)', runsWith(hasNetlifyCli, 'Netlify without functions', 'netlify-cli', 'npm ci --prefix test/hosts/netlify'), () => startNetlifyDev(inject('deployDir'), 'netlify-static', inject('outDir'))],
  ['Vercel without functions (vercel.json)', true, () => startVercelStatic(inject('outDir'))],
  ['Apache (.htaccess on apache2)', runsWith(hasApache, 'Apache', 'apache2', 'apt-get install apache2'), () => startApache(inject('outDir'))],
];

for (const [name, available, start] of hosts) {
  describe.runIf(available)(name, () => {
    let host: RunningHost | undefined;
    beforeAll(async () => {
      host = await start();
    });
    afterAll(async () => {
      await host?.stop();
    });

    it('answers every listing URL as the origin does, but for the differences README lists', async () => {
      const differences = await differencesFrom(inject('origin'), host?.origin ?? '', inject('outDir'));
      // What was measured, beside the screenshots, for README's per-host table.
      mkdirSync(join(projectRoot, 'test-results'), { recursive: true });
      writeFileSync(join(projectRoot, `test-results/differences-${name.split(' ')[0]!.toLowerCase()}.json`), `${JSON.stringify(differences, null, 2)}\n`);
      expect(differences).toEqual(EXPECTED[name]);
    });
  });
}
