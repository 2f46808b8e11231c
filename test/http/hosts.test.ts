/**
 * The generated Netlify, Vercel and Cloudflare configurations, rule by rule: every listing URL of the
 * behaviour suite must reach the file and headers the route table says, except where a host cannot
 * (each difference is named). The Cloudflare worker is the generated bundle, run on real Requests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { answerListing, BODIES, LISTING_HEADERS, linkHeader, pageFile, type ListingAnswer } from '../../src/lib/routes.ts';
import { netlifyAnswer, vercelAnswer, type HostAnswer } from '../support/static-hosts.ts';

const outDir = inject('outDir');
const deployDir = inject('deployDir');
const state = { count: 23, baseUrl: inject('baseUrl') };
const LISTING = '/car/api/capture_car/latest';

/** Every listing request of the behaviour suite. */
const TARGETS = [
  '', '?page=1', '?page=2', '?page=3', '?format=api&page=2', '?page=2&format=api', '?format=json&page=3', '?page=2&format=json',
  '?utm_source=x&page=2', '?page=last', '?format=api&page=last', '?format=api', '?format=json', '?page=', '?page=02',
  '?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=2.0', '?page=4', '?page=LAST', '?page=%202%20', '?page=%2B2',
  '?format=xml', '?format=xml&page=2', '?format=JSON', '?page=1&page=2',
  '/page/1', '/page/2', '/page/3', '/page/2.json', '/page/0', '/page/4', '/page/01', '/page/abc', '/detail/1',
].map((suffix) => `${LISTING}${suffix}`);

/** What the origin answers, from the route table. */
function expected(target: string): ListingAnswer {
  const url = new URL(target, 'http://origin.test');
  return answerListing({ method: 'GET', pathname: url.pathname, query: url.searchParams }, state);
}

/** The body a static host sends for an answer: the page file's, or the error file's. */
const bodyOf = (answer: HostAnswer) => (answer.file ? readFileSync(join(outDir, answer.file), 'utf8') : undefined);

function expectSameAnswer(actual: HostAnswer, wanted: ListingAnswer, options: { allow: boolean; link: boolean }): void {
  expect(actual.status).toBe(wanted.status);
  if ('page' in wanted) {
    expect(actual.file).toBe(pageFile(wanted.page));
    if (options.link) expect(actual.headers['Link']).toBe(linkHeader(wanted.page, state));
  } else {
    expect(bodyOf(actual)).toBe(wanted.body);
  }
  expect(actual.headers['Content-Type']).toBe(LISTING_HEADERS['Content-Type']);
  expect(actual.headers['Vary']).toBe('Accept');
  expect(actual.headers['Access-Control-Allow-Origin']).toBe('*');
  expect(actual.headers['Cache-Control']).toBe(LISTING_HEADERS['Cache-Control']);
  if (options.allow) expect(actual.headers['Allow']).toBe('GET, HEAD, OPTIONS');
}

const invalidPage = (target: string): ListingAnswer => ({ status: 404, body: BODIES.invalidPage, headers: expected(target).headers });
const pageAnswer = (target: string, page: number): ListingAnswer => ({ status: 200, page, headers: expected(target).headers });

describe('Netlify (_redirects and _headers)', () => {
  /**
   * Netlify matches query values exactly and cannot say "any format but api or json", so: an
   * unknown format is served as the page; `page=` (empty) and `page=02` are invalid; the first of
   * repeated parameters counts; Allow is dropped by Netlify and Link is not sent (one _headers
   * rule per page would break Cloudflare's 100-rule limit on the shared file).
   */
  function netlifyExpected(target: string): ListingAnswer {
    const url = new URL(target, 'http://netlify.test');
    const page = url.searchParams.get('page');
    if (url.pathname === LISTING && url.searchParams.has('format')) {
      const withoutFormat = new URL(url);
      withoutFormat.searchParams.delete('format');
      return netlifyExpected(`${withoutFormat.pathname}${withoutFormat.search}`);
    }
    if (url.pathname === LISTING && page !== null && !/^(?:[1-9][0-9]*|last)$/.test(page)) return invalidPage(target);
    if (url.pathname === LISTING && page !== null && page !== 'last') return Number(page) <= 3 ? pageAnswer(target, Number(page)) : invalidPage(target);
    return expected(target);
  }

  it.each(TARGETS)('%s', (target) => {
    expectSameAnswer(netlifyAnswer(outDir, target), netlifyExpected(target), { allow: false, link: false });
  });

  it('keeps _headers within Cloudflare\'s limit of 100 rules', () => {
    const rules = readFileSync(join(outDir, '_headers'), 'utf8').split('\n').filter((line) => line.startsWith('/'));
    expect(rules.length).toBeLessThanOrEqual(100);
  });

  it('sends the security headers on the other files of the site', () => {
    const headers = netlifyAnswer(outDir, '/manifest.json').headers;
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Content-Security-Policy']).toContain("default-src 'self'");
  });
});

