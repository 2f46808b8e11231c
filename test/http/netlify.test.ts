/**
 * Netlify's own local server, `netlify dev --offline`, over the fixture build: with the generated
 * edge function it runs the whole behaviour suite, open and behind site protection (modelled in
 * front of it: a request without the credential gets 401, the test client has it).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import {
  hasNetlifyCli,
  NETLIFY_DEV_CACHE_CONTROL,
  netlifyHeadersFor,
  startNetlifyDev,
  startProtection,
  type RunningHost,
} from '../support/hosts.ts';
import { FINGERPRINTED_HEADERS, siteHeaders } from '../../src/listing/routes.ts';
import { runsWith } from '../support/software.ts';

/** The test client's credential for the protected site (Basic auth, as Netlify's basic password protection asks). */
const credential = { name: 'Authorization', value: `Basic ${Buffer.from('reviewer:secret').toString('base64')}` };

describe.runIf(runsWith(hasNetlifyCli, 'the Netlify suite', 'netlify-cli', 'npm ci --prefix test/hosts/netlify'))(
  'Netlify with the generated edge function, on netlify dev',
  () => {
    let host: RunningHost | undefined;
    let protectedHost: RunningHost | undefined;
    beforeAll(async () => {
      host = await startNetlifyDev(inject('deployDir'), 'netlify', inject('outDir'));
      protectedHost = await startProtection(host, credential);
    });
    afterAll(async () => {
      await protectedHost?.stop();
      await host?.stop();
    });

    describe('open', () => {
      listingBehaviour({
        origin: () => host?.origin ?? '',
        outDir: inject('outDir'),
        baseUrl: inject('baseUrl'),
        differences: { ownStaticMethodNotAllowed: true, ownCacheControl: NETLIFY_DEV_CACHE_CONTROL, servesHostConfiguration: true },
      });
    });

    describe('behind site protection', () => {
      it('refuses a request without the credential', async () => {
        expect((await fetch(`${protectedHost?.origin}/car/api/capture_car/latest?page=2`)).status).toBe(401);
      });

      listingBehaviour({
        origin: () => protectedHost?.origin ?? '',
        outDir: inject('outDir'),
        baseUrl: inject('baseUrl'),
        credentials: { [credential.name]: credential.value },
        differences: { ownStaticMethodNotAllowed: true, ownCacheControl: NETLIFY_DEV_CACHE_CONTROL, servesHostConfiguration: true },
      });
    });

    it("gives the fingerprinted files Cache-Control immutable in _headers, as Netlify's own parser reads it", async () => {
      const headersFile = join(inject('outDir'), '_headers');
      for (const name of readdirSync(join(inject('outDir'), '_astro'))) {
        expect(await netlifyHeadersFor(headersFile, `/_astro/${name}`)).toMatchObject({
          ...siteHeaders(),
          ...FINGERPRINTED_HEADERS,
          'Content-Security-Policy': expect.any(String),
        });
      }
      expect(await netlifyHeadersFor(headersFile, '/')).not.toHaveProperty('Cache-Control');
    });
  },
);
