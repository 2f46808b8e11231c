/**
 * Vercel: `vercel.json` rewrites on the listing path with `has`/`missing` query conditions (anchored
 * regular expressions, named groups usable in the destination), JSON 404s through rewrites with a
 * `statusCode`, and headers. Existing files win over rewrites, so `/page/N.json` is served as is.
 */
import toRegexRange from 'to-regex-range';
import { LAST_PAGE_STRING, pageCount, pageNumbers } from '../../listing/pagination.ts';
import {
  ACCEPTED_FORMATS,
  ERROR_FILES,
  FINGERPRINTED_FOLDER,
  FINGERPRINTED_HEADERS,
  LISTING_HEADERS,
  LISTING_PATH,
  linkHeader,
  PAGE_PATH_PREFIX,
  pageFile,
  pagePath,
  QUERY,
  siteHeaders,
} from '../../listing/routes.ts';
import { LISTING_PATH_PARAMETER } from '../edge/vercel-function.ts';
import { PAGE_FILE_REQUEST_HEADER } from '../handler.ts';
import { bundleEdge } from './edge-bundle.ts';
import { PER_PAGE_RULE_LIMIT, pageValuePattern, type HostFile, type HostInput } from './shared.ts';

interface Condition {
  type: 'query';
  key: string;
  value?: string;
}
interface Rewrite {
  source: string;
  destination: string;
  has?: Condition[];
  missing?: Condition[];
  statusCode?: number;
}
interface HeaderRule {
  source: string;
  has?: Condition[];
  headers: { key: string; value: string }[];
}
interface VercelConfig {
  cleanUrls: boolean;
  trailingSlash: boolean;
  rewrites: Rewrite[];
  headers: HeaderRule[];
}

const headerList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

function vercelConfig(input: HostInput): VercelConfig {
  const last = pageCount(input.count);
  const page = (value: string): Condition[] => [{ type: 'query', key: QUERY.page, value }];
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
  const links: HeaderRule[] =
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
    rewrites,
    headers: [
      { source: '/(.*)', headers: headerList(siteHeaders(input.assetsUrl)) },
      { source: `/${FINGERPRINTED_FOLDER}/(.*)`, headers: headerList(FINGERPRINTED_HEADERS) },
      { source: LISTING_PATH, headers: headerList(LISTING_HEADERS) },
      { source: `${LISTING_PATH}/:path*`, headers: headerList(LISTING_HEADERS) },
      { source: '/_errors/:path*', headers: headerList(LISTING_HEADERS) },
      ...links,
    ],
  };
}

/** Where the Build Output API folder goes in the deploy folder; `static/` in it is linked to the site by the build. */
export const VERCEL_OUTPUT_DIR = 'vercel/.vercel/output';
const FUNCTION_NAME = 'listing';

/**
 * The Build Output API (v3) routes: the listing's paths go to the edge function (which gets the
 * path asked for as a parameter, and reads page files past itself), the site headers apply to
 * everything else, then the static files, then the site's 404 page.
 */
function buildOutputConfig(input: HostInput): string {
  const routes = [
    {
      src: `^(${LISTING_PATH}(?:/.*)?)$`,
      missing: [{ type: 'header', key: PAGE_FILE_REQUEST_HEADER }],
      dest: `/${FUNCTION_NAME}?${LISTING_PATH_PARAMETER}=$1`,
    },
    { src: '^/(.*)$', headers: siteHeaders(input.assetsUrl), continue: true },
    { src: `^/${FINGERPRINTED_FOLDER}/.*$`, headers: FINGERPRINTED_HEADERS, continue: true },
    { src: `^${PAGE_PATH_PREFIX}.*$`, headers: LISTING_HEADERS, continue: true },
    { handle: 'filesystem' },
    { handle: 'error' },
    { status: 404, src: '^/(.*)$', dest: '/404.html' },
  ];
  return `${JSON.stringify({ version: 3, routes }, null, 2)}\n`;
}

export async function vercelFiles(input: HostInput): Promise<HostFile[]> {
  const functionDir = `${VERCEL_OUTPUT_DIR}/functions/${FUNCTION_NAME}.func`;
  return [
    { place: 'site', path: 'vercel.json', content: `${JSON.stringify(vercelConfig(input), null, 2)}\n` },
    { place: 'deploy', path: `${VERCEL_OUTPUT_DIR}/config.json`, content: buildOutputConfig(input) },
    { place: 'deploy', path: `${functionDir}/index.js`, content: await bundleEdge('vercel-function', input) },
    { place: 'deploy', path: `${functionDir}/.vc-config.json`, content: `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2)}\n` },
  ];
}
