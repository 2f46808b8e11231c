/**
 * The listing's HTTP behaviour as a client sees it, as one suite that runs against every real server
 * that answers the listing's URLs itself: the preview server (test/http/listing.test.ts), `npm run
 * dev` (dev.test.ts), and the hosts' own software with the generated configuration: nginx
 * (nginx.test.ts), Cloudflare's workerd (cloudflare.test.ts), `netlify dev` with the edge function,
 * open and behind site protection (netlify.test.ts), and the Vercel Build Output behind Deployment
 * Protection (vercel.test.ts). Where a host cannot behave as the origin does, the host's own
 * behaviour is asserted instead and the difference is named. The function-free configurations
 * (Apache, Netlify's and Vercel's static variants) are compared with the origin answer by answer in
 * test/http/static-hosts.test.ts instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawRequest } from './http.ts';
import { FINGERPRINTED_HEADERS } from '../../src/listing/routes.ts';

interface HostDifferences {
  /** nginx's $arg_page is the first `page` parameter; DRF reads the last. */
  repeatedPageTakesFirst?: boolean;
  /** Only digits (with leading zeros) name a page; DRF's int() also takes ' 2 ', '+2' and '1_0'. */
  onlyDigitPages?: boolean;
  /** The query's names and values are read as sent, not percent-decoded (`?page=%33` is no page). */
  undecodedQuery?: boolean;
  /** Some of the hosts' files in the site are served as files: its own error bodies, or the other hosts' files (no rule of the host's refuses them). */
  servesHostConfiguration?: boolean;
  /** Other methods on static files get the host's own 405, without our Allow header. */
  ownStaticMethodNotAllowed?: boolean;
  /** `astro dev` serves the sources as they are: there are no fingerprinted files. */
  noFingerprintedFiles?: boolean;
  /** `astro dev` builds nothing: there is no history of builds (`changes.json`). */
  noBuildHistory?: boolean;
  /** The host's local server sends this Cache-Control on every file, over the configuration's (`netlify dev`). */
  ownCacheControl?: string;
  /** The static files' server sends a 304 without the tag (serve-handler, standing in for Vercel's file server). */
  notModifiedWithoutETag?: boolean;
}

export interface ListingTarget {
  /** The server's origin; read when the tests run. */
  origin: () => string;
  outDir: string;
  baseUrl: string;
  differences?: HostDifferences;
  /** Headers sent with every request: the credentials of a protected deployment. */
  credentials?: Record<string, string>;
}

