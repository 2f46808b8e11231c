/** No request reads outside the built site, bad requests get a 4xx, and the server keeps serving. */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rawExchange, rawRequest } from '../support/http.ts';

const origin = inject('origin');
/** A file beside the served site that no request may read. */
const SENTINEL = join(dirname(inject('outDir')), 'sentinel-secret.txt');
const SECRET = 'sentinel: this file is outside the site';
beforeAll(() => writeFileSync(SENTINEL, SECRET));
afterAll(() => rmSync(SENTINEL, { force: true }));
const stillServing = async () => {
  const response = await fetch(`${origin}/car/api/capture_car/latest?page=1`);
  expect(response.status).toBe(200);
};

describe('path traversal', () => {
  it.each([
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/..%2f..%2f..%2fetc%2fpasswd',
    '/assets/..%2f..%2f..%2f..%2fetc/passwd',
    '/%252e%252e/%252e%252e/etc/passwd',
    '/..%5c..%5c..%5cetc%5cpasswd',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/car/api/capture_car/latest/page/..%2f..%2f..%2f..%2f..%2fpackage.json',
    '/%00/etc/passwd',
    '/assets/media/brand/logo/toyota.svg%00.html',
    '/../sentinel-secret.txt',
    '/%2e%2e/sentinel-secret.txt',
    '/..%2fsentinel-secret.txt',
    '/.%2e/sentinel-secret.txt',
    '/%2e%2e%5csentinel-secret.txt',
    '/car/api/capture_car/latest/page/..%2f..%2f..%2f..%2f..%2fsentinel-secret.txt',
    '/car/api/capture_car/latest?page=../../../../../sentinel-secret.txt',
    '//sentinel-secret.txt',
  ])('%s gets a 4xx and no file from outside the site', async (target) => {
    const response = await rawRequest(origin, 'GET', target);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).not.toContain('root:');
    expect(response.body).not.toContain('"devDependencies"');
    expect(response.body).not.toContain(SECRET);
    await stillServing();
  });
});

describe('the absolute form a client sends through a proxy (RFC 9112, 3.2.2)', () => {
  it('is answered as its path and query', async () => {
    const page = await rawRequest(origin, 'GET', 'http://cars.example/car/api/capture_car/latest?page=2');
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body)).toMatchObject({ previous: expect.stringContaining('/car/api/capture_car/latest') });
    const bare = await rawRequest(origin, 'GET', 'http://cars.example?page=2');
    expect(bare.status).toBe(200);
    expect(bare.headers['content-type']).toMatch(/^text\/html/);
  });

  it.each([
    'http://cars.example/../sentinel-secret.txt',
    'http://cars.example/%2e%2e/sentinel-secret.txt',
    'http://cars.example/..%2fsentinel-secret.txt',
    'http://cars.example/assets/..%5c..%5csentinel-secret.txt',
  ])('%s is held to the same checks: a 4xx and no file from outside the site', async (target) => {
    const response = await rawRequest(origin, 'GET', target);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).not.toContain(SECRET);
    await stillServing();
  });
});

describe('malformed and oversized requests', () => {
  it('answers malformed percent-encoding with 400', async () => {
    expect((await rawRequest(origin, 'GET', '/%E0%A4%A')).status).toBe(400);
    expect((await rawRequest(origin, 'GET', '/car/api/capture_car/latest/%zz')).status).toBe(400);
    await stillServing();
  });

  it('answers a malformed query string as DRF would, without failing', async () => {
    const response = await rawRequest(origin, 'GET', '/car/api/capture_car/latest?page=%E0%A4%A');
    expect(response.status).toBe(404);
    expect(response.body).toBe('{"detail":"Invalid page."}');
  });

  it('answers a very long query string with 414', async () => {
    const response = await rawRequest(origin, 'GET', `/car/api/capture_car/latest?page=1&pad=${'x'.repeat(10_000)}`);
    expect(response.status).toBe(414);
    await stillServing();
  });

  it('answers oversized headers with 431', async () => {
    const line = await rawExchange(origin, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(40_000)}\r\n\r\n`);
    expect(line).toMatch(/^HTTP\/1\.1 431/);
    await stillServing();
  });

  it('answers a request that is not HTTP with 400', async () => {
    const line = await rawExchange(origin, 'HELLO THERE\r\n\r\n');
    expect(line).toMatch(/^HTTP\/1\.1 400/);
    await stillServing();
  });

  it("reads an absolute-form target's path inside the site: /etc/passwd is the site's 404", async () => {
    const line = await rawExchange(origin, 'GET http://evil.example/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(line).toMatch(/^HTTP\/1\.1 404/);
  });
});

describe('under load', () => {
  it('serves a bounded autocannon run on loopback with zero errors and zero non-2xx answers', async () => {
    const result = await autocannon({
      url: origin,
      connections: 8,
      duration: 3,
      requests: [
        { method: 'GET', path: '/car/api/capture_car/latest/page/2' },
        { method: 'GET', path: '/car/api/capture_car/latest?format=api&page=3' },
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/car/api/capture_car/latest?page=last' },
      ],
    });
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result['2xx']).toBeGreaterThan(500);
    await stillServing();
  });
});
