/**
 * The preview server as a CDN would be, over real HTTP (node:http: nothing negotiated or decoded
 * behind the test's back): the site's files compressed by Accept-Encoding with Vary, HEAD as GET,
 * ETag and 304 right, ranges of the file's bytes; the listing API's answers exactly the origin's,
 * whatever the client accepts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { rawRequest, type RawResponse } from '../support/http.ts';

const origin = inject('origin');
const outDir = inject('outDir');
const LISTING = '/car/api/capture_car/latest';
const BROWSER_ACCEPTS = 'gzip, deflate, br, zstd';

const fileOf = (path: string) => readFileSync(join(outDir, path.endsWith('/') ? `${path}index.html` : path));
const asset = (extension: string) => `/_astro/${readdirSync(join(outDir, '_astro')).find((name) => name.endsWith(extension))}`;
const decoded = ({ headers, bytes }: RawResponse) =>
  headers['content-encoding'] === 'br' ? brotliDecompressSync(bytes) : headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes;
const varyOf = (response: RawResponse) => String(response.headers['vary'] ?? '').split(/\s*,\s*/);
/** The headers that describe the answer, without the ones that change with each request. */
const described = ({ headers }: RawResponse) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date' && name !== 'connection' && name !== 'keep-alive'));

describe('the site files, compressed as a CDN would', () => {
  const compressible = () => [
    '/',
    '/page/2/',
    asset('.css'),
    asset('.js'),
    '/assets/media/brand/logo/toyota.svg',
    '/all.json',
    '/all.csv',
    '/search/order/listing/0.json',
    '/openapi.json',
    '/sitemap-0.xml',
  ];

  it('sends brotli or gzip as Accept-Encoding asks, with Vary: Accept-Encoding, and the file as it is otherwise', async () => {
    for (const path of compressible()) {
      const file = fileOf(path);
      for (const [accept, encoding] of [
        [BROWSER_ACCEPTS, 'br'],
        ['gzip', 'gzip'],
        ['gzip;q=0.5, br;q=0.1', 'gzip'],
        ['identity', undefined],
        ['br;q=0, gzip;q=0', undefined],
      ] as const) {
        const response = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': accept });
        expect(response.status, path).toBe(200);
        expect(response.headers['content-encoding'], `${path} (${accept})`).toBe(encoding);
        expect(varyOf(response), path).toContain('Accept-Encoding');
        expect(decoded(response).equals(file), `${path} (${accept})`).toBe(true);
        if (encoding) {
          expect(response.bytes.length, path).toBeLessThan(file.length);
          expect(response.headers['content-length'], path).toBeUndefined();
        } else expect(response.headers['content-length'], path).toBe(String(file.length));
      }
      const none = await rawRequest(origin, 'GET', path);
      expect(none.headers['content-encoding'], path).toBeUndefined();
      expect(none.bytes.equals(file), path).toBe(true);
    }
  });

  it('saves most of the home page: gzip and brotli to under a third', async () => {
    const file = fileOf('/');
    for (const encoding of ['gzip', 'br']) {
      const response = await rawRequest(origin, 'GET', '/', { 'Accept-Encoding': encoding });
      expect(response.bytes.length).toBeLessThan(file.length / 3);
    }
  });

  it('answers HEAD with the headers of GET', async () => {
    for (const accept of [BROWSER_ACCEPTS, 'identity']) {
      for (const path of ['/', asset('.css'), '/all.json']) {
        const get = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': accept });
        const head = await rawRequest(origin, 'HEAD', path, { 'Accept-Encoding': accept });
        expect(head.bytes.length).toBe(0);
        const { 'transfer-encoding': chunked, ...getHeaders } = described(get);
        expect(chunked === undefined || chunked === 'chunked').toBe(true);
        expect(described(head), `HEAD ${path} (${accept})`).toEqual(getHeaders);
      }
    }
  });

  it('gives a compressed answer a weak ETag that revalidates with 304, and the file its strong one', async () => {
    for (const path of ['/', asset('.js')]) {
      const compressed = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': 'gzip' });
      const identity = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': 'identity' });
      const strong = String(identity.headers['etag']);
      expect(strong).toMatch(/^"[0-9a-f]+"$/);
      expect(compressed.headers['etag']).toBe(`W/${strong}`);
      expect(compressed.headers['accept-ranges']).toBeUndefined();
      expect(identity.headers['accept-ranges']).toBe('bytes');
      for (const [tag, accept] of [
        [`W/${strong}`, 'gzip'],
        [strong, 'identity'],
        [strong, 'br'],
      ]) {
        const again = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': accept!, 'If-None-Match': tag! });
        expect(again.status, `${path} If-None-Match ${tag} (${accept})`).toBe(304);
        expect(again.bytes.length).toBe(0);
      }
      const changed = await rawRequest(origin, 'GET', path, { 'Accept-Encoding': 'gzip', 'If-None-Match': 'W/"0123"' });
      expect(changed.status).toBe(200);
    }
  });

  it('answers a Range request with the bytes of the file itself', async () => {
    const response = await rawRequest(origin, 'GET', '/all.json', { 'Accept-Encoding': BROWSER_ACCEPTS, Range: 'bytes=0-9' });
    expect(response.status).toBe(206);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-range']).toBe(`bytes 0-9/${fileOf('/all.json').length}`);
    expect(response.bytes.equals(fileOf('/all.json').subarray(0, 10))).toBe(true);
    expect(varyOf(response)).toContain('Accept-Encoding');
  });
});

describe('the listing API, exactly the origin whatever the client accepts', () => {
  const targets = [
    LISTING,
    `${LISTING}?page=2`,
    `${LISTING}?page=last&format=json`,
    `${LISTING}/page/2`,
    `${LISTING}/page/2.json`,
    `${LISTING}?page=99`,
    `${LISTING}?format=xml`,
    `${LISTING}/nothing`,
  ];

  it('sends no Content-Encoding, keeps Vary: Accept and the same headers and bytes as to a client that accepts nothing', async () => {
    for (const target of targets) {
      for (const method of ['GET', 'HEAD', 'OPTIONS']) {
        const plain = await rawRequest(origin, method, target);
        for (const accept of [BROWSER_ACCEPTS, 'gzip', 'br']) {
          const response = await rawRequest(origin, method, target, { 'Accept-Encoding': accept });
          expect(response.headers['content-encoding'], `${method} ${target}`).toBeUndefined();
          expect(response.headers['vary'], `${method} ${target}`).toBe('Accept');
          expect(described(response), `${method} ${target} (${accept})`).toEqual(described(plain));
          expect(response.bytes.equals(plain.bytes), `${method} ${target}`).toBe(true);
        }
      }
    }
    const page = await rawRequest(origin, 'GET', `${LISTING}?page=2`, { 'Accept-Encoding': BROWSER_ACCEPTS });
    expect(page.bytes.equals(fileOf(`${LISTING.slice(1)}/page/2.json`))).toBe(true);
    expect(page.headers['content-length']).toBe(String(page.bytes.length));
  });
});
