/**
 * Vercel: `vercel.json` rewrites on the listing path with `has`/`missing` query conditions (anchored
 * regular expressions, named groups usable in the destination), JSON 404s through rewrites with a
 * `statusCode`, and headers. Existing files win over rewrites, so `/page/N.json` is served as is.
 */
import toRegexRange from 'to-regex-range';
import { LAST_PAGE_STRING, pageCount, pageNumbers } from '../listing.ts';
import {
  ACCEPTED_FORMATS,
  ERROR_FILES,
  LISTING_HEADERS,
  LISTING_PATH,
  linkHeader,
  PAGE_PATH_PREFIX,
  pageFile,
  pagePath,
  QUERY,
  siteHeaders,
} from '../routes.ts';
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
export interface VercelConfig {
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
      { source: LISTING_PATH, headers: headerList(LISTING_HEADERS) },
      { source: `${LISTING_PATH}/:path*`, headers: headerList(LISTING_HEADERS) },
      { source: '/_errors/:path*', headers: headerList(LISTING_HEADERS) },
      ...links,
    ],
  };
}

export function vercelFiles(input: HostInput): HostFile[] {
  return [{ place: 'site', path: 'vercel.json', content: `${JSON.stringify(vercelConfig(input), null, 2)}\n` }];
}
