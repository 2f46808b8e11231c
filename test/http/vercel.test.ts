/**
 * The generated Vercel Build Output over the fixture build, behind Vercel routing the project did
 * not write (`@cloudflare/next-on-pages`'s router, test/support/vercel-routing.ts), with Deployment
 * Protection on: the whole behaviour suite with the test client's credentials, and GET and HEAD of
 * a page answered by routes alone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import {
  hasVercelRouter,
  PROTECTION_BYPASS_HEADER,
  ROUTER_ENTRY,
  startVercelDeployment,
  type VercelDeployment,
} from '../support/vercel-routing.ts';
import { runsWith } from '../support/software.ts';

/** The test client's credential: the deployment refuses every request without it. */
const credentials = { [PROTECTION_BYPASS_HEADER]: 'test-client-secret' };

describe.runIf(runsWith(hasVercelRouter, 'the Vercel suite', '@cloudflare/next-on-pages', 'npm ci --prefix test/hosts/vercel'))(
  'Vercel Build Output with Deployment Protection, on the router of @cloudflare/next-on-pages',
  () => {
    let host: VercelDeployment | undefined;
    beforeAll(async () => {
      host = await startVercelDeployment(inject('deployDir'), credentials[PROTECTION_BYPASS_HEADER]);
    });
    afterAll(async () => {
      await host?.stop();
    });

    it(`finds the router where the harness expects it (${ROUTER_ENTRY.slice(ROUTER_ENTRY.indexOf('@cloudflare'))}, exporting handleRequest)`, () => {
      // startVercelDeployment loads it; an upgrade that moves or renames it fails here by name.
      expect(host).toBeDefined();
    });

    it('refuses every request without credentials, as a protected deployment does', async () => {
      for (const path of ['/', '/car/api/capture_car/latest?page=2', '/car/api/capture_car/latest/page/2.json']) {
        expect((await fetch(`${host?.origin}${path}`)).status).toBe(401);
      }
    });

    it('answers GET and HEAD of every form of a page from the static file, with no function run', async () => {
      const before = host?.functionCalls().length ?? 0;
      for (const path of ['', '?page=2', '?page=02', '?utm_source=x&page=2', '/page/2', '/page/2.json']) {
        for (const method of ['GET', 'HEAD']) {
          const response = await fetch(`${host?.origin}/car/api/capture_car/latest${path}`, { method, headers: credentials });
          expect(response.status).toBe(200);
        }
      }
      expect(host?.functionCalls().slice(before)).toEqual([]);
    });

    it('leaves the rest to the middleware, which rewrites to the page file rather than reading it', async () => {
      const before = host?.functionCalls().length ?? 0;
      const response = await fetch(`${host?.origin}/car/api/capture_car/latest?format=api&page=last`, { headers: credentials });
      expect(response.status).toBe(200);
      expect(host?.functionCalls().slice(before)).toEqual(['listing: GET /car/api/capture_car/latest?format=api&page=last']);
    });

    listingBehaviour({
      origin: () => host?.origin ?? '',
      outDir: inject('outDir'),
      baseUrl: inject('baseUrl'),
      credentials,
      differences: {
        ownStaticMethodNotAllowed: true,
        notModifiedWithoutETag: true,
        repeatedPageTakesFirst: true,
        servesHostConfiguration: true,
      },
    });
  },
);
