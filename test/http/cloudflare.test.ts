/**
 * Cloudflare's own runtime: `wrangler dev --local` (workerd) with the generated worker and
 * wrangler.json over the fixture build runs the whole behaviour suite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { startWrangler, type RunningHost } from '../support/hosts.ts';

describe('Cloudflare Workers static assets with the generated worker, on workerd', () => {
  let host: RunningHost | undefined;
  beforeAll(async () => {
    host = await startWrangler(inject('deployDir'));
  });
  afterAll(async () => {
    await host?.stop();
  });

  it("starts with the generated compatibility date and reads none of the other hosts' files", () => {
    expect(host?.output()).toContain('Ready on');
    expect(host?.output()).not.toMatch(/_redirects|whitespace-separated|Valid status codes|compatibility date/i);
  });

  it("takes every rule of the shared _headers file, within Cloudflare's limit of 100", () => {
    const rules = readFileSync(join(inject('outDir'), '_headers'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('/'));
    expect(rules.length).toBeLessThanOrEqual(100);
    expect(host?.output()).toContain(`Parsed ${rules.length} valid header rules`);
  });

  it("keeps the other hosts' files out of the assets", async () => {
    for (const path of ['/vercel.json', '/.assetsignore']) expect((await fetch(`${host?.origin}${path}`)).status, path).toBe(404);
  });

  listingBehaviour({
    origin: () => host?.origin ?? '',
    outDir: inject('outDir'),
    baseUrl: inject('baseUrl'),
    differences: { ownStaticMethodNotAllowed: true, servesHostConfiguration: true },
  });
});
