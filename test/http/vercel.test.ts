/**
 * Vercel's edge runtime (`edge-runtime`) running the generated Build Output edge function, behind
 * the generated routes, over the fixture build: the whole behaviour suite.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { startVercelFunction, type RunningHost } from '../support/hosts.ts';

describe('Vercel with the generated edge function, on edge-runtime', () => {
  let host: RunningHost | undefined;
  beforeAll(async () => {
    host = await startVercelFunction(inject('deployDir'));
  });
  afterAll(async () => {
    await host?.stop();
  });

  listingBehaviour({ origin: () => host?.origin ?? '', outDir: inject('outDir'), baseUrl: inject('baseUrl'), differences: { ownStaticMethodNotAllowed: true } });
});
