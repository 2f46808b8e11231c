/**
 * Vercel, two ways. The Build Output folder (`deploy/vercel/.vercel/output/`): routes that answer
 * every page with its static file (no function runs for GET or HEAD of a page), and a Routing
 * Middleware (src/serve/edge/vercel-middleware.ts) for the rest, which rewrites to page files and
 * never reads one, so Deployment Protection leaves the listing whole (docs/hosting.md). Without
 * functions, `vercel.json` in the site: rewrites on the listing path with `has`/`missing` query
 * conditions (anchored regular expressions, named groups usable in the destination), JSON 404s
 * through rewrites with a `statusCode`, and headers. Existing files win over rewrites, so
 * `/page/N.json` is served as is.
 */
import type { HasField, Header, Rewrite, Route } from '@vercel/routing-utils';
import toRegexRange from 'to-regex-range';
import { LAST_PAGE_STRING, pageCount, pageNumbers } from '../../listing/pagination.ts';
import {
  ACCEPTED_FORMATS,
  ERROR_FILES,
  FILE_HEADER_RULES,
  FIRST_PAGE_REDIRECT_STATUS,
  FIRST_PAGE_REDIRECTS,
  headerList,
  LISTING_HEADERS,
  LISTING_HEADERS_BUT_TYPE,
  LISTING_PATH,
  linkHeader,
  PAGE_FILE_EXTENSION,
  PAGE_PATH_PREFIX,
  pageFile,
  pagePath,
  QUERY,
  siteHeaders,
} from '../../listing/routes.ts';
import { bundleEdge } from './edge-bundle.ts';
import { PER_PAGE_RULE_LIMIT, pageValuePattern, type HostFile, type HostInput } from './shared.ts';

/** A request that asks for no 304: header rules can only tell a 304 coming by what was asked. */
const UNCONDITIONAL: HasField[number] = { type: 'header', key: 'if-none-match' };
const LISTING_TYPE = { 'Content-Type': LISTING_HEADERS['Content-Type'] };
/** The listing's paths and its error files, as vercel.json's sources. */
const LISTING_SOURCES = [LISTING_PATH, `${LISTING_PATH}/:path*`, '/_errors/:path*'];

function vercelConfig(input: HostInput) {
  const last = pageCount(input.count);
  const page = (value: string): HasField => [{ type: 'query', key: QUERY.page, value }];
  const rewrites: Rewrite[] = [
    {
      source: LISTING_PATH,
      has: [{ type: 'query', key: QUERY.format, value: `(?!(?:${ACCEPTED_FORMATS.join('|')})$).+` }],
      destination: `/${ERROR_FILES.notFound.file}`,
      statusCode: 404,
    },
    { source: LISTING_PATH, missing: [{ type: 'query', key: QUERY.page }], destination: `/${pageFile(1)}` },
    { source: LISTING_PATH, has: page(LAST_PAGE_STRING), destination: `/${pageFile(last)}` },
    { source: LISTING_PATH, has: page(pageValuePattern(input.count)), destination: `${PAGE_PATH_PREFIX}:page.json` },
    { source: LISTING_PATH, destination: `/${ERROR_FILES.invalidPage.file}`, statusCode: 404 },
    { source: `${PAGE_PATH_PREFIX}:page(${toRegexRange(1, last)})`, destination: `${PAGE_PATH_PREFIX}:page.json` },
    { source: `${PAGE_PATH_PREFIX}:rest*`, destination: `/${ERROR_FILES.invalidPage.file}`, statusCode: 404 },
    { source: `${LISTING_PATH}/:rest*`, destination: `/${ERROR_FILES.notFound.file}`, statusCode: 404 },
  ];
  const links: Header[] =
    last <= PER_PAGE_RULE_LIMIT
      ? pageNumbers(input.count).flatMap((number) => {
          const link = linkHeader(number, input);
          if (!link) return [];
          const headers = [{ key: 'Link', value: link }];
          const query = number === last ? `0*(?:${number}|${LAST_PAGE_STRING})` : `0*${number}`;
          return [
            { source: LISTING_PATH, has: page(query), headers },
            ...(number === 1 ? [{ source: LISTING_PATH, missing: [{ type: 'query' as const, key: QUERY.page }], headers }] : []),
            { source: pagePath(number), headers },
            { source: `/${pageFile(number)}`, headers },
          ];
        })
      : [];
  return {
    cleanUrls: false,
    trailingSlash: false,
    // Page 1 by its number (`trailingSlash` has taken a slash off first) to the home page as this host serves it, without the slash.
    redirects: FIRST_PAGE_REDIRECTS.filter(({ from }) => !from.endsWith('/')).map(({ from, to }) => ({
      source: from,
      destination: to === '/' ? to : to.replace(/\/$/, ''),
      statusCode: FIRST_PAGE_REDIRECT_STATUS,
    })),
    rewrites,
    headers: [
      { source: '/(.*)', headers: headerList(siteHeaders(input.assetsUrl)) },
      ...FILE_HEADER_RULES.map(({ match, headers }) => ({
        source: 'exact' in match ? match.exact : `${match.folder}(.*)`,
        headers: headerList(headers),
      })),
      ...LISTING_SOURCES.map((source) => ({ source, headers: headerList(LISTING_HEADERS_BUT_TYPE) })),
      // The origin's type, but on a conditional request, whose 304 must carry none (a 200 then has the file's own JSON type).
      ...LISTING_SOURCES.map((source) => ({
        source,
        missing: [UNCONDITIONAL],
        headers: headerList(LISTING_TYPE),
      })),
      ...links,
    ],
  };
}

