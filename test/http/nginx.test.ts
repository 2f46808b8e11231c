/**
 * The generated nginx configuration on a real nginx over the real fixture build, with the same
 * behaviour suite as the preview server. nginx's differences are asserted, not skipped:
 * it reads the query as sent, not percent-decoded, takes only digits as a page number (DRF's int()
 * also takes ' 2 ', '+2', '1_0'), and answers other methods on static files with its own 405.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawRequest } from '../support/http.ts';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { hasNginx, startNginx, type RunningNginx } from '../../scripts/lib/nginx.ts';
import { runsWith } from '../support/software.ts';

describe.runIf(runsWith(hasNginx, 'the nginx suite', 'nginx', 'apt-get install nginx'))('nginx with the generated configuration', () => {
  let nginx: RunningNginx | undefined;
  beforeAll(async () => {
    nginx = await startNginx(inject('deployDir'));
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  listingBehaviour({
    origin: () => nginx?.origin ?? '',
    outDir: inject('outDir'),
    baseUrl: inject('baseUrl'),
    differences: { onlyDigitPages: true, undecodedQuery: true, ownStaticMethodNotAllowed: true },
  });

  it("gzips the pages, their CSS and script, the logos and the downloads with Vary, and never the listing's answers", async () => {
    const outDir = inject('outDir');
    const assets = readdirSync(join(outDir, '_astro')).map((name) => `/_astro/${name}`);
    for (const path of [
      '/',
      '/page/2/',
      ...assets,
      '/assets/media/brand/logo/toyota.svg',
      '/all.json',
      '/all.csv',
      '/search/order/listing/0.json',
    ]) {
      const response = await rawRequest(nginx?.origin ?? '', 'GET', path, { 'Accept-Encoding': 'gzip' });
      expect(response.headers['content-encoding'], path).toBe('gzip');
      expect(response.headers['vary'], path).toBe('Accept-Encoding');
      expect(gunzipSync(response.bytes).equals(readFileSync(join(outDir, path.endsWith('/') ? `${path}index.html` : path))), path).toBe(
        true,
      );
    }
    const csv = await rawRequest(nginx?.origin ?? '', 'HEAD', '/all.csv', {});
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const listing = '/car/api/capture_car/latest';
    for (const target of [
      listing,
      `${listing}?page=2`,
      `${listing}/page/2`,
      `${listing}/page/2.json`,
      `${listing}?page=99`,
      `${listing}/nothing`,
    ]) {
      const response = await rawRequest(nginx?.origin ?? '', 'GET', target, { 'Accept-Encoding': 'gzip' });
      expect(response.headers['content-encoding'], target).toBeUndefined();
      expect(response.headers['vary'], target).toBe('Accept');
    }
  });
});