describe('Vercel (vercel.json)', () => {
  /**
   * Vercel's `has` values are anchored regular expressions, so it follows the route table except
   * that `page=` (empty) and Python int() forms other than leading zeros are invalid, and the first
   * of repeated parameters counts.
   */
  function vercelExpected(target: string): ListingAnswer {
    const url = new URL(target, 'http://vercel.test');
    const page = url.searchParams.get('page');
    const format = url.searchParams.get('format');
    if (url.pathname !== LISTING || (format && !['api', 'json'].includes(format))) return expected(target);
    if (page === '' || (page !== null && !/^(?:0*[1-9][0-9]*|last)$/.test(page))) return invalidPage(target);
    if (page !== null && page !== 'last') return Number(page) <= 3 ? pageAnswer(target, Number(page)) : invalidPage(target);
    return expected(target);
  }

  it.each(TARGETS)('%s', (target) => {
    expectSameAnswer(vercelAnswer(outDir, target), vercelExpected(target), { allow: true, link: true });
  });

  it('sends the security headers on the HTML pages', () => {
    const answer = vercelAnswer(outDir, '/page/2/index.html');
    expect(answer.status).toBe(200);
    expect(answer.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(answer.headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(answer.headers['Content-Security-Policy']).toContain("script-src 'self'");
  });
});

describe('Cloudflare (the generated worker on Workers static assets)', () => {
  interface Worker {
    fetch: (request: Request, env: { ASSETS: { fetch: (request: Request | URL | string) => Promise<Response> } }) => Promise<Response>;
  }
  let worker: Worker;
  /** The ASSETS binding: files of the built site, 404 for anything else, as Cloudflare's asset server. */
  const env = {
    ASSETS: {
      fetch: async (request: Request | URL | string) => {
        const url = new URL(request instanceof Request ? request.url : request);
        try {
          return new Response(readFileSync(join(outDir, decodeURIComponent(url.pathname))), { status: 200 });
        } catch {
          return new Response('Not Found', { status: 404 });
        }
      },
    },
  };

  beforeAll(async () => {
    worker = ((await import(pathToFileURL(join(deployDir, 'cloudflare/worker.js')).href)) as { default: Worker }).default;
  });

  it.each(TARGETS)('GET %s answers exactly as the route table says', async (target) => {
    const wanted = expected(target);
    const response = await worker.fetch(new Request(`https://cars.example.com${target}`), env);
    expect(response.status).toBe(wanted.status);
    expect(Object.fromEntries(response.headers)).toEqual(Object.fromEntries(Object.entries(wanted.headers).map(([key, value]) => [key.toLowerCase(), value])));
    const body = await response.text();
    expect(body).toBe('page' in wanted ? readFileSync(join(outDir, pageFile(wanted.page)), 'utf8') : wanted.body);
  });

  it.each(['HEAD', 'OPTIONS', 'POST', 'DELETE'])('%s answers as the origin does', async (method) => {
    const target = `${LISTING}?page=2`;
    const url = new URL(target, 'http://origin.test');
    const wanted = answerListing({ method, pathname: url.pathname, query: url.searchParams }, state);
    const response = await worker.fetch(new Request(`https://cars.example.com${target}`, { method }), env);
    expect(response.status).toBe(wanted.status);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const body = await response.text();
    if (method === 'HEAD') expect(body).toBe('');
    else if (!('page' in wanted)) expect(body).toBe(wanted.body);
  });

  it('hands every other path to the static assets', async () => {
    const response = await worker.fetch(new Request('https://cars.example.com/manifest.json'), env);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { count: number }).count).toBe(23);
  });

  it('points wrangler at the built site and runs the worker first on the listing', () => {
    const wrangler = JSON.parse(readFileSync(join(deployDir, 'cloudflare/wrangler.json'), 'utf8')) as {
      main: string;
      assets: { directory: string; run_worker_first: string[] };
    };
    expect(wrangler.main).toBe('./worker.js');
    expect(join(deployDir, 'cloudflare', wrangler.assets.directory)).toBe(outDir);
    expect(wrangler.assets.run_worker_first).toEqual([LISTING, `${LISTING}/*`]);
  });
});
