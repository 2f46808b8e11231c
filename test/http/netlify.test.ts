/**
 * Netlify's own local server, `netlify dev --offline`, over the fixture build: with the generated
 * edge function it runs the whole behaviour suite.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { hasNetlifyCli, startNetlifyDev, type RunningHost } from '../support/hosts.ts';

const required = process.env['CI'] === 'true';
if (!hasNetlifyCli && !required) console.warn('netlify-cli is not installed: skipping the Netlify suite (npm ci --prefix test/hosts/netlify)');

describe.runIf(hasNetlifyCli || required)('Netlify with the generated edge function, on netlify dev', () => {
  let host: RunningHost | undefined;
  beforeAll(async () => {
    host = await startNetlifyDev(inject('deployDir'), 'netlify', inject('outDir'));
  });
  afterAll(async () => {
    await host?.stop();
  });

  listingBehaviour({ origin: () => host?.origin ?? '', outDir: inject('outDir'), baseUrl: inject('baseUrl'), differences: { ownStaticMethodNotAllowed: true } });
});
