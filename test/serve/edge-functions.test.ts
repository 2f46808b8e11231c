/**
 * What the generated Netlify and Vercel files promise a protected deployment: their functions make
 * no HTTP request of their own (a protected site refuses one without the visitor's credentials,
 * docs/hosting.md), and Vercel's routes answer pages without a function, in a number of routes
 * that stays bounded whatever the listing's size. `netlify dev` cannot show the first: it sends a
 * function's requests to its own site straight to its local origin, past any protection in front.
 */
import { describe, expect, it } from 'vitest';
import { hostFiles } from '../../src/serve/hosts/index.ts';
import { PER_PAGE_RULE_LIMIT } from '../../src/serve/hosts/shared.ts';
import { FIRST_PAGE_REDIRECTS } from '../../src/listing/routes.ts';

const input = (count: number) => ({
  count,
  baseUrl: 'https://cars.example.com',
  assetsUrl: 'https://cdn.example.com/assets',
  siteDir: '/srv/site/dist',
});
const file = async (count: number, path: string) => {
  const found = (await hostFiles(input(count), '/srv/site/deploy')).find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no ${path} among the host files`);
  return found.content;
};

/** A call of the global `fetch` (not a binding's `env.ASSETS.fetch`). */
const GLOBAL_FETCH = /(?<![.\w$])fetch\s*\(/;

describe('the generated edge functions', () => {
  it('finds a call of the global fetch where there is one, and not a method called fetch', () => {
    expect(GLOBAL_FETCH.test('const r = await fetch(new URL("/x", url));')).toBe(true);
    expect(GLOBAL_FETCH.test('return env.ASSETS.fetch(request);')).toBe(false);
  });

  it.each(['netlify/edge-functions/listing.js', 'vercel/.vercel/output/functions/listing.func/index.js'])(
    '%s makes no HTTP request of its own',
    async (path) => {
      expect(await file(23, path)).not.toMatch(GLOBAL_FETCH);
    },
  );
});

describe('the Vercel Build Output routes', () => {
  interface Route {
    src?: string;
    methods?: string[];
    middlewarePath?: string;
    dest?: string;
  }
  const routes = async (count: number) =>
    (JSON.parse(await file(count, 'vercel/.vercel/output/config.json')) as { routes: Route[] }).routes;

  it('send GET and HEAD of every page to its static file, and only the rest to the middleware, last among the listing routes', async () => {
    const all = await routes(23);
    const pages = all.filter((route) => route.dest?.startsWith('/car/api/capture_car/latest/page/'));
    expect(pages.map((route) => route.dest)).toEqual([
      ...['/1.json', '/1.json', '/1.json', '/2.json', '/2.json', '/3.json', '/3.json'].map(
        (name) => `/car/api/capture_car/latest/page${name}`,
      ),
    ]);
    expect(pages.every((route) => route.methods?.join() === 'GET,HEAD')).toBe(true);
    const middleware = all.findIndex((route) => route.middlewarePath === 'listing');
    expect(middleware).toBeGreaterThan(all.indexOf(pages.at(-1)!));
  });

  it('stay bounded: three per page up to the per-page limit, none per page past it', async () => {
    const small = (await routes(PER_PAGE_RULE_LIMIT * 10)).length;
    const large = (await routes(PER_PAGE_RULE_LIMIT * 10 + 1)).length;
    expect(small).toBeLessThanOrEqual(PER_PAGE_RULE_LIMIT * 3 + 10);
    // The site's own few rules, and one for each form of page 1 by its number, which redirects.
    expect(large).toBeLessThan(20 + FIRST_PAGE_REDIRECTS.length);
    expect((await routes(1_000_000)).length).toBe(large);
  });
});
