/**
 * Netlify's own local server, `netlify dev --offline`, over the fixture build: with the generated
 * edge function it runs the whole behaviour suite.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { hasNetlifyCli, NETLIFY_DEV_CACHE_CONTROL, netlifyHeadersFor, startNetlifyDev, type RunningHost } from '../support/hosts.ts';
import { FINGERPRINTED_HEADERS, siteHeaders } from '../../src/listing/routes.ts';

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

  listingBehaviour({
    origin: () => host?.origin ?? '',
    outDir: inject('outDir'),
    baseUrl: inject('baseUrl'),
    differences: { ownStaticMethodNotAllowed: true, ownCacheControl: NETLIFY_DEV_CACHE_CONTROL },
  });

  it("gives the fingerprinted files Cache-Control immutable in _headers, as Netlify's own parser reads it", async () => {
    const headersFile = join(inject('outDir'), '_headers');
    for (const name of readdirSync(join(inject('outDir'), '_astro'))) {
      expect(await netlifyHeadersFor(headersFile, `/_astro/${name}`)).toMatchObject({ ...siteHeaders(), ...FINGERPRINTED_HEADERS, 'Content-Security-Policy': expect.any(String) });
    }
    expect(await netlifyHeadersFor(headersFile, '/')).not.toHaveProperty('Cache-Control');
  });
});