/** Where the Build Output API folder goes in the deploy folder. */
export const VERCEL_OUTPUT_DIR = 'vercel/.vercel/output';
/** Where the site is in the deploy folder: in the Build Output's `static/`, where Vercel reads it (src/publish/store.ts puts it there). */
export const VERCEL_STATIC_DIR = `${VERCEL_OUTPUT_DIR}/static`;
/** The Routing Middleware's name: `functions/listing.func/`, named by the routes' `middlewarePath`. */
const MIDDLEWARE_NAME = 'listing';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every listing path: the listing itself and anything under it. */
const LISTING_SRC = `^${escapeRegExp(LISTING_PATH)}(?:/.*)?$`;
/** The methods a route may answer with a static file; any other goes on to the middleware. */
const FILE_METHODS = ['GET', 'HEAD'];

/**
 * The routes that answer a page with its static file, one per page and form (the bare path, `?page=N`
 * with leading zeros, `/page/N`, `/page/N.json`), each with the page's `Link`: GET and HEAD of a
 * page run no function. They decide only what a route decides for certain on any router: digits,
 * and whether a parameter is there at all. So a `has` value is anchored (routers differ on whether
 * they anchor it), and a request with `format` goes to the middleware, since a router may match a
 * `has` value without regard to case (the one in the tests does) and `format=API` is "Not found.".
 * Past PER_PAGE_RULE_LIMIT pages there are none (Vercel caps a deployment's routes): the middleware
 * answers every page, with the same headers.
 */
function pageRoutes(input: HostInput): Route[] {
  if (pageCount(input.count) > PER_PAGE_RULE_LIMIT) return [];
  const noFormat: HasField = [{ type: 'query', key: QUERY.format }];
  return pageNumbers(input.count).flatMap((page): Route[] => {
    const link = linkHeader(page, input);
    const common = { methods: FILE_METHODS, missing: noFormat, dest: `/${pageFile(page)}`, ...(link ? { headers: { Link: link } } : {}) };
    return [
      ...(page === 1
        ? [{ src: `^${escapeRegExp(LISTING_PATH)}$`, ...common, missing: [...noFormat, { type: 'query' as const, key: QUERY.page }] }]
        : []),
      { src: `^${escapeRegExp(LISTING_PATH)}$`, has: [{ type: 'query', key: QUERY.page, value: `^0*${page}$` }], ...common },
      { src: `^${escapeRegExp(pagePath(page))}(?:${escapeRegExp(PAGE_FILE_EXTENSION)})?$`, ...common },
    ];
  });
}

/**
 * The Build Output API (v3) routes: the site headers on everything but the listing; on the listing,
 * its headers (`important`, so that they are the answer's, not the static file's type), the page
 * routes, then the Routing Middleware for the rest. A folder's `index.html` answers the folder, and
 * the site's 404 page a path that matches nothing.
 */
function buildOutputConfig(input: HostInput): string {
  const routes: Route[] = [
    { src: `^(?!${escapeRegExp(LISTING_PATH)}(?:/|$)).*$`, headers: siteHeaders(input.assetsUrl), continue: true },
    ...FILE_HEADER_RULES.map(({ match, headers }) => ({
      src: 'exact' in match ? `^${escapeRegExp(match.exact)}$` : `^${escapeRegExp(match.folder)}.*$`,
      headers: { ...headers },
      continue: true,
    })),
    { src: LISTING_SRC, headers: { ...LISTING_HEADERS_BUT_TYPE }, important: true, continue: true },
    // The origin's type, but on a conditional request, whose 304 must carry none (a 200 then has the file's own JSON type).
    { src: LISTING_SRC, missing: [UNCONDITIONAL], headers: { ...LISTING_TYPE }, important: true, continue: true },
    ...pageRoutes(input),
    { src: LISTING_SRC, middlewarePath: MIDDLEWARE_NAME, continue: true },
    // Page 1 by its number to the home page (the router keeps the query).
    ...FIRST_PAGE_REDIRECTS.map(({ from, to }) => ({
      src: `^${escapeRegExp(from)}$`,
      status: FIRST_PAGE_REDIRECT_STATUS,
      headers: { Location: to },
    })),
    { handle: 'filesystem' },
    { src: '^/$', dest: '/index.html', check: true },
    { src: '^/(.+)/$', dest: '/$1/index.html', check: true },
    { handle: 'error' },
    { status: 404, src: '^/(.*)$', dest: '/404.html' },
  ];
  return `${JSON.stringify({ version: 3, routes }, null, 2)}\n`;
}

export async function vercelFiles(input: HostInput): Promise<HostFile[]> {
  const functionDir = `${VERCEL_OUTPUT_DIR}/functions/${MIDDLEWARE_NAME}.func`;
  return [
    { place: 'site', path: 'vercel.json', content: `${JSON.stringify(vercelConfig(input), null, 2)}\n` },
    { place: 'deploy', path: `${VERCEL_OUTPUT_DIR}/config.json`, content: buildOutputConfig(input) },
    { place: 'deploy', path: `${functionDir}/index.js`, content: await bundleEdge('vercel-middleware', input) },
    {
      place: 'deploy',
      path: `${functionDir}/.vc-config.json`,
      content: `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2)}\n`,
    },
  ];
}