export function listingBehaviour(target: ListingTarget): void {
  const { outDir, baseUrl } = target;
  const differences = target.differences ?? {};
  const LISTING = '/car/api/capture_car/latest';
  const pageBytes = (page: number) => readFileSync(join(outDir, `car/api/capture_car/latest/page/${page}.json`), 'utf8');
  const credentials = target.credentials ?? {};
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${target.origin()}${path}`, { ...init, headers: { ...credentials, ...(init.headers as Record<string, string> | undefined) } });
  const raw = (method: string, path: string) => rawRequest(target.origin(), method, path, credentials);

  interface Envelope {
    count: number;
    next: string | null;
    previous: string | null;
    results: { id: number; combined_car_model: string; logo: string | null; min_price: number }[];
  }

  function expectListingHeaders(response: Response): void {
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  }

  describe('GET the listing', () => {
    it('answers the bare path with page 1: the envelope with count, next, previous and 10 results', async () => {
      const response = await get(LISTING);
      expect(response.status).toBe(200);
      expectListingHeaders(response);
      const text = await response.text();
      expect(text).toBe(pageBytes(1));
      const page = JSON.parse(text) as Envelope;
      expect(Object.keys(page)).toEqual(['count', 'next', 'previous', 'results']);
      expect(page.count).toBe(23);
      expect(page.previous).toBeNull();
      expect(page.next).toBe(`${baseUrl}${LISTING}?format=api&page=2`);
      expect(page.results).toHaveLength(10);
    });

    it.each([
      ['?page=2'],
      ['?format=api&page=2'],
      ['?page=2&format=api'],
      ['?format=json&page=2'],
      ['?page=2&format=json'],
      ['?page=02'],
      ['?utm_source=x&page=2'],
      ['/page/2'],
      ['/page/2.json'],
    ])('answers %s with the same page 2', async (suffix) => {
      const response = await get(`${LISTING}${suffix}`);
      expect(response.status).toBe(200);
      expectListingHeaders(response);
      expect(await response.text()).toBe(pageBytes(2));
    });

    it("reads a repeated page parameter as DRF does (the last wins), or states the host's difference", async () => {
      const response = await get(`${LISTING}?page=1&page=2`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(pageBytes(differences.repeatedPageTakesFirst ? 1 : 2));
    });

    it.each([['?page=%202%20'], ['?page=%2B2'], ['?page=0_2']])(
      "reads %s as Python int() does, or states the host's difference",
      async (suffix) => {
        const response = await get(`${LISTING}${suffix}`);
        if (differences.onlyDigitPages) {
          expect(response.status).toBe(404);
          expect(await response.text()).toBe('{"detail":"Invalid page."}');
        } else {
          expect(response.status).toBe(200);
          expect(await response.text()).toBe(pageBytes(2));
        }
      },
    );

    it("reads a percent-encoded page as DRF does, or states the host's difference", async () => {
      const response = await get(`${LISTING}?p%61ge=%33`);
      if (differences.undecodedQuery) {
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(pageBytes(1));
      } else {
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(pageBytes(3));
      }
    });

    it('reads parameter names case-sensitively, as DRF does: PAGE is not page', async () => {
      const response = await get(`${LISTING}?PAGE=3&Page=2`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(pageBytes(1));
      const format = await get(`${LISTING}?FORMAT=xml&page=2`);
      expect(format.status).toBe(200);
      expect(await format.text()).toBe(pageBytes(2));
    });

    it('reads the last of repeated format parameters, as DRF does', async () => {
      const unknownLast = await get(`${LISTING}?format=json&format=xml`);
      expect(unknownLast.status).toBe(404);
      expect(await unknownLast.text()).toBe('{"detail":"Not found."}');
      const knownLast = await get(`${LISTING}?format=xml&format=json&page=2`);
      expect(knownLast.status).toBe(200);
      expect(await knownLast.text()).toBe(pageBytes(2));
    });

    it.each([[''], ['?page='], ['?page'], ['?format=api'], ['?format=json'], ['?format=']])('answers %j with page 1', async (suffix) => {
      const response = await get(`${LISTING}${suffix}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(pageBytes(1));
    });

    it('answers page=last with the last page, which holds the remaining 3 entries and a null next', async () => {
      const response = await get(`${LISTING}?page=last`);
      expect(response.status).toBe(200);
      const page = JSON.parse(await response.text()) as Envelope;
      expect(page.next).toBeNull();
      expect(page.previous).toBe(`${baseUrl}${LISTING}?format=api&page=2`);
      expect(page.results.map((result) => result.id)).toEqual([21, 22, 23]);
    });

    it('chains next from the first page to the last and previous back, with the same count on every page', async () => {
      const seen: number[] = [];
      let link: string | null = `${baseUrl}${LISTING}?format=api&page=1`;
      let last: Envelope | undefined;
      while (link) {
        const url = new URL(link);
        expect(url.origin).toBe(baseUrl);
        const page: Envelope = JSON.parse(await (await get(`${url.pathname}${url.search}`)).text()) as Envelope;
        expect(page.count).toBe(23);
        seen.push(...page.results.map((result) => result.id));
        last = page;
        link = page.next;
      }
      expect(seen).toEqual(Array.from({ length: 23 }, (_, index) => index + 1));
      let back = last?.previous ?? null;
      let steps = 0;
      while (back) {
        const url = new URL(back);
        back = (JSON.parse(await (await get(`${url.pathname}${url.search}`)).text()) as Envelope).previous;
        steps += 1;
      }
      expect(steps).toBe(2);
    });

    it('writes the JSON as the origin does: compact, raw UTF-8, Python floats, U+2028 escaped, logos absolute or null', async () => {
      const text = await (await get(LISTING)).text();
      expect(text).not.toMatch(/": |, "/);
      expect(text).toContain('"combined_car_model":"<script>alert(\\"xss\\")</script> & \\"Quotes\\""');
      expect(text).toContain('"combined_car_model":"凌志 Lexus LM 350h\\u2028Line"');
      expect(text).toContain('"min_price":549000.0,"max_price":1234567.5');
      expect(text).toContain('"min_price":1791700.99');
      expect(text).toMatch(/"logo":"http:\/\/127\.0\.0\.1:\d+\/assets\/media\/brand\/logo\/toyota\.svg"/);
      const page = JSON.parse(text) as Envelope;
      expect(page.results[0]?.logo).toBeNull();
    });

    it('adds RFC 8288 Link headers to the neighbouring pages', async () => {
      const response = await get(`${LISTING}?page=2`);
      expect(response.headers.get('link')).toBe(
        `<${baseUrl}${LISTING}?format=api&page=3>; rel="next", <${baseUrl}${LISTING}?format=api&page=1>; rel="prev"`,
      );
    });

    it('answers If-None-Match with 304 Not Modified', async () => {
      const first = await get(`${LISTING}?page=2`);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      const again = await get(`${LISTING}/page/2`, { headers: { 'If-None-Match': etag ?? '' } });
      expect(again.status).toBe(304);
      // No representation, so no Content-Type (RFC 9110, 15.4.5); the tag again.
      expect(again.headers.get('content-type')).toBeNull();
      expect(again.headers.get('etag')).toBe(differences.notModifiedWithoutETag ? null : etag);
    });

    it('lets a script on another origin read the answers and their ETag and Link headers; caches keep a page a short while', async () => {
      const response = await get(`${LISTING}?page=2`);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe('ETag, Link');
      expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=60');
    });
  });

  describe('pages that do not exist', () => {
    it.each([
      '?page=0',
      '?page=-1',
      '?page=abc',
      '?page=1.5',
      '?page=2.0',
      '?page=4',
      '?page=99999999999999999999',
      '?page=LAST',
      '/page/0',
      '/page/4',
      '/page/abc',
      '/page/01',
    ])('%s → 404 {"detail":"Invalid page."}', async (suffix) => {
      const response = await get(`${LISTING}${suffix}`);
      expect(response.status).toBe(404);
      expectListingHeaders(response);
      expect(await response.text()).toBe('{"detail":"Invalid page."}');
    });

    it.each(['?format=xml', '?format=xml&page=2', '?page=99&format=yaml', '?format=JSON'])(
      '%s → 404 {"detail":"Not found."}',
      async (suffix) => {
        const response = await get(`${LISTING}${suffix}`);
        expect(response.status).toBe(404);
        expectListingHeaders(response);
        expect(await response.text()).toBe('{"detail":"Not found."}');
      },
    );

    it('answers other paths under the listing with Not found', async () => {
      const response = await get(`${LISTING}/detail/1`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('{"detail":"Not found."}');
    });

    it.each([['/index.html'], ['/page/2/index.html'], ['/page/2.html'], ['/page/2.htm']])(
      'answers %s under the listing with a 404, not a page',
      async (suffix) => {
        const response = await get(`${LISTING}${suffix}`);
        expect(response.status).toBe(404);
        expect(await response.text()).toMatch(/^\{"detail":"(?:Not found|Invalid page)\."\}$/);
      },
    );
  });

  describe('methods', () => {
    it('answers HEAD with the status and headers of GET and no body', async () => {
      // Uncompressed, as a host that compresses (workerd) drops the length of what it compresses.
      const identity = { 'Accept-Encoding': 'identity' };
      const get_ = await get(`${LISTING}?page=2`, { headers: identity });
      const head = await get(`${LISTING}?page=2`, { method: 'HEAD', headers: identity });
      expect(get_.headers.get('content-length')).toBe(String(Buffer.byteLength(pageBytes(2))));
      expect(head.status).toBe(200);
      expectListingHeaders(head);
      expect(head.headers.get('content-length')).toBe(get_.headers.get('content-length'));
      expect(await head.text()).toBe('');
      const missing = await get(`${LISTING}?page=9`, { method: 'HEAD' });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe('');
    });

    it("answers OPTIONS with DRF's metadata", async () => {
      const response = await get(LISTING, { method: 'OPTIONS' });
      expect(response.status).toBe(200);
      expectListingHeaders(response);
      expect(await response.text()).toBe(
        '{"name":"Capture Car Latest","description":"","renders":["application/json","text/html"],' +
          '"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}',
      );
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'])('answers %s with 405 naming the method', async (method) => {
      const response = await raw(method, `${LISTING}?page=1`);
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.body).toBe(`{"detail":"Method \\"${method}\\" not allowed."}`);
    });

    it.each([['/page/2'], ['/page/02'], ['/page/x']])('answers POST %s with 405 too', async (suffix) => {
      const response = await raw('POST', `${LISTING}${suffix}`);
      expect(response.status).toBe(405);
      expect(response.body).toBe('{"detail":"Method \\"POST\\" not allowed."}');
    });

    it('answers an unknown format before the method, as DRF does', async () => {
      const response = await raw('POST', `${LISTING}?format=xml`);
      expect(response.status).toBe(404);
      expect(response.body).toBe('{"detail":"Not found."}');
    });
  });

  describe('the rest of the site', () => {
    it('sends security headers with the HTML pages, and a CSP they satisfy (checked in the browser suite)', async () => {
      const response = await get('/');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('content-security-policy')).toMatch(
        /default-src 'self'; img-src 'self' data: http:\/\/127\.0\.0\.1:\d+;/,
      );
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    });

    it('sends page 1 by its number to the home page of its language, the query kept', async () => {
      await expectFirstPageRedirects(get);
    });

    it('serves the logo images under the default assets path', async () => {
      const response = await get('/assets/media/brand/logo/toyota.svg');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    });

    it.skipIf(differences.noFingerprintedFiles)(
      'marks the fingerprinted files (/_astro/) immutable for a year, and not the pages',
      async () => {
        const assets = readdirSync(join(outDir, '_astro'));
        expect(assets.some((name) => name.endsWith('.css')) && assets.some((name) => name.endsWith('.js'))).toBe(true);
        for (const name of assets) {
          const response = await get(`/_astro/${name}`);
          expect(response.status, name).toBe(200);
          expect(response.headers.get('cache-control'), name).toBe(differences.ownCacheControl ?? FINGERPRINTED_HEADERS['Cache-Control']);
          expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
        }
        for (const path of ['/', '/page/2/', '/all.json'])
          expect((await get(path)).headers.get('cache-control') ?? '', path).not.toContain('immutable');
      },
    );

    it('lets any origin read the downloads, schemas, documents and search index; the manifest, the changes and the index are always revalidated', async () => {
      const documents = [
        ...(differences.noBuildHistory ? ['/manifest.json'] : ['/manifest.json', '/changes.json']),
        '/search/order/listing/0.json',
      ];
      for (const path of ['/all.json', '/all.csv', '/openapi.json', '/schema/page.schema.json', ...documents]) {
        const response = await get(path);
        // Read to the end: undici asserts on a connection closed under a body left unread.
        await response.arrayBuffer();
        expect(response.status, path).toBe(200);
        expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      }
      for (const path of documents) {
        const response = await get(path);
        await response.arrayBuffer();
        expect(response.headers.get('cache-control'), path).toBe(differences.ownCacheControl ?? 'no-cache');
      }
    });

    it.skipIf(differences.servesHostConfiguration)("answers 404 for the hosts' configuration files, which no client reads", async () => {
      for (const path of [
        '/_headers',
        '/.htaccess',
        '/vercel.json',
        '/.assetsignore',
        '/_errors/not-found.json',
        '/_errors/apache/not-found/.htaccess',
      ]) {
        const response = await get(path);
        await response.arrayBuffer();
        expect(response.status, path).toBe(404);
      }
    });

    it('serves the build manifest with the count and page count', async () => {
      const manifest = (await (await get('/manifest.json')).json()) as { count: number; pageCount: number };
      expect(manifest).toMatchObject({ count: 23, pageCount: 3 });
    });

    it('refuses methods other than GET, HEAD and OPTIONS on static files', async () => {
      const response = await raw('POST', '/manifest.json');
      expect(response.status).toBe(405);
      if (!differences.ownStaticMethodNotAllowed) expect(response.headers['allow']).toBe('GET, HEAD');
    });
  });
}

/**
 * `/page/1/` and `/zh-hk/page/1` (an old link, an edited address) answered with a permanent redirect
 * to the language's home page, the query kept, where a person lands on the page itself. `get` is a
 * host's fetch of a path (with its credentials), following redirects unless told otherwise. A host
 * that `dropsTrailingSlash` (Vercel's `trailingSlash: false`) redirects a path ending in one to the
 * path without it first, and serves the home pages there.
 */
export async function expectFirstPageRedirects(
  get: (path: string, init?: RequestInit) => Promise<Response>,
  { dropsTrailingSlash = false } = {},
): Promise<void> {
  const redirect = async (path: string, status: number) => {
    const response = await get(path, { redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.status, path).toBe(status);
    const location = new URL(response.headers.get('location') ?? '', new URL(path, 'http://host.invalid'));
    return `${location.pathname}${location.search}`;
  };
  for (const [from, to] of [
    ['/page/1/', '/'],
    ['/page/1', '/'],
    ['/zh-hk/page/1/', '/zh-hk/'],
    ['/zh-hk/page/1', '/zh-hk/'],
  ] as const) {
    for (const query of ['', '?q=toyota&sort=price']) {
      let path = `${from}${query}`;
      if (dropsTrailingSlash && from.endsWith('/')) {
        path = await redirect(path, 308);
        expect(path).toBe(`${from.slice(0, -1)}${query}`);
      }
      const home = dropsTrailingSlash && to !== '/' ? to.slice(0, -1) : to;
      expect(await redirect(path, 301), path).toBe(`${home}${query}`);
      const landed = await get(`${from}${query}`);
      expect(landed.status, `${from}${query}`).toBe(200);
      expect(landed.headers.get('content-type'), `${from}${query}`).toMatch(/^text\/html/);
      expect(await landed.text(), `${from}${query}`).toBe(await (await get(`${home}${query}`)).text());
    }
  }
}
